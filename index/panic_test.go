package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
)

// TestInPartsPanic holds that a panic in an item of inParts, on the
// caller's goroutine or a worker's, is returned as a *PanicError naming
// where it happened, and that the other parts still end first.
func TestInPartsPanic(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		for _, at := range []int{0, 99} { // in the first part, in the last
			t.Run(fmt.Sprintf("workers=%d,at=%d", workers, at), func(t *testing.T) {
				var done [100]bool
				var nilMap map[string]int
				err := inParts(context.Background(), 100, workers, func(_, i int) error {
					if i == at {
						nilMap["x"]++ // a runtime error, as a bug raises
					}
					done[i] = true
					return nil
				})
				var pe *PanicError
				if !errors.As(err, &pe) {
					t.Fatalf("err = %v, want a *PanicError", err)
				}
				if !strings.Contains(pe.At, "TestInPartsPanic") || !strings.Contains(pe.At, "panic_test.go") {
					t.Errorf("At = %q, want the test's function and file", pe.At)
				}
				if !strings.Contains(err.Error(), "assignment to entry in nil map") || len(pe.Stack) == 0 {
					t.Errorf("err = %v with %d bytes of stack, want the panic's value and its stack", err, len(pe.Stack))
				}
				// The parts without the panic ran to their end.
				for w := range workers {
					lo, hi := w*100/workers, (w+1)*100/workers
					if at >= lo && at < hi {
						continue
					}
					for i := lo; i < hi; i++ {
						if !done[i] {
							t.Fatalf("part %d stopped at item %d", w, i)
						}
					}
				}
			})
		}
	}
}

// TestCheckStreamPanic holds that a check that panics, on the caller's
// goroutine or a worker's, fails its search with a *PanicError and
// leaves the index usable: not marked damaged, the next search answers.
func TestCheckStreamPanic(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenMemory(&Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Upsert(ctx, Doc{ID: "a", Body: "panics are bugs"}); err != nil {
		t.Fatal(err)
	}
	const n = 4 * parallelChecks // enough for both workers
	for _, bad := range []string{"d0", "d2047", "every", "every, then produce fails"} {
		t.Run(bad, func(t *testing.T) {
			s := &search{ix: ix, ctx: ctx}
			newCheck := func() checkFunc {
				return func(id string, fd *record.Folded, cand *grams.Candidate, head bool, dl float64) (rank.Scored, plan.Verdict) {
					if strings.HasPrefix(bad, "every") || id == bad {
						panic("check of " + id)
					}
					return rank.Scored{ID: id}, plan.Yes
				}
			}
			var f record.Folded
			out, err := s.checkStream(n, newCheck, 0, func(add func(checkItem)) error {
				for i := range n {
					add(checkItem{id: fmt.Sprintf("d%d", i), f: &f, dl: -1})
				}
				if strings.HasSuffix(bad, "fails") { // the bug's report wins
					return context.Canceled
				}
				return nil
			})
			var pe *PanicError
			if !errors.As(err, &pe) || !strings.Contains(pe.Error(), "check of d") {
				t.Fatalf("checkStream = %d matches, %v; want a *PanicError of the check", len(out), err)
			}
			if d := ix.damage.Load(); d != nil {
				t.Fatalf("a bug's panic marked the index damaged: %v", d)
			}
			r, err := ix.Search(ctx, Request{Query: "bugs"})
			if err != nil || r.Total != 1 {
				t.Fatalf("the next search: %v, %v; want its one match", r, err)
			}
		})
	}
}
