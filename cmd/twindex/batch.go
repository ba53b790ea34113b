package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/twindex/twindex/index"
)

// Batch limits: big enough to amortize a commit, small enough that a
// search waiting on the write, and the memory held, stay small.
const (
	batchDocs  = 500
	batchBytes = 32 << 20
)

// batcher groups writes into index batches. Each flush is all-or-nothing
// and runs to completion even when ctx is cancelled (Ctrl-C), so an
// interrupt leaves whole batches committed and nothing half-written; the
// caller sees ctx.Err() from the next call. A batch the engine refuses for
// an invalid document is retried one document at a time, so one bad
// document costs only itself; invalid reports each one with its label.
type batcher struct {
	ix      *index.Index
	docs    []index.Doc
	labels  []string
	removes []string
	bytes   int
	invalid func(label string, err error)
	warn    func(msg string) // a write done in a lesser form (no vectors)

	written, removed, failed int
	onFlush                  func()
}

func (bt *batcher) upsert(ctx context.Context, d index.Doc, label string) error {
	bt.docs = append(bt.docs, d)
	bt.labels = append(bt.labels, label)
	bt.bytes += len(d.ID) + len(d.Title) + len(d.Body)
	return bt.maybeFlush(ctx)
}

func (bt *batcher) remove(ctx context.Context, id string) error {
	bt.removes = append(bt.removes, id)
	return bt.maybeFlush(ctx)
}

func (bt *batcher) maybeFlush(ctx context.Context) error {
	if len(bt.docs)+len(bt.removes) >= batchDocs || bt.bytes >= batchBytes {
		if err := bt.flush(ctx); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// flush applies the pending writes.
func (bt *batcher) flush(ctx context.Context) error {
	if len(bt.docs)+len(bt.removes) == 0 {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	var b index.Batch
	for _, d := range bt.docs {
		b.Upsert(d)
	}
	b.Remove(bt.removes...)
	a, err := bt.ix.Apply(ctx, &b)
	if errors.Is(err, index.ErrInvalidDoc) {
		a, err = bt.oneByOne(ctx)
	}
	if err != nil {
		return fmt.Errorf("write batch: %w", err)
	}
	for _, w := range a.Warnings {
		if bt.warn != nil {
			bt.warn(w)
		}
	}
	bt.written += a.Written
	bt.removed += a.Removed
	bt.docs, bt.labels, bt.removes, bt.bytes = bt.docs[:0], bt.labels[:0], bt.removes[:0], 0
	if bt.onFlush != nil {
		bt.onFlush()
	}
	return nil
}

func (bt *batcher) oneByOne(ctx context.Context) (index.Applied, error) {
	var total index.Applied
	for i, d := range bt.docs {
		var b index.Batch
		b.Upsert(d)
		a, err := bt.ix.Apply(ctx, &b)
		if errors.Is(err, index.ErrInvalidDoc) {
			bt.failed++
			if bt.invalid != nil {
				bt.invalid(bt.labels[i], err)
			}
			continue
		}
		if err != nil {
			return total, err
		}
		total.Written += a.Written
		total.Warnings = append(total.Warnings, a.Warnings...)
	}
	if len(bt.removes) == 0 {
		return total, nil
	}
	var b index.Batch
	b.Remove(bt.removes...)
	a, err := bt.ix.Apply(ctx, &b)
	total.Removed += a.Removed
	return total, err
}
