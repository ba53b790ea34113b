package backend

import (
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/document"
)

// write indexes one batch of documents by ID and deletes others.
func write(t *testing.T, idx bleveindex.Index, ids []string, deleted ...string) {
	t.Helper()
	b := bleveindex.NewBatch()
	for _, id := range ids {
		b.Update(document.New(id, document.Stored("h", []byte(id))))
	}
	for _, id := range deleted {
		b.Delete(id)
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
}

func reader(t *testing.T, idx bleveindex.Index) bleveindex.IndexReader {
	t.Helper()
	r, err := idx.Reader()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// checkJoin checks that table maps each of from's documents to to's of the
// same ID, and to -1 where to has none.
func checkJoin(t *testing.T, table []int32, from, to bleveindex.IndexReader) {
	t.Helper()
	want := map[string]int32{}
	if err := eachDoc(to, to, func(n int32, id string) { want[id] = n }); err != nil {
		t.Fatal(err)
	}
	moved := 0
	if err := eachDoc(from, from, func(n int32, id string) {
		if w, ok := want[id]; ok && w != n {
			moved++
		}
		w, ok := want[id]
		if !ok {
			w = -1
		}
		if int(n) >= len(table) || table[n] != w {
			t.Errorf("document %q (%d): table has %v, want %d", id, n, table, w)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if moved == 0 {
		t.Fatal("the two indexes number their documents alike: a test of nothing")
	}
}

// A join's table maps doc numbers between two indexes that number the same
// documents differently; it is built once the joins done without it cost
// as much as it, and belongs to one pair of states.
func TestJoin(t *testing.T) {
	from, to := openCompact(t), openCompact(t)
	write(t, from, []string{"a", "b", "c", "d"})
	write(t, from, []string{"e", "f"}, "b")
	write(t, to, []string{"f", "e", "c"})
	write(t, to, []string{"b", "a"})
	fr, tr := reader(t, from), reader(t, to)

	var j Join
	// 5 documents each side: no table until the work reaches 10·buildCost.
	for _, w := range []int{4, 10*buildCost - 5} {
		if table, err := j.Table(fr, tr, fr, tr, w); table != nil || err != nil {
			t.Fatalf("Table after %d of work: %v, %v; want none yet", w, table, err)
		}
	}
	table, err := j.Table(fr, tr, fr, tr, 1)
	if err != nil || table == nil {
		t.Fatalf("Table once the work reached its cost: %v, %v", table, err)
	}
	checkJoin(t, table, fr, tr)
	if again, _ := j.Table(fr, tr, fr, tr, 0); &again[0] != &table[0] {
		t.Error("the pair's table was built again")
	}

	// A write makes a state of its own, whose table is built anew.
	write(t, to, []string{"d"}, "c")
	tr2 := reader(t, to)
	if table, _ := j.Table(fr, tr2, fr, tr2, 10*buildCost-1); table != nil {
		t.Fatal("a new state's table came with the old state's work")
	}
	table, err = j.Table(fr, tr2, fr, tr2, 1)
	if err != nil || table == nil {
		t.Fatalf("Table of the new state: %v, %v", table, err)
	}
	checkJoin(t, table, fr, tr2)
}

// A reader whose state stateOf does not know has no table.
func TestJoinUnknownState(t *testing.T) {
	from := openCompact(t)
	write(t, from, []string{"a"})
	fr := reader(t, from)
	var j Join
	other := otherReader{fr}
	if table, err := j.Table(fr, other, fr, other, 1<<20); table != nil || err != nil {
		t.Fatalf("Table with a reader of no known state: %v, %v", table, err)
	}
}

type otherReader struct{ bleveindex.IndexReader }
