package index_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestQuotedSearchCancelled cancels a quoted search at each of the
// places it asks its context, with several workers, so that the
// substring leg fails while the text leg, run beside it, waits for its
// runs (and the other way round), and while its checks run on three
// goroutines (checkStream, 1,600 candidates): each search returns the whole answer or
// context.Canceled, never hangs, and the index answers the same after.
func TestQuotedSearchCancelled(t *testing.T) {
	ix, err := index.OpenMemory(&index.Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var docs []index.Doc
	for i := range 2400 {
		body := "the reader writer pair"
		if i%3 == 0 {
			body = "a reader and a writer"
		}
		docs = append(docs, index.Doc{ID: fmt.Sprint(i), Body: fmt.Sprintf("%s %d", body, i)})
	}
	mustUpsert(t, ix, docs...)
	for _, q := range []string{`"reader writer"`, `"reader writer" pair`} {
		req := index.Request{Query: q, Mode: index.ModeAuto, Limit: 20}
		want := search(t, ix, req)
		if want.Total != 1600 {
			t.Fatalf("%s: %d hits, want 1600", q, want.Total)
		}
		cancelled := 0
		for n := int64(0); ; n++ {
			r, err := ix.Search(cancelAfter(ctx, n), req)
			if err != nil {
				// The text leg's wait for a failed substring leg is no
				// error of its own.
				if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "substring leg failed") {
					t.Fatalf("%s cancelled after %d asks: %v", q, n, err)
				}
				cancelled++
				continue
			}
			if r.Total != want.Total || !slices.Equal(ids(r), ids(want)) {
				t.Fatalf("%s cancelled after %d asks: %d %v, want %d %v", q, n, r.Total, ids(r), want.Total, ids(want))
			}
			break
		}
		if cancelled < 2 {
			t.Errorf("%s: only %d places cancelled", q, cancelled)
		}
		if r := search(t, ix, req); r.Total != want.Total || !slices.Equal(ids(r), ids(want)) {
			t.Errorf("%s after the cancellations: %d %v", q, r.Total, ids(r))
		}
	}
}

// cancelAfter is ctx cancelled once its Err has been asked n times.
func cancelAfter(ctx context.Context, n int64) context.Context {
	c := &countedCtx{Context: ctx}
	c.left.Store(n)
	return c
}

type countedCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countedCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return c.Context.Err()
}
