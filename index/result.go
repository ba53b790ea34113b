package index

import (
	"time"

	"github.com/twindex/twindex/fusion"
)

// Result is one page of hits.
type Result struct {
	// Mode is the legs that ran, as ParseMode spells them: the request's,
	// without a vector leg that had nothing to search.
	Mode  Mode  `json:"mode"`
	Hits  []Hit `json:"hits"`
	Total int   `json:"total"` // exact number of matching documents
	// NextOffset is the offset of the next page, nil on the last page.
	NextOffset *int `json:"nextOffset"`
	// Tolerant is true when the tolerant pass ranked the text leg
	// (Request.Fuzzy, or the fallback); the hits it matched only
	// approximately carry LegFuzzy in MatchedIn.
	Tolerant bool `json:"tolerant,omitempty"`
	// DidYouMean is the query with its words replaced by the closest
	// indexed words, offered when nothing matched; "" otherwise.
	DidYouMean string `json:"didYouMean,omitempty"`
	// Warnings say what the search did in a lesser form: an Embedder or
	// Reranker that failed, a vector leg with no vectors to search.
	Warnings []string `json:"warnings,omitempty"`
}

// Hit is one matching document.
type Hit struct {
	ID      string            `json:"id"`
	Kind    string            `json:"kind,omitempty"`
	Title   string            `json:"title,omitempty"`
	Parent  string            `json:"parent,omitempty"`
	Tags    []string          `json:"tags,omitempty"`
	Role    string            `json:"role,omitempty"`
	Project string            `json:"project,omitempty"`
	Source  string            `json:"source,omitempty"`
	Time    time.Time         `json:"ts,omitzero"`
	Meta    map[string]string `json:"meta,omitempty"`
	// Field is the field the snippet comes from: "title" or "body".
	Field string `json:"field"`
	// Snippet is HTML-escaped text around the best match, matches wrapped
	// in the request's markers.
	Snippet string `json:"snippet"`
	// Score is the fused RRF score when more than one leg ran, the leg's
	// own score otherwise, times any Boost. It orders hits and has no
	// absolute meaning: RRF scores are below 0.033 at K 60.
	Score float64 `json:"score"`
	// Norm is Score divided by the best hit's Score: 1 for the first hit,
	// the scale for thresholds.
	Norm float64 `json:"norm"`
	// MatchedIn names the legs that found the hit (LegSubstring, LegText,
	// LegVector, LegFuzzy, LegGraph), sorted.
	MatchedIn []string `json:"matchedIn"`
	// Via is set on a hit that expansion added (MatchedIn graph) or
	// raised: the path from the matched hit that reached it.
	Via     *Via     `json:"via,omitempty"`
	Explain *Explain `json:"explain,omitempty"`
}

// Explain tells how a hit was ranked.
type Explain struct {
	K     int       `json:"k"`
	Legs  []LegRank `json:"legs"`
	Boost *Boosted  `json:"boost,omitempty"`
	// Rerank is the Reranker's score, when it reordered the hit.
	Rerank *float64 `json:"rerank,omitempty"`
}

// LegRank is a hit's place in one leg.
type LegRank = fusion.LegRank

// Via tells how expansion reached a hit.
type Via = fusion.Via

// Boosted tells how Boost changed a hit's score: Score = Base × Project ×
// Session × Recency.
type Boosted = fusion.Boosted
