package index

import (
	"fmt"
	"strconv"
	"time"
)

// Doc is one searchable document. ID is required; Title and Body are the
// searched fields; the rest are filters and are returned with hits.
type Doc struct {
	ID      string            `json:"id"`
	Kind    string            `json:"kind,omitempty"`
	Title   string            `json:"title,omitempty"`
	Body    string            `json:"body,omitempty"`
	Parent  string            `json:"parent,omitempty"`
	Tags    []string          `json:"tags,omitempty"`
	Role    string            `json:"role,omitempty"`
	Project string            `json:"project,omitempty"`
	Source  string            `json:"source,omitempty"`
	Time    time.Time         `json:"ts,omitzero"`
	Meta    map[string]string `json:"meta,omitempty"`
	// Session is the conversation or work session the document belongs
	// to, for Boost.
	Session string `json:"session,omitempty"`
	// Links are the document's typed edges to other documents, which
	// need not exist yet.
	Links []Link `json:"links,omitempty"`
	// Vector is the document's embedding: all vectors of an index have
	// the dimension of the first one written (or Options.Dimensions).
	Vector []float32 `json:"vector,omitempty"`
}

// Link is a typed edge from a document to the document with ID To: e.g.
// contains, imports, extends, implements, depends_on, mentions.
type Link struct {
	To   string `json:"to"`
	Type string `json:"type,omitempty"`
}

// Backlink is a link into a document, from the document with ID From.
type Backlink struct {
	From string `json:"from"`
	Type string `json:"type,omitempty"`
}

// Mode selects which legs a search runs.
type Mode string

const (
	// ModeAuto runs both legs and fuses them with RRF (the default).
	ModeAuto Mode = "auto"
	// ModeSubstring runs the trigram leg only: exact, case-insensitive substrings.
	ModeSubstring Mode = "substring"
	// ModeText runs the stemmed-word leg only, ranked by BM25.
	ModeText Mode = "text"
)

// Order is the order of hits.
type Order string

const (
	OrderScore    Order = "score" // the default
	OrderDateAsc  Order = "date_asc"
	OrderDateDesc Order = "date_desc"
)

// Syntax is how Request.Query is read.
type Syntax string

const (
	// SyntaxSimple reads a query typed into a search box (the default):
	// never a syntax error, every character literal, "quotes" make a
	// phrase; the last word is also a prefix while it is being typed.
	SyntaxSimple Syntax = "simple"
	// SyntaxRaw reads SQLite FTS5's query syntax (query.Raw): AND, OR,
	// NOT, NEAR, "phrases", prefix*, column filters and ^initial, with a
	// *query.Error for malformed input.
	SyntaxRaw Syntax = "raw"
)

// Fuzzy is the edit distance allowed between a query word and an indexed
// word in the text leg: FuzzyOff (the zero value), FuzzyAuto, or 1 or 2
// edits. Edits are counted in characters (runes); a transposition of two
// neighbours is one edit.
type Fuzzy int

const (
	FuzzyOff  Fuzzy = 0
	FuzzyAuto Fuzzy = -1 // by the word's length: 0 edits up to 2 characters, 1 up to 5, 2 beyond
	MaxFuzzy  Fuzzy = 2
)

// ParseFuzzy reads "off", "auto", "0", "1" or "2".
func ParseFuzzy(s string) (Fuzzy, error) {
	switch s {
	case "off", "0", "":
		return FuzzyOff, nil
	case "auto":
		return FuzzyAuto, nil
	case "1":
		return 1, nil
	case "2":
		return 2, nil
	}
	return FuzzyOff, fmt.Errorf("%w: fuzzy %q (want off, auto, 1 or 2)", ErrInvalidRequest, s)
}

// String is the inverse of ParseFuzzy.
func (f Fuzzy) String() string {
	switch f {
	case FuzzyOff:
		return "off"
	case FuzzyAuto:
		return "auto"
	}
	return strconv.Itoa(int(f))
}

// Leg names, as they appear in Hit.MatchedIn and Explain.
const (
	LegTrigram = "trigram"
	LegText    = "text"
	// LegFuzzy marks a hit found only by the tolerant pass: fuzzy or
	// prefix matches of the query's words, ranked after every exact hit.
	LegFuzzy = "fuzzy"
)

// Request is one search. The zero value of every filter means "no filter";
// filters combine with AND, and the values inside one filter with OR.
type Request struct {
	Query  string
	Syntax Syntax // "" means SyntaxSimple
	Mode   Mode   // "" means ModeAuto
	// Fuzzy adds, after the exact hits, the documents that match the
	// query's words within this edit distance (text leg). See Fuzzy.
	Fuzzy Fuzzy
	// Fallback: when the exact search finds fewer hits than this, the
	// tolerant pass runs (fuzzy auto, and every word also a prefix) and
	// its hits are appended. 0 means DefaultFallback; negative turns it
	// off. Not in ModeSubstring, which asks for exact substrings.
	Fallback int
	Kinds    []string // any of
	Projects []string // any of
	Tags     []string // any of
	Role     string
	IDs      []string  // any of
	Under    string    // the doc with this ID and all its descendants through Parent
	Since    time.Time // inclusive, on Doc.Time
	Until    time.Time // exclusive, on Doc.Time
	Order    Order     // "" means OrderScore
	Limit    int       // 1..MaxLimit; 0 means DefaultLimit
	Offset   int
	Explain  bool
	// Expand adds the documents linked to the first hits (Order score
	// only); nil adds none.
	Expand *Expand
	// Boost raises hits from the current project and session; nil
	// boosts nothing.
	Boost *Boost
	// SearchMode is keyword (""), vector or hybrid. Vector is the query
	// vector; without it the query is embedded with Options.Embedder.
	// VectorWeight weighs the vector leg in hybrid RRF; 0 means 1.
	SearchMode   SearchMode
	Vector       []float32
	VectorWeight float64
	// Rerank, with Options.Reranker, reorders the first Rerank hits of
	// the first page by the reranker's scores.
	Rerank int
	// MarkStart and MarkEnd wrap matches in snippets; "" means <mark> and </mark>.
	MarkStart, MarkEnd string
}

// Limits of a Request.
const (
	DefaultLimit    = 20
	MaxLimit        = 100
	DefaultFallback = 3
	// MaxQueryBytes and MaxQueryTerms bound a query; a longer one is an
	// ErrInvalidRequest, never silently cut.
	MaxQueryBytes = 10000
	MaxQueryTerms = 64
)

// Result is one page of hits.
type Result struct {
	Mode  Mode  `json:"mode"`
	Hits  []Hit `json:"hits"`
	Total int   `json:"total"` // exact number of matching documents
	// NextOffset is the offset of the next page, nil on the last page.
	NextOffset *int `json:"nextOffset"`
	// Tolerant is true when the tolerant pass ran (Request.Fuzzy, or the
	// fallback); its hits carry LegFuzzy in MatchedIn.
	Tolerant bool `json:"tolerant,omitempty"`
	// DidYouMean is the query with its words replaced by the closest
	// indexed words, offered when nothing matched; "" otherwise.
	DidYouMean string `json:"didYouMean,omitempty"`
	// Warnings say what the search did in a lesser form: an Embedder or
	// Reranker that failed.
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
	// Score is the fused RRF score in auto mode, the leg's own score
	// otherwise, times any Boost. It orders hits and has no absolute
	// meaning: RRF scores are below 0.033 at K 60.
	Score float64 `json:"score"`
	// Norm is Score divided by the best hit's Score: 1 for the first hit,
	// the scale for thresholds.
	Norm      float64  `json:"norm"`
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
type LegRank struct {
	Leg   string  `json:"leg"`
	Rank  int     `json:"rank"` // 1-based
	Score float64 `json:"score"`
}
