package memkv

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	store "github.com/blevesearch/upsidedown_store_api"
	storetest "github.com/blevesearch/upsidedown_store_api/test"
)

func newTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := New(&storetest.TestMergeCounter{}, map[string]interface{}{})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*Store)
}

// The conformance suite every bleve KV store passes.
func TestMemKVConformance(t *testing.T) {
	tests := []struct {
		name string
		fn   func(*testing.T, store.KVStore)
	}{
		{"crud", storetest.CommonTestKVCrud},
		{"reader isolation", storetest.CommonTestReaderIsolation},
		{"reader owns Get bytes", storetest.CommonTestReaderOwnsGetBytes},
		{"writer owns bytes", storetest.CommonTestWriterOwnsBytes},
		{"prefix iterator", storetest.CommonTestPrefixIterator},
		{"prefix iterator seek", storetest.CommonTestPrefixIteratorSeek},
		{"range iterator", storetest.CommonTestRangeIterator},
		{"range iterator seek", storetest.CommonTestRangeIteratorSeek},
		{"merge", storetest.CommonTestMerge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newTestStore(t)) })
	}
}

// model is what a Store should hold.
type model map[string]string

// checkStore compares everything r sees with m, through Get, a full scan,
// prefix and range iterators and Seek, and checks the tree's invariants.
func checkStore(t *testing.T, r *reader, m model) {
	t.Helper()
	keys := slices.Sorted(maps.Keys(m))
	var got []string
	it := r.RangeIterator(nil, nil)
	for ; it.Valid(); it.Next() {
		k, v, _ := it.Current()
		got = append(got, string(k))
		if want, ok := m[string(k)]; !ok || want != string(v) {
			t.Fatalf("scan: %q = %q, want %q (present %v)", k, v, want, ok)
		}
	}
	it.Close()
	if !slices.Equal(got, keys) {
		t.Fatalf("scan: %d keys, want %d", len(got), len(keys))
	}
	for _, k := range keys {
		v, _ := r.Get([]byte(k))
		if string(v) != m[k] || v == nil {
			t.Fatalf("Get(%q) = %q, want %q", k, v, m[k])
		}
	}
	if v, _ := r.Get([]byte("absent\xff")); v != nil {
		t.Fatalf("Get(absent) = %q", v)
	}
	for _, p := range []string{"", "a", "k1", "k12", "k9", "k\xff", "z"} {
		var want []string
		for _, k := range keys {
			if bytes.HasPrefix([]byte(k), []byte(p)) {
				want = append(want, k)
			}
		}
		var got []string
		it := r.PrefixIterator([]byte(p))
		for ; it.Valid(); it.Next() {
			got = append(got, string(it.Key()))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("prefix %q: %d keys, want %d", p, len(got), len(want))
		}
	}
	for _, rg := range [][2]string{{"k2", "k5"}, {"k33", "k34"}, {"a", "b"}, {"k5", ""}} {
		var end []byte
		if rg[1] != "" {
			end = []byte(rg[1])
		}
		it := r.RangeIterator([]byte(rg[0]), end)
		i, _ := slices.BinarySearch(keys, rg[0])
		for ; it.Valid(); it.Next() {
			if i >= len(keys) || string(it.Key()) != keys[i] {
				t.Fatalf("range %q: at %q, want key #%d", rg, it.Key(), i)
			}
			i++
		}
		if i < len(keys) && (end == nil || keys[i] < rg[1]) {
			t.Fatalf("range %q stopped early at key #%d %q", rg, i, keys[i])
		}
		// Seek forward from the start of the range.
		it.Seek([]byte("k7"))
		j, _ := slices.BinarySearch(keys, max("k7", rg[0]))
		if (j < len(keys) && (end == nil || keys[j] < rg[1])) != it.Valid() || it.Valid() && string(it.Key()) != keys[j] {
			t.Fatalf("range %q: Seek(k7) at %q valid %v", rg, it.Key(), it.Valid())
		}
	}
	n := checkNode(t, r.root, nil, nil, true)
	if n != len(m) {
		t.Fatalf("tree holds %d entries, want %d", n, len(m))
	}
}

// checkNode checks the B+tree invariants under n, whose keys must lie
// in [lo, hi), and returns its number of entries.
func checkNode(t *testing.T, n *node, lo, hi []byte, root bool) int {
	t.Helper()
	if n == nil {
		return 0
	}
	if n.leaf() {
		if len(n.ents) == 0 || len(n.ents) > leafMax || n.keys != nil {
			t.Fatalf("leaf of %d entries, %d keys", len(n.ents), len(n.keys))
		}
		for i := range n.ents {
			k := n.key(i)
			if i > 0 && bytes.Compare(n.key(i-1), k) >= 0 || lo != nil && bytes.Compare(k, lo) < 0 || hi != nil && bytes.Compare(k, hi) >= 0 {
				t.Fatalf("leaf key %q out of order or outside [%q, %q)", k, lo, hi)
			}
		}
		return len(n.ents)
	}
	if len(n.kids) > branchMax || len(n.keys) != len(n.kids)-1 || len(n.kids) < 2 && root {
		t.Fatalf("branch of %d children, %d keys", len(n.kids), len(n.keys))
	}
	total := 0
	for i, kid := range n.kids {
		klo, khi := lo, hi
		if i > 0 {
			klo = n.keys[i-1]
		}
		if i < len(n.keys) {
			khi = n.keys[i]
		}
		total += checkNode(t, kid, klo, khi, false)
	}
	return total
}

func depth(n *node) int {
	d := 0
	for ; n != nil; d++ {
		if n.leaf() {
			return d + 1
		}
		n = n.kids[0]
	}
	return d
}

func randKey(r *rand.Rand, space int) string { return fmt.Sprintf("k%d", r.IntN(space)) }

// Random batches of sets and deletes, checked against a map after each
// batch, and every earlier reader checked against the state it began
// with: snapshots do not move.
func TestMemKVModel(t *testing.T) {
	tests := []struct {
		name            string
		batches, ops    int
		keys            int // the key space
		deleteFraction  float64
		keepReaderEvery int // 0: no reader kept across batches
	}{
		{"one big batch", 1, 20000, 4000, 0, 0},
		{"small batches", 300, 20, 4000, 0.2, 0},
		{"mixed sizes with readers", 40, 1500, 4000, 0.3, 3},
		{"delete heavy with readers", 60, 800, 4000, 0.7, 2},
		{"three levels", 3, 40000, 30000, 0.3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(tt.name))))
			s := newTestStore(t)
			m := model{}
			type held struct {
				r *reader
				m model
			}
			var readers []held
			for b := range tt.batches {
				w, _ := s.Writer()
				batch := w.NewBatch()
				n := 1 + r.IntN(tt.ops)
				if tt.batches <= 3 {
					n = tt.ops
				}
				for range n {
					k := randKey(r, tt.keys)
					if r.Float64() < tt.deleteFraction {
						batch.Delete([]byte(k))
						delete(m, k)
					} else {
						v := fmt.Sprintf("v%d.%d", b, r.IntN(100))
						if r.IntN(50) == 0 {
							v = "" // empty values are values, not absence
						}
						batch.Set([]byte(k), []byte(v))
						m[k] = v
					}
				}
				if err := w.ExecuteBatch(batch); err != nil {
					t.Fatal(err)
				}
				rd, _ := s.Reader()
				checkStore(t, rd.(*reader), m)
				if len(m) > leafMax*branchMax && depth(s.root) < 3 {
					t.Fatalf("%d entries in a tree of depth %d", len(m), depth(s.root))
				}
				if tt.keepReaderEvery > 0 && b%tt.keepReaderEvery == 0 {
					readers = append(readers, held{rd.(*reader), maps.Clone(m)})
				}
				if s.n != len(m) {
					t.Fatalf("count %d, want %d", s.n, len(m))
				}
			}
			for _, h := range readers {
				checkStore(t, h.r, h.m)
			}
			// Delete everything left, in one batch.
			w, _ := s.Writer()
			batch := w.NewBatch()
			for k := range m {
				batch.Delete([]byte(k))
			}
			if err := w.ExecuteBatch(batch); err != nil {
				t.Fatal(err)
			}
			if s.root != nil || s.n != 0 {
				t.Fatalf("emptied store: root %v, %d entries", s.root != nil, s.n)
			}
		})
	}
}

// failMerge is a merge operator that always fails.
type failMerge struct{}

func (failMerge) FullMerge(key, existing []byte, operands [][]byte) ([]byte, bool) { return nil, false }
func (failMerge) PartialMerge(key, left, right []byte) ([]byte, bool)              { return nil, false }
func (failMerge) Name() string                                                     { return "fail" }

// A merge that fails leaves the store as it was.
func TestMemKVBatchAtomic(t *testing.T) {
	kv, _ := New(failMerge{}, map[string]interface{}{})
	s := kv.(*Store)
	w, _ := s.Writer()
	b := w.NewBatch()
	for i := range 500 {
		b.Set(fmt.Appendf(nil, "k%03d", i), []byte("v"))
	}
	if err := w.ExecuteBatch(b); err != nil {
		t.Fatal(err)
	}
	b = w.NewBatch()
	b.Set([]byte("k001"), []byte("changed"))
	b.Delete([]byte("k002"))
	b.Merge([]byte("k003"), []byte("1"))
	if err := w.ExecuteBatch(b); err == nil {
		t.Fatal("a failing merge was accepted")
	}
	r, _ := s.Reader()
	m := model{}
	for i := range 500 {
		m[fmt.Sprintf("k%03d", i)] = "v"
	}
	checkStore(t, r.(*reader), m)
}

// A batch of more rows than a 32-bit int can multiply by its count of
// leaves (p·n overflowed there: a panic on 386 and arm) is written whole.
func TestMemKVLargeBatch(t *testing.T) {
	const n = 400_000 // n·(n/leafFill) > 2^31
	s := newTestStore(t)
	w, _ := s.Writer()
	b := w.NewBatch()
	m := model{}
	for i := range n {
		k, v := fmt.Sprintf("k%07d", i), fmt.Sprintf("%d", i%97)
		b.Set([]byte(k), []byte(v))
		m[k] = v
	}
	if err := w.ExecuteBatch(b); err != nil {
		t.Fatal(err)
	}
	r, _ := s.Reader()
	checkStore(t, r.(*reader), m)
}

// cut splits like p·n/parts computed in 64 bits.
func TestCut(t *testing.T) {
	for _, c := range [][3]int{{0, 1, 0}, {10, 3, 1}, {10, 3, 3}, {400_000, 8_334, 8_333}, {1 << 30, 1 << 20, 1<<20 - 1}} {
		n, parts, p := c[0], c[1], c[2]
		if got, want := cut(n, parts, p), int(int64(p)*int64(n)/int64(parts)); got != want || got > n {
			t.Errorf("cut(%d, %d, %d) = %d, want %d", n, parts, p, got, want)
		}
	}
}

func BenchmarkMemKVBatch(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([][]byte, 100000)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "t\x00\x01%c%c%c\xffpkg.Name%d", 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(26), r.IntN(3000))
	}
	for b.Loop() {
		s, _ := New(nil, map[string]interface{}{})
		w, _ := s.Writer()
		for i := 0; i < len(keys); i += 10000 {
			batch := w.NewBatch()
			for _, k := range keys[i : i+10000] {
				batch.Set(k, []byte{1, 2, 3, 4, 5})
			}
			if err := w.ExecuteBatch(batch); err != nil {
				b.Fatal(err)
			}
		}
	}
}
