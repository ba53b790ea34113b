package index

import (
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

// Leg names, as they appear in Hit.MatchedIn and Explain.
const (
	LegTrigram = "trigram"
	LegText    = "text"
)

// Request is one search. The zero value of every filter means "no filter";
// filters combine with AND, and the values inside one filter with OR.
type Request struct {
	Query    string
	Mode     Mode     // "" means ModeAuto
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
	// MarkStart and MarkEnd wrap matches in snippets; "" means <mark> and </mark>.
	MarkStart, MarkEnd string
}

// Limits of a Request.
const (
	DefaultLimit = 20
	MaxLimit     = 100
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
	// Score is the fused RRF score in auto mode, the leg's own score otherwise.
	Score     float64  `json:"score"`
	MatchedIn []string `json:"matchedIn"`
	Explain   *Explain `json:"explain,omitempty"`
}

// Explain tells how a hit was ranked.
type Explain struct {
	K    int       `json:"k"`
	Legs []LegRank `json:"legs"`
}

// LegRank is a hit's place in one leg.
type LegRank struct {
	Leg   string  `json:"leg"`
	Rank  int     `json:"rank"` // 1-based
	Score float64 `json:"score"`
}
