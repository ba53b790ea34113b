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
	// Partial lists the shards that did not answer a search of shards
	// (sharded.Search): their documents are missing from Hits and Total.
	// Empty for a complete result.
	Partial []int `json:"partial,omitempty"`
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
	// in the request's markers, its lines as the text has them. In a
	// document that declares a query term (see Explain.Defines), the
	// best match is the first declaration; elsewhere the one that starts
	// the window with the most of the query's terms, outside the licence
	// comment a source file starts with when the document matches
	// elsewhere too.
	Snippet string `json:"snippet"`
	// Line and Column locate the snippet's best match in the body: its
	// 1-based line, and its 1-based byte offset in that line, as ripgrep
	// and the Go toolchain count them. Both are 0 when the body shows no
	// match of the query: Field "title" (the query matched the title
	// alone), or a hit found by its vector or its links.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Lines are the body's matching lines with their context, in order,
	// when Request.Lines asks for them: at most LineOptions.Max matching
	// lines. MatchingLines counts every line of the body with a match
	// (grep -c).
	Lines         []Line `json:"lines,omitempty"`
	MatchingLines int    `json:"matchingLines,omitempty"`
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

// Line is one line of a hit's body.
type Line struct {
	// N is the line's 1-based number.
	N int `json:"n"`
	// Text is the line HTML-escaped (html.UnescapeString restores it),
	// its matches wrapped in the request's markers, without its line
	// break. A line longer than MaxLineBytes shows that much around its
	// first match, with … where it is cut.
	Text string `json:"text"`
	// Match is false for a line of context.
	Match bool `json:"match,omitempty"`
}

// MaxLineBytes is the longest line text Hit.Lines shows whole.
const MaxLineBytes = 512

// Explain tells how a hit was ranked.
type Explain struct {
	K     int       `json:"k"`
	Legs  []LegRank `json:"legs"`
	Boost *Boosted  `json:"boost,omitempty"`
	// Rerank is the Reranker's score, when it reordered the hit.
	Rerank *float64 `json:"rerank,omitempty"`
	// Text splits the text leg's score (Legs) by field: "title",
	// "body", "boilerplate" (the licence comment a source file starts
	// with, weighed Options.BoilerWeight) and "symbols" (what the
	// document's declarations of query words add, Options.SymbolWeight).
	Text map[string]float64 `json:"text,omitempty"`
	// Defines lists the query's terms that the document declares (a
	// function, type, class, constant or variable, a Markdown heading;
	// see package decl), for which the substring leg added SymbolWeight
	// times their idf.
	Defines []string `json:"defines,omitempty"`
}

// LegRank is a hit's place in one leg.
type LegRank = fusion.LegRank

// Via tells how expansion reached a hit.
type Via = fusion.Via

// Boosted tells how Boost changed a hit's score: Score = Base × Project ×
// Session × Recency.
type Boosted = fusion.Boosted
