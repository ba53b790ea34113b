package index_test

import (
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

func TestExpandAndBoost(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "seed", Kind: "code", Body: "parser entry point", Links: []index.Link{{To: "lexer", Type: "imports"}, {To: "ghost", Type: "imports"}}},
			index.Doc{ID: "lexer", Kind: "code", Body: "tokens", Links: []index.Link{{To: "deep", Type: "imports"}}},
			index.Doc{ID: "deep", Kind: "code", Body: "bytes"},
			index.Doc{ID: "readme", Kind: "doc", Body: "about", Links: []index.Link{{To: "seed", Type: "mentions"}}},
			index.Doc{ID: "other", Kind: "code", Project: "p2", Session: "s9", Body: "a parser too, among many other words that make this body long and its score lower"},
		)
		base := index.Request{Query: "parser ", Mode: index.ModeText, Fallback: -1}
		r := search(t, ix, base)
		if r.Total != 2 {
			t.Fatalf("plain: %v", ids(r))
		}
		// A negative depth: seeds only; depth 0 is the default, one hop.
		req := base
		req.Expand = &index.Expand{Depth: -1}
		if r := search(t, ix, req); r.Total != 2 {
			t.Fatalf("depth -1: %v", ids(r))
		}
		req.Expand = &index.Expand{}
		if r := search(t, ix, req); r.Total != 4 {
			t.Fatalf("depth 0 (default 1): %v", ids(r))
		}
		// Depth 1 reaches lexer (outgoing) and readme (incoming), not the
		// missing ghost; depth 2 reaches deep.
		req.Expand = &index.Expand{Depth: 1}
		r = search(t, ix, req)
		got := ids(r)
		if r.Total != 4 || !slices.Contains(got, "lexer") || !slices.Contains(got, "readme") || slices.Contains(got, "ghost") {
			t.Fatalf("depth 1: %v (total %d)", got, r.Total)
		}
		for _, h := range r.Hits {
			if h.ID == "lexer" && (h.Via == nil || h.Via.Seed != "seed" || h.Via.Type != "imports" || h.Via.Hops != 1 || !slices.Equal(h.MatchedIn, []string{index.LegGraph})) {
				t.Errorf("lexer: via %+v matchedIn %v", h.Via, h.MatchedIn)
			}
			if h.Norm <= 0 || h.Norm > 1 {
				t.Errorf("%s: norm %v", h.ID, h.Norm)
			}
		}
		req.Expand = &index.Expand{Depth: 2, SkipIncoming: []string{"mentions"}}
		got = ids(search(t, ix, req))
		if !slices.Contains(got, "deep") || slices.Contains(got, "readme") {
			t.Fatalf("depth 2, skip incoming mentions: %v", got)
		}
		// Filters hold for expanded documents.
		req.Kinds = []string{"code"}
		req.Expand = &index.Expand{Depth: 1}
		if got := ids(search(t, ix, req)); slices.Contains(got, "readme") {
			t.Fatalf("kind code: %v", got)
		}
		// A threshold on the normalized scale.
		req = base
		req.Expand = &index.Expand{Depth: 2, MinScore: 0.7}
		if got := ids(search(t, ix, req)); slices.Contains(got, "deep") {
			t.Fatalf("min score 0.7 kept a two-hop neighbour (0.64): %v", got)
		}

		// Boost: other (project p2, session s9) rises; explain shows it.
		plain := ids(search(t, ix, base))
		if plain[0] == "other" {
			t.Fatalf("other ranks first unboosted: %v", plain)
		}
		req = base
		req.Explain = true
		req.Boost = &index.Boost{Project: "p2", Session: "s9", ProjectFactor: 10}
		r = search(t, ix, req)
		if r.Hits[0].ID != "other" || r.Hits[0].Explain.Boost == nil || r.Hits[0].Explain.Boost.Project != 10 || r.Hits[0].Explain.Boost.Session != 1.2 {
			t.Fatalf("boost: %v (plain %v), explain %+v", ids(r), plain, r.Hits[0].Explain)
		}
	})
}
