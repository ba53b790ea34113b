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

// TestAutoIsRRFOfLegs checks auto mode's paged, lazily fused ranking
// against fusion.RRF over the complete rankings of the two legs (ties
// within a leg sharing a rank).
func TestAutoIsRRFOfLegs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vocab := strings.Fields("alpha beta gamma delta epsilon parser reader writer buffer stream token cache")
	var docs []index.Doc
	for i := range 150 {
		var w []string
		for range 1 + rng.IntN(8) {
			w = append(w, vocab[rng.IntN(len(vocab))])
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%03d", i), Title: w[0], Body: strings.Join(w[1:], " ")})
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, q := range []string{"alpha", "reader buffer", "ead", "tream cache", "gamma delta token", "zzz"} {
			var lists []fusion.List
			for _, m := range []index.Mode{index.ModeSubstring, index.ModeText} {
				l := fusion.List{Leg: map[index.Mode]string{index.ModeSubstring: index.LegSubstring, index.ModeText: index.LegText}[m]}
				for _, h := range all(t, ix, index.Request{Query: q, Mode: m}) {
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
			for _, h := range all(t, ix, index.Request{Query: q}) {
				got = append(got, h.ID)
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
