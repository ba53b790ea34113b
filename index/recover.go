package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// The store is the truth and every write first commits there, with a log
// entry (sequence number -> IDs written). Each bleve index records the
// last sequence number it applied, in the same bleve batch as the
// documents, so its durable state is always "every batch up to N". On
// Open, and after a failed apply, recover replays the log entries after N
// from the store's current documents; log entries that every index has
// durably applied are pruned.

// recover brings both bleve indexes up to the store's sequence number and
// publishes their view. The caller holds writeMu (or owns ix exclusively).
func (ix *Index) recover(ctx context.Context) (err error) {
	defer ix.guard(&err)
	storeSeq, err := ix.storedSeq()
	if err != nil {
		return fmt.Errorf("recover: %w", err)
	}
	minSeq := storeSeq
	for _, leg := range []struct {
		name string
		idx  bleveindex.Index
		mk   recordMaker
	}{{"text", ix.text, ix.textDoc}, {"trigram", ix.tri, ix.trigramDoc}} {
		seq, err := appliedSeq(leg.idx)
		if err != nil {
			return fmt.Errorf("recover %s index: %w", leg.name, err)
		}
		minSeq = min(minSeq, seq)
		if seq == storeSeq {
			continue
		}
		if ix.opts.ReadOnly {
			return fmt.Errorf("recover %s index: %w: it applied the store's writes up to %d of %d", leg.name, ErrReadOnly, seq, storeSeq)
		}
		if err := ix.replay(ctx, leg.idx, leg.mk, seq, storeSeq); err != nil {
			return fmt.Errorf("recover %s index: %w", leg.name, err)
		}
	}
	ix.mu.Lock()
	ix.stale = nil
	ix.mu.Unlock()
	ix.publish(&view{seq: storeSeq})
	if ix.opts.ReadOnly {
		return nil // the log is pruned by the next writer
	}
	// Entries up to minSeq are durable in both indexes: what we read above
	// came from their persisted state (or, for memory indexes, from this
	// process, where the log is of no further use either).
	return ix.store.Update(func(tx storage.Tx) error {
		var dead [][]byte
		err := tx.Scan(bucketLog, nil, func(k, _ []byte) error {
			if binary.BigEndian.Uint64(k) <= minSeq {
				dead = append(dead, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range dead {
			if err := tx.Delete(bucketLog, k); err != nil {
				return err
			}
		}
		return nil
	})
}

// replay applies to idx the current state of every document written by
// log entries (from, to]. If the log no longer covers that range (the
// index is older than the log, or ahead of the store), it reindexes every
// document instead.
func (ix *Index) replay(ctx context.Context, idx bleveindex.Index, mk recordMaker, from, to uint64) error {
	ids := map[string]bool{}
	covered := from < to
	if covered {
		err := ix.store.View(func(tx storage.Tx) error {
			for s := from + 1; s <= to; s++ {
				v := tx.Get(bucketLog, seqKey(s))
				if v == nil {
					covered = false
					return nil
				}
				for _, id := range bytes.Split(v, []byte{0}) {
					ids[string(id)] = true
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if !covered {
		return ix.reindex(ctx, idx, mk, to, nil)
	}
	var chunk []string
	docs, seqs := map[string]*Doc{}, map[string]uint64{}
	flush := func(seq uint64) error {
		err := ix.applyOne(idx, withSeqs(mk, seqs), seq, chunk, docs)
		chunk = chunk[:0]
		clear(docs)
		clear(seqs)
		return err
	}
	err := ix.store.View(func(tx storage.Tx) error {
		for id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			chunk = append(chunk, id)
			if v := tx.Get(bucketDocs, []byte(id)); v != nil {
				d, h, err := decodeDoc(id, v, true)
				if err != nil {
					return err
				}
				docs[id], seqs[id] = d, h.Seq
			}
			if len(chunk) == replayChunk {
				if err := flush(0); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush(to)
}

// reindex deletes every document of idx that the store lacks and writes
// every document the store has, then records seq. pause, when not nil,
// runs between two of its batches and every pauseEvery documents it reads
// from the store or makes into documents of idx (a batch's worth of
// either took a page 20-30 ms).
func (ix *Index) reindex(ctx context.Context, idx bleveindex.Index, mk recordMaker, seq uint64, pause func()) error {
	if pause != nil {
		made, mkDoc := 0, mk
		mk = func(d *Doc, seq uint64, hash []byte) bleveindex.Document {
			if made++; made%pauseEvery == 0 {
				pause()
			}
			return mkDoc(d, seq, hash)
		}
	}
	var extra []string
	err := ix.store.View(func(tx storage.Tx) error {
		return backend.EachID(ctx, idx, func(_ bleveindex.IndexReader, id string) error {
			if tx.Get(bucketDocs, []byte(id)) == nil {
				extra = append(extra, id)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	chunk := append([]string(nil), extra...)
	docs, seqs := map[string]*Doc{}, map[string]uint64{}
	flush := func(seq uint64) error {
		err := ix.applyOne(idx, withSeqs(mk, seqs), seq, chunk, docs)
		chunk = chunk[:0]
		clear(docs)
		clear(seqs)
		return err
	}
	due, read := false, 0 // due: a batch went in, pause before the next document
	err = ix.store.View(func(tx storage.Tx) error {
		return eachDoc(ctx, tx, true, func(d *Doc, seq uint64) error {
			if read++; due || pause != nil && read%pauseEvery == 0 {
				due = false
				pause()
			}
			chunk = append(chunk, d.ID)
			docs[d.ID], seqs[d.ID] = d, seq
			if len(chunk) >= replayChunk {
				if err := flush(0); err != nil {
					return err
				}
				due = pause != nil
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	return flush(seq)
}

// withSeqs is mk as applyOne calls it, each document with the write that
// stored its record, which seqs holds.
func withSeqs(mk recordMaker, seqs map[string]uint64) func(*Doc, []byte) bleveindex.Document {
	return func(d *Doc, hash []byte) bleveindex.Document { return mk(d, seqs[d.ID], hash) }
}

// pauseEvery is how many documents reindex reads or makes between two
// calls of its pause.
const pauseEvery = 64

// Rebuild discards both bleve indexes and rebuilds them from the store,
// for an index whose bleve files are damaged or suspect, and writes anew
// the records whose filters of adjacent term pairs lack a pair of their text
// (Report.BadPairs). Searches wait until it is done.
func (ix *Index) Rebuild(ctx context.Context) (err error) {
	if ix.opts.ReadOnly {
		return fmt.Errorf("rebuild: %w", ErrReadOnly)
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err = ix.ready(readsStore)
	ix.mu.RUnlock()
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	// The records first, while searches go on: they only read them.
	if err := ix.rewritePairs(ctx); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	// The backends go: wait for the searches that read them.
	if ix.view != nil {
		ix.view.close()
		ix.view = nil
	}
	// From here a failure leaves the indexes half built, which must not
	// be taken for the store's state (Close's flush would record the
	// store's last write in them): the index is stale until a Rebuild
	// succeeds, and an Open rebuilds what it lacks.
	defer func() {
		if err != nil {
			ix.stale = err
		}
	}()
	if err := ix.closeBackends(); err != nil && ix.dir == "" {
		return fmt.Errorf("rebuild: %w", err)
	}
	ix.text, ix.tri = nil, nil
	for _, name := range []string{textDir, trigramDir} {
		if d := ix.subdir(name); d != "" {
			if err := os.RemoveAll(d); err != nil {
				return fmt.Errorf("rebuild: %w", err)
			}
		}
	}
	if ix.text, err = newBackend(ix.opts.Backend, ix.subdir(textDir), ix.queue, &backend.Options{BulkLoad: ix.opts.BulkLoad}); err != nil {
		return fmt.Errorf("rebuild text index: %w", err)
	}
	if ix.tri, err = newBackend(ix.opts.Backend, ix.subdir(trigramDir), ix.queue, &backend.Options{BulkLoad: ix.opts.BulkLoad}); err != nil {
		return fmt.Errorf("rebuild trigram index: %w", err)
	}
	seq, err := ix.storedSeq()
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	if err := ix.reindex(ctx, ix.text, ix.textDoc, seq, nil); err != nil {
		return fmt.Errorf("rebuild text index: %w", err)
	}
	if err := ix.reindex(ctx, ix.tri, ix.trigramDoc, seq, nil); err != nil {
		return fmt.Errorf("rebuild trigram index: %w", err)
	}
	ix.view = &view{seq: seq}
	ix.stale = nil
	ix.damage.Store(nil)
	return nil
}

// rewriteChunk is how many records rewritePairs writes in one
// transaction.
const rewriteChunk = 1000

// rewritePairs writes anew the records whose filters of adjacent term
// pairs lack a pair of their text (Report.BadPairs), each with its text's;
// nothing else of them changes, so searches may read either. It holds
// the new filters, not the records, and writes rewriteChunk records a
// transaction. The caller holds writeMu. Cost: an analysis of every
// document's text, and a write of the records it fixes.
func (ix *Index) rewritePairs(ctx context.Context) error {
	var ids []string
	var filters [][]byte
	err := ix.store.View(func(tx storage.Tx) error {
		return ix.eachBadPairs(ctx, tx, func(*Doc) {}, func(d *Doc, _ *record.Header, p []byte) {
			ids, filters = append(ids, d.ID), append(filters, p)
		})
	})
	for start := 0; err == nil && start < len(ids); start += rewriteChunk {
		err = ix.store.Update(func(tx storage.Tx) error {
			for i := start; i < min(start+rewriteChunk, len(ids)); i++ {
				rec := tx.Get(bucketDocs, []byte(ids[i]))
				if rec == nil {
					continue // not since the scan: writes wait for writeMu
				}
				d, h, err := decodeDoc(ids[i], rec, true)
				if err != nil {
					return err
				}
				h.Pairs = filters[i]
				if err := tx.Put(bucketDocs, []byte(ids[i]), record.Encode(&h, h.Vector(), d.Title, d.Body)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return err
}
