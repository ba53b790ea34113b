package grams

import (
	"context"
	"slices"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/document"
)

func cands(ids ...byte) []Candidate {
	out := make([]Candidate, len(ids))
	for i, id := range ids {
		out[i] = Candidate{ID: bleveindex.IndexInternalID{0, id}, Freq: []uint32{uint32(id), 0}}
	}
	return out
}

func idsOf(cs []Candidate) []byte {
	var out []byte
	for _, c := range cs {
		out = append(out, c.ID[1])
	}
	return out
}

func TestUniteIntersect(t *testing.T) {
	a, b := cands(1, 3, 5, 7), cands(3, 4, 7, 9)
	b[0].Freq = []uint32{0, 2} // gram 1's frequency in document 3
	if got := idsOf(Unite(cands(1, 3, 5, 7), cands(3, 4, 7, 9))); !slices.Equal(got, []byte{1, 3, 4, 5, 7, 9}) {
		t.Errorf("Unite: %v", got)
	}
	both := Intersect(a, b)
	if got := idsOf(both); !slices.Equal(got, []byte{3, 7}) {
		t.Errorf("Intersect: %v", got)
	}
	// A document in both keeps each gram's frequency from either list.
	if !slices.Equal(both[0].Freq, []uint32{3, 2}) {
		t.Errorf("merged frequencies %v, want [3 2]", both[0].Freq)
	}
	if got := Intersect(cands(1), nil); got != nil {
		t.Errorf("Intersect with none: %v", got)
	}
}

// postings is a TermFieldReader over fixed postings, for Visit.
type postings struct {
	ids []byte
	at  int
	bleveindex.TermFieldReader
}

func (p *postings) Next(d *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	if p.at >= len(p.ids) {
		return nil, nil
	}
	d.ID, d.Freq = bleveindex.IndexInternalID{0, p.ids[p.at]}, uint64(p.ids[p.at])
	p.at++
	return d, nil
}

func (p *postings) Advance(id bleveindex.IndexInternalID, d *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	for p.at < len(p.ids) && (bleveindex.IndexInternalID{0, p.ids[p.at]}).Compare(id) < 0 {
		p.at++
	}
	return p.Next(d)
}

// Visit finds the same candidates whether it reads the postings through
// (a short list) or seeks each candidate (a long one).
func TestVisit(t *testing.T) {
	held := []byte{2, 3, 5, 8, 9, 12}
	for _, count := range []float64{1, 1000} {
		var got []byte
		err := Visit(&postings{ids: held}, cands(1, 3, 4, 8, 12, 13), count, func(i int, d *bleveindex.TermFieldDoc) {
			got = append(got, d.ID[1])
		})
		if err != nil || !slices.Equal(got, []byte{3, 8, 12}) {
			t.Errorf("count %v: %v, %v; want [3 8 12]", count, got, err)
		}
	}
}

func TestHolders(t *testing.T) {
	q := bleveindex.NewAnalysisQueue(1)
	t.Cleanup(q.Close)
	idx, err := backend.Open(backend.Compact, "", q, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	b := bleveindex.NewBatch()
	for id, names := range map[string][]string{"a": {"readfile"}, "b": {"open"}, "c": {"readfile", "close"}} {
		freqs := bleveindex.TokenFrequencies{}
		for _, n := range names {
			tf := &bleveindex.TokenFreq{Term: []byte(n)}
			tf.SetFrequency(1)
			freqs[n] = tf
		}
		b.Update(document.New(id, document.Preanalyzed("d", nil, freqs, len(freqs))))
	}
	if err := idx.Batch(b); err != nil {
		t.Fatal(err)
	}
	r, err := idx.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ids, err := Holders(context.Background(), r, "d", "readfile")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for iid := range ids {
		id, err := r.ExternalID(bleveindex.IndexInternalID(iid))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, id)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("Holders of readfile: %v, want a, c", got)
	}
	if none, err := Holders(context.Background(), r, "d", "write"); err != nil || len(none) != 0 {
		t.Errorf("Holders of an absent term: %v, %v", none, err)
	}
}

func TestNeedle(t *testing.T) {
	var tris []string
	one := NewNeedle("rea", false, true, true, &tris)
	long := NewNeedle("reader", false, true, true, &tris)
	titled := NewNeedle("rea", false, true, false, &tris)
	if one.Verify || !long.Verify || !titled.Verify {
		t.Errorf("verify: one gram %v, long %v, title only %v; want false, true, true", one.Verify, long.Verify, titled.Verify)
	}
	if !slices.Equal(one.Grams, []int{0}) || len(long.Grams) != 4 || long.Grams[0] != 0 || len(tris) != 4 {
		t.Errorf("grams %v and %v of %v", one.Grams, long.Grams, tris)
	}
	for _, tc := range []struct {
		name        string
		n           *Needle
		title, body string
		c           *Candidate
		ok          bool
		tf, ct      float64
	}{
		{"scanned: counted", long, "reader", "a reader, a reader", nil, true, 3, 1},
		{"scanned: absent", long, "", "read", nil, false, 0, 0},
		{"decided by its one gram", one, "", "xx", &Candidate{Freq: []uint32{2, 0, 0, 0}}, true, 2, 0},
		{"verified in the body", long, "", "the reader", &Candidate{Freq: []uint32{1, 1, 1, 1}}, true, 1, 0},
		{"verified: absent", long, "", "read her", &Candidate{Freq: []uint32{1, 1, 1, 1}}, false, 0, 0},
		{"title only", titled, "no", "rea", &Candidate{Freq: []uint32{1, 0, 0, 0}}, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, tf, ct := tc.n.Match(tc.title, tc.body, tc.c)
			if ok != tc.ok || tf != tc.tf || ct != tc.ct {
				t.Errorf("Match = %v, %v, %v; want %v, %v, %v", ok, tf, ct, tc.ok, tc.tf, tc.ct)
			}
		})
	}
	initial := NewNeedle("package", true, true, true, &tris)
	if ok, _, _ := initial.Match("", "  package main", nil); !ok {
		t.Error("an initial needle at the start of the body after spaces does not match")
	}
	if ok, _, _ := initial.Match("", "// package main", nil); ok {
		t.Error("an initial needle matches after other text")
	}
}
