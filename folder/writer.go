package folder

import (
	"context"
	"errors"
	"fmt"

	"github.com/twindex/twindex/index"
)

// Batch limits: big enough to amortize a commit, small enough that a
// search waiting on the write, and the memory held, stay small.
const (
	BatchDocs  = 500
	BatchBytes = 32 << 20
)

// WriteFunc makes one batch of writes, all or none: the upserts, then the
// removes (absent IDs are ignored). It fails with index.ErrInvalidDoc
// (wrapped) when a document is refused, and then writes nothing.
type WriteFunc func(ctx context.Context, upserts []index.Doc, removes []string) (index.Applied, error)

// Apply is the WriteFunc of an open index.
func Apply(ix *index.Index) WriteFunc {
	return func(ctx context.Context, upserts []index.Doc, removes []string) (index.Applied, error) {
		var b index.Batch
		for _, d := range upserts {
			b.Upsert(d)
		}
		b.Remove(removes...)
		return ix.Apply(ctx, &b)
	}
}

// Writer groups writes into batches of BatchDocs documents or BatchBytes
// of text. Each flush is all-or-nothing and runs to completion even when
// ctx is cancelled (Ctrl-C), so an interrupt leaves whole batches
// committed and nothing half-written; the caller sees ctx.Err() from the
// next call. A batch refused for an invalid document is retried one
// document at a time, so one bad document costs only itself; Invalid
// reports each one with its label. A Writer is not safe for concurrent
// use.
type Writer struct {
	Write   WriteFunc
	Invalid func(label string, err error) // a document the index refused
	Warn    func(msg string)              // a write done in a lesser form (no vectors)
	OnFlush func()                        // after each committed batch

	// Written, Removed and Failed count what the flushes did so far.
	Written, Removed, Failed int

	docs    []index.Doc
	labels  []string
	removes []string
	bytes   int
}

// Upsert queues a document; label names it in Invalid.
func (w *Writer) Upsert(ctx context.Context, d index.Doc, label string) error {
	w.docs = append(w.docs, d)
	w.labels = append(w.labels, label)
	w.bytes += len(d.ID) + len(d.Title) + len(d.Body)
	return w.maybeFlush(ctx)
}

// Remove queues the removal of a document.
func (w *Writer) Remove(ctx context.Context, id string) error {
	w.removes = append(w.removes, id)
	return w.maybeFlush(ctx)
}

func (w *Writer) maybeFlush(ctx context.Context) error {
	if len(w.docs)+len(w.removes) >= BatchDocs || w.bytes >= BatchBytes {
		if err := w.Flush(ctx); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// Flush applies the pending writes.
func (w *Writer) Flush(ctx context.Context) error {
	if len(w.docs)+len(w.removes) == 0 {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	a, err := w.Write(ctx, w.docs, w.removes)
	if errors.Is(err, index.ErrInvalidDoc) {
		a, err = w.oneByOne(ctx)
	}
	if err != nil {
		return fmt.Errorf("write batch: %w", err)
	}
	for _, msg := range a.Warnings {
		if w.Warn != nil {
			w.Warn(msg)
		}
	}
	w.Written += a.Written
	w.Removed += a.Removed
	w.docs, w.labels, w.removes, w.bytes = w.docs[:0], w.labels[:0], w.removes[:0], 0
	if w.OnFlush != nil {
		w.OnFlush()
	}
	return nil
}

func (w *Writer) oneByOne(ctx context.Context) (index.Applied, error) {
	var total index.Applied
	for i, d := range w.docs {
		a, err := w.Write(ctx, []index.Doc{d}, nil)
		if errors.Is(err, index.ErrInvalidDoc) {
			w.Failed++
			if w.Invalid != nil {
				w.Invalid(w.labels[i], err)
			}
			continue
		}
		if err != nil {
			return total, err
		}
		total.Written += a.Written
		total.Warnings = append(total.Warnings, a.Warnings...)
	}
	if len(w.removes) == 0 {
		return total, nil
	}
	a, err := w.Write(ctx, nil, w.removes)
	total.Removed += a.Removed
	return total, err
}
