package index_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

// TestReadersDoNotWaitForWriters pauses a write after its store commit
// and again after its bleve batches, and reads meanwhile: every read
// returns at once, with the state before the write, though the store and
// then the indexes already hold it.
func TestReadersDoNotWaitForWriters(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "a", Body: "alpha shared"},
			index.Doc{ID: "dir/b", Parent: "dir", Body: "beta shared", Links: []index.Link{{To: "a", Type: "mentions"}}},
			index.Doc{ID: "dir/c", Parent: "dir", Body: "gamma shared"},
		)
		paused, resume := make(chan string), make(chan struct{})
		index.PauseWrites(ix, func(step string) {
			paused <- step
			<-resume
		})
		written := make(chan error, 1)
		go func() {
			var b index.Batch
			b.Remove("a")
			b.Upsert(index.Doc{ID: "dir/b", Parent: "dir", Body: "delta shared"})
			b.Upsert(index.Doc{ID: "dir/d", Parent: "dir", Body: "delta new shared", Links: []index.Link{{To: "a", Type: "mentions"}}})
			_, err := ix.Apply(ctx, &b)
			written <- err
		}()
		var step string
		read := func(name string, f func() error) {
			t.Helper()
			done := make(chan error, 1)
			go func() { done <- f() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("%s during a write, paused at %s: %v", name, step, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s waited for a write", name)
			}
		}
		before := func(name string, req index.Request, want ...string) {
			t.Helper()
			read(name, func() error {
				r, err := ix.Search(ctx, req)
				if err != nil {
					return err
				}
				if got := sorted(ids(r)); !slices.Equal(got, want) || r.Total != len(want) {
					t.Errorf("%s during a write, paused at %s: %v (total %d), want %v", name, step, got, r.Total, want)
				}
				return nil
			})
		}
		for _, want := range []string{"store", "indexes"} {
			if step = <-paused; step != want {
				t.Fatalf("paused at %q, want %q", step, want)
			}
			before("substring", index.Request{Query: "shared", Mode: index.ModeSubstring}, "a", "dir/b", "dir/c")
			before("text", index.Request{Query: "delta", Mode: index.ModeText, Fallback: -1})
			before("auto", index.Request{Query: "alpha", Fallback: -1}, "a")
			before("under", index.Request{Query: "shared", Mode: index.ModeSubstring, Under: "dir"}, "dir/b", "dir/c")
			read("get", func() error {
				d, err := ix.Get("dir/b")
				if err != nil {
					return err
				}
				if d.Body != "beta shared" {
					t.Errorf("get during a write: %q", d.Body)
				}
				if _, err := ix.Get("dir/d"); !errors.Is(err, index.ErrNotFound) {
					t.Errorf("get of a document the write adds: %v", err)
				}
				return nil
			})
			read("count", func() error {
				n, err := ix.Count()
				if n != 3 {
					t.Errorf("count during a write: %d", n)
				}
				return err
			})
			read("walk", func() error {
				var got []string
				err := ix.Walk(ctx, func(d *index.Doc) error {
					got = append(got, d.ID)
					return nil
				})
				if want := []string{"a", "dir/b", "dir/c"}; !slices.Equal(got, want) {
					t.Errorf("walk during a write: %v", got)
				}
				return err
			})
			read("backlinks", func() error {
				bl, err := ix.Backlinks("a")
				if len(bl) != 1 || bl[0].From != "dir/b" {
					t.Errorf("backlinks during a write: %v", bl)
				}
				return err
			})

			resume <- struct{}{}
		}
		if err := <-written; err != nil {
			t.Fatal(err)
		}
		index.PauseWrites(ix, nil)
		if got := sorted(ids(search(t, ix, index.Request{Query: "shared", Mode: index.ModeSubstring}))); !slices.Equal(got, []string{"dir/b", "dir/c", "dir/d"}) {
			t.Errorf("after the write: %v", got)
		}
		if got := sorted(ids(search(t, ix, index.Request{Query: "delta", Mode: index.ModeText, Fallback: -1}))); !slices.Equal(got, []string{"dir/b", "dir/d"}) {
			t.Errorf("after the write, text: %v", got)
		}
		if bl, err := ix.Backlinks("a"); err != nil || len(bl) != 1 || bl[0].From != "dir/d" {
			t.Errorf("backlinks after the write: %v %v", bl, err)
		}
	})
}
