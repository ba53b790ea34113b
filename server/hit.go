package server

import "github.com/twindex/twindex/index"

// Hit is a search hit as the search tool returns it and the CLI's json
// and jsonl formats print it. The jsonschema tags describe it in the
// search tool's output schema.
type Hit struct {
	ID            string         `json:"id" jsonschema:"document ID: pass it to get to read the whole document"`
	Kind          string         `json:"kind" jsonschema:"document kind (files: code, test, doc, config, other)"`
	Title         string         `json:"title"`
	Field         string         `json:"field" jsonschema:"field the snippet comes from: title or body"`
	Snippet       string         `json:"snippet" jsonschema:"HTML-escaped text around the best match, matches wrapped in <mark></mark>"`
	Line          int            `json:"line,omitempty" jsonschema:"1-based line of the best match in the body; absent when the body shows no match"`
	Column        int            `json:"column,omitempty" jsonschema:"1-based byte column of the best match in its line"`
	Lines         []index.Line   `json:"lines,omitempty" jsonschema:"the body's matching lines with their context, when lines were asked for"`
	MatchingLines int            `json:"matchingLines,omitempty" jsonschema:"how many lines of the body hold a match, when lines were asked for"`
	Score         float64        `json:"score" jsonschema:"relative rank score (RRF in auto mode): orders hits within this result only, no absolute meaning"`
	Norm          float64        `json:"norm" jsonschema:"score divided by the best hit's: 1 for the first hit; use this scale for thresholds"`
	Via           *index.Via     `json:"via,omitempty" jsonschema:"set when expand added the hit: the matched hit (seed) and link that reached it"`
	MatchedIn     []string       `json:"matchedIn" jsonschema:"legs that matched: substring (exact text) and/or text (stemmed words), vector (nearest embedding), graph (linked from a hit), or fuzzy (some word matched only approximately: a typo or a completion)"`
	Explain       *index.Explain `json:"explain,omitempty" jsonschema:"how the hit was ranked, when explain was set"`
}

// NewHit is the Hit of an engine hit.
func NewHit(h index.Hit) Hit {
	m := h.MatchedIn
	if m == nil {
		m = []string{}
	}
	return Hit{ID: h.ID, Kind: h.Kind, Title: h.Title, Field: h.Field, Snippet: h.Snippet, Line: h.Line, Column: h.Column,
		Lines: h.Lines, MatchingLines: h.MatchingLines, Score: h.Score, Norm: h.Norm,
		Via: h.Via, MatchedIn: m, Explain: h.Explain}
}
