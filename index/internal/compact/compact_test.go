package compact_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// field is a test field: terms with frequencies (indexed) or a value
// (stored).
type field struct {
	name   string
	terms  map[string]int
	length int
	value  []byte // stored when non-nil
}

func (f *field) Name() string             { return f.name }
func (f *field) Value() []byte            { return f.value }
func (f *field) ArrayPositions() []uint64 { return nil }
func (f *field) EncodedFieldType() byte   { return 't' }
func (f *field) Analyze()                 {}
func (f *field) AnalyzedLength() int      { return f.length }
func (f *field) NumPlainTextBytes() uint64 {
	return uint64(len(f.value))
}

func (f *field) Options() bleveindex.FieldIndexingOptions {
	if f.value != nil {
		return bleveindex.StoreField
	}
	return bleveindex.IndexField
}

func (f *field) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies {
	out := bleveindex.TokenFrequencies{}
	for t, n := range f.terms {
		tf := &bleveindex.TokenFreq{Term: []byte(t)}
		tf.SetFrequency(n)
		out[t] = tf
	}
	return out
}

// visitField is a field that gives its terms through VisitTerms; its
// Analyze and AnalyzedTokenFrequencies must not be called.
type visitField struct{ *field }

func (f visitField) VisitTerms(fn func([]byte, int)) int {
	for t, n := range f.terms {
		fn([]byte(t), n)
	}
	return f.length
}

func (f visitField) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies {
	panic("AnalyzedTokenFrequencies of a TermVisitor")
}

type doc struct {
	id     string
	fields []bleveindex.Field
}

func (d *doc) ID() string                                      { return d.id }
func (d *doc) Size() int                                       { return 0 }
func (d *doc) VisitComposite(bleveindex.CompositeFieldVisitor) {}
func (d *doc) HasComposite() bool                              { return false }
func (d *doc) NumPlainTextBytes() uint64                       { return 0 }
func (d *doc) AddIDField()                                     {}
func (d *doc) StoredFieldsBytes() uint64                       { return 0 }
func (d *doc) Indexed() bool                                   { return true }
func (d *doc) VisitFields(visit bleveindex.FieldVisitor) {
	for _, f := range d.fields {
		visit(f)
	}
}

// model is what the index should hold: each live document's fields.
type model map[string]*mdoc

type mdoc struct {
	terms  map[string]map[string]int // field -> term -> frequency
	length map[string]int
	stored string
}

var vocabulary = []string{"a", "ab", "abc", "b", "ba", "bar", "baz", "c", "foo", "foobar", "zz", "é", "éa"}

func randomDoc(r *rand.Rand, id string) (*doc, *mdoc) {
	d := &doc{id: id}
	m := &mdoc{terms: map[string]map[string]int{}, length: map[string]int{}}
	for _, name := range []string{"body", "title"} {
		if r.IntN(5) == 0 {
			continue // a document without the field
		}
		terms := map[string]int{}
		for range 1 + r.IntN(6) {
			n := 1 + r.IntN(3)
			if r.IntN(8) == 0 { // past a byte: freqList keeps it apart
				n = 250 + r.IntN(600)
			}
			terms[vocabulary[r.IntN(len(vocabulary))]] += n
		}
		length := 0
		for _, n := range terms {
			length += n
		}
		var f bleveindex.Field = &field{name: name, terms: terms, length: length}
		if r.IntN(2) == 0 {
			f = visitField{f.(*field)}
		}
		d.fields = append(d.fields, f)
		m.terms[name], m.length[name] = terms, length
	}
	m.stored = fmt.Sprintf("hash-%d", r.Uint32())
	d.fields = append(d.fields, &field{name: "h", value: []byte(m.stored)})
	return d, m
}

// posting is one entry of a term's list as a reader returns it.
type posting struct {
	id   string
	freq uint64
	norm float64
}

func norm(n int) float64 { return float64(float32(1 / math.Sqrt(float64(n)))) }

// check compares everything r returns with the model.
func check(t *testing.T, r bleveindex.IndexReader, m model, internal map[string]string) {
	t.Helper()
	if n, _ := r.DocCount(); n != uint64(len(m)) {
		t.Fatalf("DocCount %d, want %d", n, len(m))
	}
	// Every live document, in internal ID order, and back.
	all, _ := r.DocIDReaderAll()
	var seen []string
	var prev bleveindex.IndexInternalID
	for {
		iid, err := all.Next()
		if err != nil {
			t.Fatal(err)
		}
		if iid == nil {
			break
		}
		if prev != nil && iid.Compare(prev) <= 0 {
			t.Fatalf("DocIDReaderAll out of order: %x after %x", iid, prev)
		}
		prev = slices.Clone(iid)
		id, err := r.ExternalID(iid)
		if err != nil {
			t.Fatal(err)
		}
		back, _ := r.InternalID(id)
		if !back.Equals(iid) {
			t.Fatalf("InternalID(%q) = %x, want %x", id, back, iid)
		}
		seen = append(seen, id)
	}
	slices.Sort(seen)
	if want := slices.Sorted(maps.Keys(m)); !slices.Equal(seen, want) {
		t.Fatalf("documents %q, want %q", seen, want)
	}
	for id, d := range m {
		got, _ := r.Document(id)
		var stored string
		got.VisitFields(func(f bleveindex.Field) { stored = string(f.Value()) })
		if stored != d.stored {
			t.Fatalf("document %q stores %q, want %q", id, stored, d.stored)
		}
	}
	if d, _ := r.Document("no such"); d != nil {
		t.Fatal("a document for an unknown ID")
	}
	if iid, _ := r.InternalID("no such"); iid != nil {
		t.Fatal("an internal ID for an unknown ID")
	}
	for k, v := range internal {
		if got, _ := r.GetInternal([]byte(k)); string(got) != v {
			t.Fatalf("internal %q = %q, want %q", k, got, v)
		}
	}
	for _, name := range []string{"body", "title"} {
		counts := map[string]uint64{}
		for _, term := range vocabulary {
			var want []posting
			for _, id := range slices.Sorted(maps.Keys(m)) {
				if f := m[id].terms[name][term]; f > 0 {
					want = append(want, posting{id, uint64(f), norm(m[id].length[name])})
				}
			}
			if len(want) > 0 {
				counts[term] = uint64(len(want))
			}
			tr, _ := r.TermFieldReader(context.Background(), []byte(term), name, true, true, false)
			if tr.Count() != uint64(len(want)) {
				t.Fatalf("%s:%s count %d, want %d", name, term, tr.Count(), len(want))
			}
			var got []posting
			var ids []bleveindex.IndexInternalID
			for {
				p, err := tr.Next(nil)
				if err != nil {
					t.Fatal(err)
				}
				if p == nil {
					break
				}
				id, _ := r.ExternalID(p.ID)
				got = append(got, posting{id, p.Freq, p.Norm})
				ids = append(ids, slices.Clone(p.ID))
			}
			slices.SortFunc(got, func(a, b posting) int { return strings.Compare(a.id, b.id) })
			if !slices.Equal(got, want) {
				t.Fatalf("%s:%s postings %v, want %v", name, term, got, want)
			}
			// Holders sets the bits of the live postings' numbers, and no
			// other, ORed into what it is given.
			holders, ok := compact.Holders(r, []uint64{1}, name, term)
			var set []uint64
			for w, b := range holders {
				for ; b != 0; b &= b - 1 {
					set = append(set, uint64(w*64+bits.TrailingZeros64(b)))
				}
			}
			wantSet := []uint64{0}
			for _, iid := range ids {
				wantSet = append(wantSet, binary.BigEndian.Uint64(iid))
			}
			slices.Sort(wantSet)
			if wantSet = slices.Compact(wantSet); !ok || !slices.Equal(set, wantSet) {
				t.Fatalf("%s:%s Holders %v (%v), want %v", name, term, set, ok, wantSet)
			}
			// Advance to each posting, to the number after it, and back.
			for i := len(ids) - 1; i >= 0; i-- {
				p, _ := tr.Advance(ids[i], nil)
				if p == nil || !p.ID.Equals(ids[i]) {
					t.Fatalf("%s:%s Advance(%x) = %v", name, term, ids[i], p)
				}
				next := binary.BigEndian.AppendUint64(nil, binary.BigEndian.Uint64(ids[i])+1)
				p, _ = tr.Advance(next, nil)
				if i+1 < len(ids) && (p == nil || !p.ID.Equals(ids[i+1])) || i+1 == len(ids) && p != nil {
					t.Fatalf("%s:%s Advance past %x = %v", name, term, ids[i], p)
				}
			}
		}
		checkDict(t, r, name, counts)
	}
}

// drainDict returns the terms of d, from a call that returned it and err,
// with their counts, and fails t if they are out of order.
func drainDict(t *testing.T, name string, d bleveindex.FieldDict, err error) map[string]uint64 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	last := ""
	for {
		e, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return out
		}
		if len(out) > 0 && e.Term <= last {
			t.Fatalf("%s: dictionary out of order: %q after %q", name, e.Term, last)
		}
		last = e.Term
		out[e.Term] = e.Count
	}
}

func checkDict(t *testing.T, r bleveindex.IndexReader, name string, counts map[string]uint64) {
	t.Helper()
	drain := func(d bleveindex.FieldDict, err error) map[string]uint64 { return drainDict(t, name, d, err) }
	filter := func(keep func(string) bool) map[string]uint64 {
		out := map[string]uint64{}
		for k, v := range counts {
			if keep(k) {
				out[k] = v
			}
		}
		return out
	}
	if got := drain(r.FieldDict(name)); !maps.Equal(got, counts) {
		t.Fatalf("%s: FieldDict %v, want %v", name, got, counts)
	}
	if got, want := drain(r.FieldDictPrefix(name, []byte("ba"))), filter(func(s string) bool { return strings.HasPrefix(s, "ba") }); !maps.Equal(got, want) {
		t.Fatalf("%s: FieldDictPrefix(ba) %v, want %v", name, got, want)
	}
	if got, want := drain(r.FieldDictRange(name, []byte("ab"), []byte("bar"))), filter(func(s string) bool { return s >= "ab" && s <= "bar" }); !maps.Equal(got, want) {
		t.Fatalf("%s: FieldDictRange(ab, bar) %v, want %v", name, got, want)
	}
	fz := r.(bleveindex.IndexReaderFuzzy)
	if got, want := drain(fz.FieldDictFuzzy(name, "bzr", 1, "")), filter(func(s string) bool { return s == "bar" }); !maps.Equal(got, want) {
		t.Fatalf("%s: FieldDictFuzzy(bzr, 1) %v, want %v", name, got, want)
	}
	if got, want := drain(fz.FieldDictFuzzy(name, "fobaor", 2, "f")), filter(func(s string) bool { return s == "foobar" }); !maps.Equal(got, want) {
		t.Fatalf("%s: FieldDictFuzzy(fobaor, 2, f) %v, want %v", name, got, want)
	}
}

// TestModel applies random batches of updates, deletions and internal
// keys and checks, after each, a reader against a model of what the index
// should hold, and that readers opened before are unchanged.
func TestModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := compact.New(bleveindex.NewAnalysisQueue(2))
	m := model{}
	internal := map[string]string{}
	type past struct {
		r        bleveindex.IndexReader
		m        model
		internal map[string]string
	}
	var pasts []past
	for step := range 120 {
		b := bleveindex.NewBatch()
		for range 1 + r.IntN([]int{2, 8, 40}[step%3]) {
			id := fmt.Sprintf("d%03d", r.IntN(150))
			if r.IntN(4) == 0 {
				b.Delete(id)
				continue
			}
			d, md := randomDoc(r, id)
			b.Update(d)
			m[id] = md
		}
		for id, d := range b.IndexOps {
			if d == nil {
				delete(m, id)
			}
		}
		if r.IntN(3) == 0 {
			k, v := fmt.Sprint("k", r.IntN(3)), fmt.Sprint(step)
			b.SetInternal([]byte(k), []byte(v))
			internal[k] = v
		}
		if err := x.Batch(b); err != nil {
			t.Fatal(err)
		}
		rd, _ := x.Reader()
		check(t, rd, m, internal)
		if step%10 == 0 {
			pasts = append(pasts, past{rd, maps.Clone(m), maps.Clone(internal)})
		}
		if step == 60 {
			if err := x.Merge(); err != nil {
				t.Fatal(err)
			}
			if segs := x.StatsMap()["segments"]; segs != uint64(1) {
				t.Fatalf("%v segments after Merge", segs)
			}
		}
	}
	for _, p := range pasts {
		check(t, p.r, p.m, p.internal)
	}

	// Encode and Decode give the same index, and encode again the same.
	var enc bytes.Buffer
	if err := x.Snapshot().Encode(&enc); err != nil {
		t.Fatal(err)
	}
	y, err := compact.Decode(enc.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rd, _ := y.Reader()
	check(t, rd, m, internal)
	var again bytes.Buffer
	y.Snapshot().Encode(&again)
	if !bytes.Equal(again.Bytes(), enc.Bytes()) {
		t.Fatal("decoded, the index encodes to other bytes")
	}
}

// A batch large enough to be analyzed in pieces on the queue's workers
// gives the same index as one analyzed whole.
func TestLargeBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	m := model{}
	b := bleveindex.NewBatch()
	for i := range 1300 {
		id := fmt.Sprintf("d%04d", i)
		d, md := randomDoc(r, id)
		b.Update(d)
		m[id] = md
	}
	for _, q := range []*bleveindex.AnalysisQueue{nil, bleveindex.NewAnalysisQueue(3)} {
		x := compact.New(q)
		if err := x.Batch(b); err != nil {
			t.Fatal(err)
		}
		rd, _ := x.Reader()
		check(t, rd, m, nil)
		if segs := x.StatsMap()["segments"]; segs != uint64(1) {
			t.Fatalf("%v segments", segs)
		}
	}
}

// Segments stay few: a thousand one-document writes leave O(log n).
func TestSegmentsStayFew(t *testing.T) {
	x := compact.New(nil)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 1000 {
		d, _ := randomDoc(r, fmt.Sprintf("d%04d", i))
		if err := x.Update(d); err != nil {
			t.Fatal(err)
		}
	}
	if segs := x.StatsMap()["segments"].(uint64); segs > 11 {
		t.Fatalf("%d segments for 1,000 documents written one at a time", segs)
	}
	// Deleting most of the documents rewrites the segments they were in.
	for i := range 900 {
		x.Delete(fmt.Sprintf("d%04d", i))
	}
	rd, _ := x.Reader()
	if n, _ := rd.DocCount(); n != 100 {
		t.Fatalf("%d documents", n)
	}
	if segs := x.StatsMap()["segments"].(uint64); segs > 8 {
		t.Fatalf("%d segments for 100 documents", segs)
	}
}

// While merges are held every write stays a segment, the index reads as
// it would merged, and the first write after the hold merges again.
func TestHoldMerges(t *testing.T) {
	x := compact.New(nil)
	r := rand.New(rand.NewPCG(5, 6))
	m := model{}
	write := func(from, to int) {
		b := bleveindex.NewBatch()
		for i := from; i < to; i++ {
			id := fmt.Sprintf("d%04d", i)
			d, md := randomDoc(r, id)
			b.Update(d)
			m[id] = md
		}
		if err := x.Batch(b); err != nil {
			t.Fatal(err)
		}
	}
	segments := func() uint64 { return x.StatsMap()["segments"].(uint64) }
	x.HoldMerges(true)
	for i := range 4 {
		write(i*50, (i+1)*50)
	}
	if segments() != 4 {
		t.Fatalf("%d segments after 4 held writes of 50", segments())
	}
	rd, _ := x.Reader()
	check(t, rd, m, nil)
	x.HoldMerges(false)
	write(200, 250)
	if segments() >= 5 {
		t.Fatalf("%d segments after a write that may merge", segments())
	}
	rd, _ = x.Reader()
	check(t, rd, m, nil)
}

// A document with a field twice has the postings of both, their
// frequencies and lengths summed, as bleve's analysis sums them, past a
// byte too (freqList).
func TestFieldTwice(t *testing.T) {
	x := compact.New(nil)
	d := &doc{id: "a", fields: []bleveindex.Field{
		&field{name: "body", terms: map[string]int{"x": 1, "y": 2, "w": 200}, length: 203},
		visitField{&field{name: "body", terms: map[string]int{"y": 1, "z": 300, "w": 100}, length: 401}},
	}}
	if err := x.Update(d); err != nil {
		t.Fatal(err)
	}
	rd, _ := x.Reader()
	for term, want := range map[string]uint64{"x": 1, "y": 3, "z": 300, "w": 300} {
		tr, _ := rd.TermFieldReader(context.Background(), []byte(term), "body", true, true, false)
		p, _ := tr.Next(nil)
		if p == nil || p.Freq != want || p.Norm != norm(604) || tr.Count() != 1 {
			t.Fatalf("%s: %+v, count %d; want frequency %d, norm %v", term, p, tr.Count(), want, norm(604))
		}
	}
}
