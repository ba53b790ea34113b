package memkv

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	storetest "github.com/blevesearch/upsidedown_store_api/test"
)

// walkModel returns what v's Walk yields, checking that the keys
// increase.
func walkModel(t *testing.T, v Snapshot) model {
	t.Helper()
	m := model{}
	var prev string
	v.Walk(func(k, val []byte) {
		if len(m) > 0 && string(k) <= prev {
			t.Fatalf("Walk: %q after %q", k, prev)
		}
		prev = string(k)
		m[string(k)] = string(val)
	})
	if len(m) != v.Len() {
		t.Fatalf("Walk yields %d entries, Len says %d", len(m), v.Len())
	}
	return m
}

// A Builder's store holds what was added, as a valid tree that later
// batches write to like any other, and Snapshot and Walk give it back.
func TestBuilder(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		{"empty", 0},
		{"one", 1},
		{"one leaf less one", leafFill - 1},
		{"one full leaf", leafFill},
		{"one leaf more", leafFill + 1},
		{"one branch more", leafFill*branchFill + 1},
		{"three levels", 60000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := model{}
			for i := range tt.n {
				v := fmt.Sprint("v", i)
				if i%50 == 7 {
					v = "" // empty values are values, not absence
				}
				m[fmt.Sprintf("k%06d", i)] = v
			}
			var b Builder
			for _, k := range slices.Sorted(maps.Keys(m)) {
				b.Add([]byte(k), []byte(m[k]))
			}
			built := b.Store()
			if b := b.Store(); b.root != nil || b.n != 0 {
				t.Fatalf("a builder taken twice gives %d entries", b.n)
			}
			kv, err := New(&storetest.TestMergeCounter{}, map[string]interface{}{ConfigStore: built})
			if err != nil || kv != built {
				t.Fatalf("New: %v, %v: not the store built", kv, err)
			}
			s := kv.(*Store)
			r, _ := s.Reader()
			checkStore(t, r.(*reader), m)

			before := s.Snapshot()
			w, _ := s.Writer()
			batch := w.NewBatch()
			want := maps.Clone(m)
			for i := 0; i < tt.n; i += 3 {
				k := fmt.Sprintf("k%06d", i)
				batch.Delete([]byte(k))
				delete(want, k)
			}
			batch.Set([]byte("k-new"), []byte("new"))
			want["k-new"] = "new"
			if err := w.ExecuteBatch(batch); err != nil {
				t.Fatal(err)
			}
			r, _ = s.Reader()
			checkStore(t, r.(*reader), want)
			if got := walkModel(t, s.Snapshot()); !maps.Equal(got, want) {
				t.Fatalf("Walk after a batch: %d entries, want %d", len(got), len(want))
			}
			if got := walkModel(t, before); !maps.Equal(got, m) {
				t.Fatalf("Walk of a snapshot taken before a batch: %d entries, want %d", len(got), len(m))
			}
		})
	}
}
