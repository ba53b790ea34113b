package index

import (
	"bytes"
	"context"
	"fmt"
	"io"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/snapfile"
	"github.com/twindex/twindex/storage"
)

// A snapshot is a memory index written out: its store, with the text of
// each document uncompressed (so that a compressor such as gzip, which
// the page's server applies, finds its repetitions), and its text index
// as package compact encodes it, in the format of package snapfile. The
// trigram index is not in it: OpenSnapshot rebuilds it from the text,
// which takes less time than its postings, several times the size of the
// text, take to download. Loading analyzes no word.

// snapshotBuckets are the store's buckets a snapshot holds: all of those
// in index.go but the write log, which has nothing to replay for indexes
// in step with their store. A bucket added there must be added here.
var snapshotBuckets = [][]byte{bucketMeta, bucketDocs, bucketChildren, bucketLinks}

// WriteSnapshot writes the whole index to w, for OpenSnapshot. The index
// must be a memory index on the Compact backend. Writes wait while it
// takes its point-in-time view (a copy of the store's entries, O(store
// entries)), not while it writes; searches never wait. Cost: O(size of
// the index).
func (ix *Index) WriteSnapshot(w io.Writer) error {
	view, err := ix.snapshotView()
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	var text bytes.Buffer
	if err := view.text.Encode(&text); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := snapfile.Write(w, view.buckets, text.Bytes()); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
}

// snapshotView is what a snapshot holds, taken at one point in time.
type snapshotView struct {
	buckets []snapfile.Bucket
	text    *compact.Snapshot
}

// snapshotView takes the store's entries and the text index while no
// write runs, so that they show the same writes.
func (ix *Index) snapshotView() (*snapshotView, error) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err := ix.ready(readsInStep)
	ix.mu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	text, ok := ix.text.(*compact.Index)
	if !ok {
		return nil, fmt.Errorf("%w: snapshots need a memory index on the %s backend", ErrBackend, Compact)
	}
	v := snapshotView{text: text.Snapshot()}
	err = ix.store.View(func(tx storage.Tx) error {
		for _, name := range snapshotBuckets {
			b := snapfile.Bucket{Name: name}
			err := tx.Scan(name, nil, func(k, val []byte) error {
				// Copies: a store's bytes are valid only in its transaction.
				if bytes.Equal(name, bucketDocs) {
					var err error
					if val, err = record.Raw(val); err != nil {
						return fmt.Errorf("document %q: %w", k, err)
					}
				}
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

// OpenSnapshot returns a memory index loaded from a snapshot that
// WriteSnapshot wrote; a *bytes.Buffer is read in place, without a copy,
// and must not change until OpenSnapshot returns. Options are as for OpenMemory; the backend is
// Compact, and another is ErrBackend. Damaged or truncated bytes give an
// error matching ErrCorrupt (a *CorruptError whose Path is "snapshot").
// Cost: O(size of the snapshot) to read it, no analysis of words, and the
// trigram index built from the text as a write of every document builds
// it, unless Options.TrigramsLater leaves that to BuildTrigrams.
func OpenSnapshot(r io.Reader, opts *Options) (*Index, error) {
	if opts != nil && opts.Backend != "" && opts.Backend != Compact {
		return nil, fmt.Errorf("open snapshot: %w: snapshots hold %s indexes, not %s", ErrBackend, Compact, opts.Backend)
	}
	o := opts.WithDefaults()
	o.Backend = Compact
	var data []byte
	if b, ok := r.(*bytes.Buffer); ok {
		data = b.Bytes() // read in place: a page's memory never shrinks
	} else {
		var buf bytes.Buffer
		if l, ok := r.(interface{ Len() int }); ok {
			buf.Grow(l.Len()) // read a bytes.Reader in one copy
		}
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, fmt.Errorf("open snapshot: %w", err)
		}
		data = buf.Bytes()
	}
	snap, err := snapfile.Decode(data)
	if err != nil {
		return nil, &CorruptError{Path: "snapshot", Err: err}
	}
	text, err := compact.Decode(snap.Text, nil)
	if err != nil {
		return nil, &CorruptError{Path: "snapshot", Err: err}
	}
	st := storage.NewMemory(&storage.Options{Fault: o.fault})
	seen := map[string]bool{}
	for _, b := range snap.Buckets {
		if seen[string(b.Name)] {
			st.Close()
			return nil, &CorruptError{Path: "snapshot", Err: fmt.Errorf("bucket %q twice", b.Name)}
		}
		seen[string(b.Name)] = true
		if err := st.Load(b.Name, b.Keys, b.Vals); err != nil {
			st.Close()
			return nil, fmt.Errorf("open snapshot: %w", err)
		}
	}

	// Open an empty index, then put the snapshot's store and text index in
	// place of its own, and fill its trigram index, before anyone else can
	// see it.
	ix, err := open("", storage.NewMemory(&storage.Options{Fault: o.fault}), o)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	if err := ix.adopt(st, text, o.TrigramsLater); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// adopt replaces ix's store and text index, which are empty and which
// nothing else uses yet, with a snapshot's, and builds the trigram index
// from the store unless later is set (BuildTrigrams builds it then).
func (ix *Index) adopt(st storage.Store, text bleveindex.Index, later bool) (err error) {
	defer ix.guard(&err)
	ix.publish(nil) // the empty indexes' view
	old := ix.store
	ix.store = st
	old.Close()
	ix.text.Close()
	ix.text = text
	had, err := ix.checkSchema()
	if err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	// The snapshot's language, which its indexes were analyzed in.
	if ix.textA, err = ix.language(had); err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	seq, err := ix.storedSeq()
	if err != nil {
		return err
	}
	applied, err := appliedSeq(ix.text)
	if err != nil {
		return &CorruptError{Path: "snapshot", Err: err}
	}
	if applied != seq {
		return &CorruptError{Path: "snapshot", Err: fmt.Errorf("the text index is at write %d, the store at %d", applied, seq)}
	}
	if had < rebuildBelow {
		// A snapshot of an older layout: its text index is made anew
		// from its store.
		fresh := compact.New(ix.queue)
		if err := ix.fill(context.Background(), fresh, ix.textDoc, seq, nil); err != nil {
			fresh.Close()
			return fmt.Errorf("open snapshot: rebuild the text index of schema %d: %w", had, err)
		}
		ix.text.Close()
		ix.text = fresh
	}
	if !later {
		if err := ix.fill(context.Background(), ix.tri, ix.trigramDoc, seq, nil); err != nil {
			return fmt.Errorf("open snapshot: trigram index: %w", err)
		}
	}
	if err := ix.writeSchema(had); err != nil {
		return fmt.Errorf("open snapshot: %w", err)
	}
	ix.publish(&view{seq: seq, noTrigrams: later})
	return nil
}

// fill fills idx, an empty memory index, from the store at write seq, in
// batches of replayChunk (1,000) documents, each left a segment of its
// own: a batch's build holds its postings twice (as collected and as laid
// out), a merge holds them beside the merged segment's, and a page's
// memory keeps its highest point. The demo's 3,000 documents in one
// batch took the page to 54.8 MiB, in batches of 1,000 to 37.8 MiB, and
// loaded no slower (before the short grams). pause, when not nil, runs
// between two batches, and inside each as compact.Index.PauseBuilds says.
func (ix *Index) fill(ctx context.Context, idx bleveindex.Index, mk recordMaker, seq uint64, pause func()) error {
	if c, ok := idx.(*compact.Index); ok {
		c.HoldMerges(true)
		c.PauseBuilds(pause)
		defer func() {
			c.HoldMerges(false)
			c.PauseBuilds(nil)
		}()
	}
	return ix.reindex(ctx, idx, mk, seq, pause)
}

// BuildTrigrams builds the trigram index of a snapshot opened with
// Options.TrigramsLater, calling pause, when not nil, between its batches
// of 1,000 documents and every 64 documents inside each (a page's event
// loop runs there: js/wasm runs one goroutine at a time), and makes
// searches use it: their results are then those of an index
// OpenSnapshot built whole.
// It returns at once when the index has one. Writes, Close and the
// searches of a shard (Gather) wait until it is done, other searches do
// not; pause must not write to ix, nor close it. Cost: what OpenSnapshot
// spends on the trigram index.
func (ix *Index) BuildTrigrams(ctx context.Context, pause func()) (err error) {
	defer ix.guard(&err)
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	return ix.buildTrigrams(ctx, pause)
}

// buildTrigrams is BuildTrigrams with writeMu held: the view, which only
// a holder of writeMu replaces, says whether there is one to build.
func (ix *Index) buildTrigrams(ctx context.Context, pause func()) error {
	ix.mu.RLock()
	err := ix.ready(readsIndexes)
	v := ix.view
	ix.mu.RUnlock()
	if err != nil {
		return fmt.Errorf("build trigrams: %w", err)
	}
	if !v.noTrigrams {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("build trigrams: %w", err)
	}
	if err := ix.fill(ctx, ix.tri, ix.trigramDoc, v.seq, pause); err != nil {
		return fmt.Errorf("build trigrams: %w", err)
	}
	ix.publish(&view{seq: v.seq})
	return nil
}
