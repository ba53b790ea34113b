package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index"
)

// all pages through a query and returns every hit.
func all(t *testing.T, ix *index.Index, req index.Request) []index.Hit {
	t.Helper()
	var hits []index.Hit
	req.Limit = 7 // odd pages, to cross boundaries
	for next := new(int); next != nil; {
		req.Offset = *next
		r := search(t, ix, req)
		hits = append(hits, r.Hits...)
		next = r.NextOffset
	}
	return hits
}

// wordDocs returns n documents of up to maxWords words of vocab drawn by
// rng: the first is the title, the rest the body; IDs are idFormat of the
// document's number.
func wordDocs(rng *rand.Rand, vocab []string, n, maxWords int, idFormat string) []index.Doc {
	var docs []index.Doc
	for i := range n {
		var w []string
		for range 1 + rng.IntN(maxWords) {
			w = append(w, vocab[rng.IntN(len(vocab))])
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf(idFormat, i), Title: w[0], Body: strings.Join(w[1:], " ")})
	}
	return docs
}

// legsRRF returns fusion.RRF, ties within a leg sharing a rank, of the
// complete rankings of q's substring and text legs.
//
// When the substring leg finds DefaultFallback documents or more, auto
// mode does not tolerate a word that no document holds (Request.Fallback),
// so its text leg is then text mode's without the fallback.
func legsRRF(t *testing.T, ix *index.Index, q string) []fusion.Hit {
	t.Helper()
	substring := fusion.List{Leg: index.LegSubstring}
	for _, h := range all(t, ix, index.Request{Query: q, Mode: index.ModeSubstring}) {
		substring.IDs = append(substring.IDs, h.ID)
		substring.Scores = append(substring.Scores, h.Score)
	}
	text := fusion.List{Leg: index.LegText}
	req := index.Request{Query: q, Mode: index.ModeText}
	if len(substring.IDs) >= index.DefaultFallback {
		req.Fallback = -1
	}
	for _, h := range all(t, ix, req) {
		text.IDs = append(text.IDs, h.ID)
		text.Scores = append(text.Scores, h.Score)
	}
	return fusion.RRF([]fusion.List{substring, text}, fusion.Options{TiesShareRank: true})
}

// TestAutoIsRRFOfLegs checks auto mode's paged, lazily fused ranking
// against fusion.RRF over the complete rankings of the two legs (ties
// within a leg sharing a rank): the order, and each hit's rank in each
// leg, which auto mode computes for few of the matches.
func TestAutoIsRRFOfLegs(t *testing.T) {
	vocab := strings.Fields("alpha beta gamma delta epsilon parser reader writer buffer stream token cache")
	docs := wordDocs(rand.New(rand.NewPCG(3, 4)), vocab, 150, 8, "d%03d")
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, q := range []string{"alpha", "reader buffer", "ead", "tream cache", "gamma delta token", "zzz"} {
			var want, wantLegs []string
			for _, h := range legsRRF(t, ix, q) {
				want = append(want, h.ID)
				wantLegs = append(wantLegs, fmt.Sprint(h.Legs))
			}
			var got []string
			for i, h := range all(t, ix, index.Request{Query: q, Explain: true}) {
				got = append(got, h.ID)
				for j, l := range h.Explain.Legs {
					if l.Leg == index.LegFuzzy { // the text mode's list names it text
						h.Explain.Legs[j].Leg = index.LegText
					}
				}
				if i < len(wantLegs) && fmt.Sprint(h.Explain.Legs) != wantLegs[i] {
					t.Errorf("%q: hit %d (%s) has legs %v, RRF of legs %s", q, i, h.ID, h.Explain.Legs, wantLegs[i])
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q: auto %v\nRRF of legs %v", q, got, want)
			}
			r := search(t, ix, index.Request{Query: q})
			if r.Total != len(want) {
				t.Errorf("%q: Total %d, want %d", q, r.Total, len(want))
			}
		}
	})
}

// TestAutoTopIsRRFOfLegs checks the first page of auto mode, hits and
// their ranks in each leg, against fusion.RRF of the legs' complete
// rankings, on enough documents that auto mode ranks only a few of the
// substring leg's matches: words whose substrings are in other words
// (reader, proofreader), so that the legs rank them apart.
func TestAutoTopIsRRFOfLegs(t *testing.T) {
	vocab := strings.Fields("reader readers proofreader reading bread buffer buffered rebuffer cache cached stream mainstream token tokens")
	docs := wordDocs(rand.New(rand.NewPCG(5, 6)), vocab, 1200, 12, "d%04d")
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix, docs...)
	for _, q := range []string{"reader", "buffer cache", "stream token", "bread", "reading"} {
		want := legsRRF(t, ix, q)
		for _, limit := range []int{1, 2, 5, 20} {
			r := search(t, ix, index.Request{Query: q, Limit: limit, Explain: true})
			if r.Total != len(want) {
				t.Errorf("%q: Total %d, want %d", q, r.Total, len(want))
			}
			for i, h := range r.Hits {
				if w := want[i]; h.ID != w.ID || fmt.Sprint(h.Explain.Legs) != fmt.Sprint(w.Legs) {
					t.Errorf("%q limit %d: hit %d is %s %v, RRF of legs %s %v", q, limit, i, h.ID, h.Explain.Legs, w.ID, w.Legs)
				}
			}
		}
	}
}

// TestHybridIsRRFOfLegs checks hybrid search's lazily fused ranking
// against fusion.RRF over the complete rankings of its three legs.
func TestHybridIsRRFOfLegs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vocab := strings.Fields("alpha beta gamma delta parser reader writer buffer stream token")
	var docs []index.Doc
	for i := range 80 { // fewer than the vector leg's depth: its ranking is complete
		var w []string
		for range 1 + rng.IntN(6) {
			w = append(w, vocab[rng.IntN(len(vocab))])
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%03d", i), Title: w[0], Body: strings.Join(w[1:], " "),
			Vector: []float32{rng.Float32() + 0.01, rng.Float32(), rng.Float32()}})
	}
	qv := []float32{1, 0.2, 0.1}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, q := range []string{"alpha ", "reader buffer ", "ead ", "zzz "} {
			var lists []fusion.List
			for _, leg := range []struct {
				name string
				req  index.Request
			}{
				{index.LegSubstring, index.Request{Query: q, Mode: index.ModeSubstring, Fallback: -1}},
				{index.LegText, index.Request{Query: q, Mode: index.ModeText, Fallback: -1}},
				{index.LegVector, index.Request{Vector: qv, Mode: index.ModeVector}},
			} {
				l := fusion.List{Leg: leg.name}
				for _, h := range all(t, ix, leg.req) {
					l.IDs = append(l.IDs, h.ID)
					l.Scores = append(l.Scores, h.Score)
				}
				lists = append(lists, l)
			}
			var want []string
			for _, h := range fusion.RRF(lists, fusion.Options{TiesShareRank: true}) {
				want = append(want, h.ID)
			}
			var got []string
			for _, h := range all(t, ix, index.Request{Query: q, Vector: qv, Mode: index.ModeHybrid, Fallback: -1}) {
				got = append(got, h.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%q: hybrid %v\nRRF of legs %v", q, got, want)
			}
		}
	})
}
