package index

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/blevesearch/bleve/v2/index/upsidedown"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/memkv"
	"github.com/twindex/twindex/index/internal/snapfile"
	"github.com/twindex/twindex/storage"
)

// A snapshot is a memory index written out whole: its store and the rows
// of both upsidedown indexes, in the format of package snapfile. Loading
// it analyzes nothing.

// snapshotBuckets are the store's buckets a snapshot holds: all of those
// in index.go but the write log, which has nothing to replay for indexes
// in step with their store. A bucket added there must be added here.
var snapshotBuckets = [][]byte{bucketMeta, bucketDocs, bucketChildren, bucketLinks}

// WriteSnapshot writes the whole index to w, for OpenSnapshot. The index
// must be a memory index on the UpsideDown backend. Writes wait while it
// takes its point-in-time view (a copy of the store's entries, O(store
// entries)), not while it writes; searches never wait. Cost: O(size of
// the index).
func (ix *Index) WriteSnapshot(w io.Writer) error {
	view, err := ix.snapshotView()
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := snapfile.Write(w, view.buckets, view.trees[0], view.trees[1]); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
}

// snapshotView is what a snapshot holds, taken at one point in time.
type snapshotView struct {
	buckets []snapfile.Bucket
	trees   [2]memkv.Snapshot // text, trigram
}

// snapshotView takes the store's entries and the roots of both trees
// while no write runs, so that they show the same writes.
func (ix *Index) snapshotView() (*snapshotView, error) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err := ix.ready(readsInStep)
	ix.mu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	var v snapshotView
	for i, idx := range []bleveindex.Index{ix.text, ix.tri} {
		kv, err := memKVOf(idx)
		if err != nil {
			return nil, err
		}
		v.trees[i] = kv.Snapshot()
	}
	err = ix.store.View(func(tx storage.Tx) error {
		for _, name := range snapshotBuckets {
			b := snapfile.Bucket{Name: name}
			err := tx.Scan(name, nil, func(k, val []byte) error {
				// Copies: a store's bytes are valid only in its transaction.
				b.Keys, b.Vals = append(b.Keys, bytes.Clone(k)), append(b.Vals, bytes.Clone(val))
				return nil
			})
			if err != nil {
				return err
			}
			v.buckets = append(v.buckets, b)
		}
		return nil
	})
	return &v, err
}

// memKVOf returns the store under a memory upsidedown index.
func memKVOf(idx bleveindex.Index) (*memkv.Store, error) {
	if ud, ok := idx.(*upsidedown.UpsideDownCouch); ok {
		if kv, err := ud.Advanced(); err == nil {
			if m, ok := kv.(*memkv.Store); ok {
				return m, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: snapshots need a memory index on the %s backend", ErrBackend, UpsideDown)
}

// OpenSnapshot returns a memory index loaded from a snapshot that
// WriteSnapshot wrote. Options are as for OpenMemory; the backend is
// UpsideDown, and another is ErrBackend. Damaged or truncated bytes give
// an error matching ErrCorrupt (a *CorruptError whose Path is "snapshot").
// Cost: O(size of the snapshot), with no analysis or sorting.
func OpenSnapshot(r io.Reader, opts *Options) (*Index, error) {
	if opts != nil && opts.Backend != "" && opts.Backend != UpsideDown {
		return nil, fmt.Errorf("open snapshot: %w: snapshots hold %s indexes, not %s", ErrBackend, UpsideDown, opts.Backend)
	}
	o := opts.withDefaults()
	o.Backend = UpsideDown
	var buf bytes.Buffer
	if l, ok := r.(interface{ Len() int }); ok {
		buf.Grow(l.Len()) // read a bytes.Reader in one copy
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	snap, err := snapfile.Decode(buf.Bytes())
	if err != nil {
		return nil, &CorruptError{Path: "snapshot", Err: err}
	}
	st := storage.NewMemory(&storage.Options{Fault: o.fault})
	err = st.Update(func(tx storage.Tx) error {
		for _, b := range snap.Buckets {
			for i := range b.Keys {
				if err := tx.Put(b.Name, b.Keys[i], b.Vals[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open snapshot: %w", err)
	}

	// Open an empty index, then put the snapshot's store and indexes in
	// place of its own before anyone else can see it.
	ix, err := open("", storage.NewMemory(&storage.Options{Fault: o.fault}), o)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	if err := ix.adopt(st, snap); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// adopt replaces ix's store and bleve indexes, which are empty and which
// nothing else uses yet, with a snapshot's.
func (ix *Index) adopt(st storage.Store, snap *snapfile.File) (err error) {
	// bleve reads the rows as it opens them and may panic on bad ones.
	defer ix.guard(&err)
	ix.publish(nil) // the empty indexes' view
	old := ix.store
	ix.store = st
	old.Close()
	for _, leg := range []struct {
		idx *bleveindex.Index
		kv  *memkv.Store
	}{{&ix.text, snap.Text}, {&ix.tri, snap.Trigram}} {
		idx, err := openUpsideDown(leg.kv, ix.queue)
		if err != nil {
			return &CorruptError{Path: "snapshot", Err: err}
		}
		(*leg.idx).Close()
		*leg.idx = idx
	}
	had, err := ix.checkSchema()
	if err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	// The snapshot's language, which its indexes were analyzed in.
	if ix.textA, err = ix.language(had); err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	if err := ix.checkSnapshotSeq(); err != nil {
		return &CorruptError{Path: "snapshot", Err: err}
	}
	seq, err := ix.storedSeq()
	if err != nil {
		return err
	}
	if had < rebuildBelow {
		// A snapshot of an older layout: its indexes are made anew from
		// its store.
		for _, leg := range []struct {
			idx *bleveindex.Index
			mk  func(*Doc, []byte) bleveindex.Document
		}{{&ix.text, ix.textDoc}, {&ix.tri, ix.trigramDocs(seq)}} {
			idx, err := openUpsideDown(nil, ix.queue)
			if err != nil {
				return err
			}
			(*leg.idx).Close()
			*leg.idx = idx
			if err := ix.reindex(context.Background(), idx, leg.mk, seq); err != nil {
				return fmt.Errorf("open snapshot: rebuild an index of schema %d: %w", had, err)
			}
		}
	}
	if err := ix.writeSchema(had); err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	ix.publish(&view{seq: seq})
	return nil
}

// checkSnapshotSeq makes sure both indexes have applied every write of
// the store: a snapshot has no log to catch up from.
func (ix *Index) checkSnapshotSeq() error {
	seq, err := ix.storedSeq()
	if err != nil {
		return err
	}
	for _, idx := range []bleveindex.Index{ix.text, ix.tri} {
		applied, err := appliedSeq(idx)
		if err != nil {
			return err
		}
		if applied != seq {
			return fmt.Errorf("an index is at write %d, the store at %d", applied, seq)
		}
	}
	return nil
}
