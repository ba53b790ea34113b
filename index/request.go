package index

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twindex/twindex/fusion"
)

// Leg names, as they appear in a Mode, in Hit.MatchedIn and in Explain.
const (
	// LegSubstring finds exact, case-insensitive substrings of the
	// documents' text, from the trigram index.
	LegSubstring = "substring"
	// LegText finds stemmed words, ranked by BM25.
	LegText = "text"
	// LegVector finds the documents whose vectors are nearest the query's.
	LegVector = "vector"
	// LegFuzzy marks a hit of the text leg that the tolerant pass
	// matched, for some word of the query, only approximately: within
	// some edits, or (with Request.Prefix) by a completion.
	LegFuzzy = "fuzzy"
	// LegGraph marks a hit that expansion added: reached through links
	// from a hit, not matched by the query.
	LegGraph = "graph"
)

// Mode is the legs a search runs: LegSubstring, LegText, LegVector, or
// several of them joined with "+" in any order ("text+vector"), whose
// rankings are fused with RRF. Two fusions have names of their own:
// ModeAuto and ModeHybrid. ParseMode reads a Mode and spells it the one
// way Result.Mode reports it.
type Mode string

const (
	// ModeAuto fuses the substring and text legs (the default).
	ModeAuto Mode = "auto"
	// ModeSubstring runs the substring leg alone: exact substrings, every
	// term required.
	ModeSubstring Mode = "substring"
	// ModeText runs the text leg alone: stemmed words, ranked by BM25.
	ModeText Mode = "text"
	// ModeVector runs the vector leg alone: the documents nearest the
	// query's vector (Request.Vector, or the query embedded by
	// Options.Embedder).
	ModeVector Mode = "vector"
	// ModeHybrid fuses all three legs.
	ModeHybrid Mode = "hybrid"
)

// legSet is a Mode as the set of legs it runs.
type legSet uint8

const (
	runsSubstring legSet = 1 << iota
	runsText
	runsVector
)

// modeName spells a set of legs.
type modeName struct {
	mode Mode
	legs legSet
}

// modeNames spell every set of legs; Modes lists them in this order.
var modeNames = []modeName{
	{ModeAuto, runsSubstring | runsText},
	{ModeSubstring, runsSubstring},
	{ModeText, runsText},
	{ModeVector, runsVector},
	{ModeHybrid, runsSubstring | runsText | runsVector},
	{Mode(LegSubstring + "+" + LegVector), runsSubstring | runsVector},
	{Mode(LegText + "+" + LegVector), runsText | runsVector},
}

// Modes lists every Mode as ParseMode spells it.
func Modes() []Mode {
	out := make([]Mode, len(modeNames))
	for i, n := range modeNames {
		out[i] = n.mode
	}
	return out
}

// ParseMode reads a mode: "" (ModeAuto), a name of Modes, or legs joined
// with "+" (substring+text is ModeAuto). The error wraps ErrInvalidRequest
// and lists what is accepted; its message is the reason alone.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeAuto, nil
	}
	var legs legSet
	for _, part := range strings.Split(s, "+") {
		switch part {
		case LegSubstring:
			legs |= runsSubstring
		case LegText:
			legs |= runsText
		case LegVector:
			legs |= runsVector
		default:
			if i := slices.IndexFunc(modeNames, func(n modeName) bool { return string(n.mode) == part }); i >= 0 {
				legs |= modeNames[i].legs
				continue
			}
			return "", unknownValue("mode", s, modeList())
		}
	}
	return legs.mode(), nil
}

// mode spells a set of legs; ModeAuto for the empty set.
func (l legSet) mode() Mode {
	for _, n := range modeNames {
		if n.legs == l {
			return n.mode
		}
	}
	return ModeAuto
}

func modeList() string {
	names := make([]string, len(modeNames))
	for i, n := range modeNames {
		names[i] = string(n.mode)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// legs returns the legs of a mode that ParseMode spelled; 0 for any other.
func (m Mode) legs() legSet {
	for _, n := range modeNames {
		if n.mode == m {
			return n.legs
		}
	}
	return 0
}

// Runs reports whether m runs the leg named leg: LegSubstring, LegText or
// LegVector.
func (m Mode) Runs(leg string) bool {
	bit := map[string]legSet{LegSubstring: runsSubstring, LegText: runsText, LegVector: runsVector}[leg]
	return bit != 0 && m.legs()&bit != 0
}

// WithoutVector returns m without the vector leg (hybrid is auto);
// ModeAuto when nothing is left.
func (m Mode) WithoutVector() Mode { return (m.legs() &^ runsVector).mode() }

// Order is the order of hits.
type Order string

const (
	OrderScore    Order = "score" // the default
	OrderDateAsc  Order = "date_asc"
	OrderDateDesc Order = "date_desc"
)

// ParseOrder reads "" (OrderScore), "score", "date_asc" or "date_desc";
// see ParseMode for its error.
func ParseOrder(s string) (Order, error) {
	switch o := Order(s); o {
	case "":
		return OrderScore, nil
	case OrderScore, OrderDateAsc, OrderDateDesc:
		return o, nil
	}
	return "", unknownValue("order", s, "score, date_asc or date_desc")
}

// Syntax is how Request.Query is read.
type Syntax string

const (
	// SyntaxSimple reads a query typed into a search box (the default):
	// never a syntax error, every character literal, "quotes" make a
	// phrase; with Request.Prefix the last word is also a prefix while it
	// is being typed.
	SyntaxSimple Syntax = "simple"
	// SyntaxRaw reads SQLite FTS5's query syntax (query.Raw): AND, OR,
	// NOT, NEAR, "phrases", prefix*, column filters and ^initial, with a
	// *query.Error for malformed input.
	SyntaxRaw Syntax = "raw"
)

// ParseSyntax reads "" (SyntaxSimple), "simple" or "raw"; see ParseMode
// for its error.
func ParseSyntax(s string) (Syntax, error) {
	switch x := Syntax(s); x {
	case "":
		return SyntaxSimple, nil
	case SyntaxSimple, SyntaxRaw:
		return x, nil
	}
	return "", unknownValue("syntax", s, "simple or raw")
}

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

// ParseFuzzy reads "" or "off", "auto", "0", "1" or "2"; see ParseMode
// for its error.
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
	return FuzzyOff, unknownValue("fuzzy", s, "off, auto, 1 or 2")
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

// Expand walks the links of the first hits (the seeds) and adds the
// documents it reaches; see fusion.ExpandOptions for its fields and their
// defaults (Depth 0 means one hop, MaxResults 0 means 50). A search
// admits only documents that exist and pass its filters, and then asks
// Admit, when set.
type Expand = fusion.ExpandOptions

// Boost raises hits from the current project and session, and recent
// ones, after fusion and expansion; see fusion.Boost. A zero Now means the
// time of the search. A boost is skipped where the request filters on the
// same thing, where it could change nothing.
type Boost = fusion.Boost

// Request is one search. The zero value of every filter means "no filter";
// filters combine with AND, and the values inside one filter with OR.
type Request struct {
	Query  string
	Syntax Syntax // "" means SyntaxSimple
	// Mode is the legs that run; "" means ModeAuto. A mode with the
	// vector leg needs Vector or Options.Embedder; when no document has
	// a vector, the vector leg is dropped with a warning.
	Mode Mode
	// Fuzzy makes the text leg tolerant: the query's words also match
	// the indexed words within this edit distance (as written), at half
	// a word's weight for one edit and a tenth for two, and count as
	// matched for ranking; a document that holds no word exactly must
	// hold every word approximately. See Fuzzy.
	Fuzzy Fuzzy
	// Prefix reads a simple-syntax query as typed into a search box:
	// its last word, unless a space follows it, also matches as a prefix
	// (its most frequent completions, at half a word's weight), and the
	// fallback completes every word. Off, a word matches whole words
	// only, as a command line or an agent means it. Raw syntax's word* is
	// a prefix either way.
	Prefix bool
	// Fallback: when the exact search finds fewer hits than this, the
	// tolerant pass (fuzzy auto, and with Prefix every word also a
	// prefix) ranks the text leg again, approximate words counted as
	// matched; when a word is in no document but the others find enough,
	// it does so for that word alone, unless the substring leg found this
	// many (the word is then a piece of longer words, as nmars of
	// Unmarshal). 0 means DefaultFallback; negative turns it off. Not
	// without the text leg: the substring leg asks for exact substrings.
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
	Offset   int       // 0..MaxOffset; past the last match, a page with no hits
	Explain  bool
	// Expand adds the documents linked to the first hits (Order score
	// only); nil adds none.
	Expand *Expand
	// Boost raises hits from the current project and session; nil
	// boosts nothing.
	Boost *Boost
	// Vector is the query vector of the vector leg; without it the query
	// is embedded with Options.Embedder. VectorWeight weighs the vector
	// leg in RRF; 0 means 1.
	Vector       []float32
	VectorWeight float64
	// Rerank, with Options.Reranker, reorders the first Rerank hits of
	// the first page by the reranker's scores.
	Rerank int
	// MarkStart and MarkEnd wrap matches in snippets and lines; "" means
	// <mark> and </mark>.
	MarkStart, MarkEnd string
	// Lines asks for each hit's matching lines (Hit.Lines), as grep
	// prints them; nil asks for none.
	Lines *LineOptions
	// Bare leaves each hit's text out: no title, snippet, field, line,
	// column or lines, only the fields stored beside the text, its score
	// and legs; Limit may then be up to MaxBareLimit. It lists many hits
	// cheaply (twindex search -l lists every path so). With Lines it
	// counts each hit's matching lines (Hit.MatchingLines) and returns
	// none of them (twindex search -c). Not with Rerank, which reads the
	// text.
	Bare bool
	// MinSeq, on a cluster (package cluster), makes the search wait until
	// every shard shows the cluster's writes up to this sequence (an
	// Applied.Seq): read your writes. An Index ignores it.
	MinSeq uint64
}

// LineOptions asks for the lines of a hit's body that hold a match, found
// in the stored text as the legs matched: the exact, case- and
// accent-insensitive occurrences of the query's terms where the substring
// leg ran; the words whose analyzed terms are the query's (stems, a word
// being typed's completions, a tolerant hit's typos) where the text leg
// ran; a quoted phrase where its words run in order; in the first MiB of
// the body, as snippets look. Cost: each hit's whole body is searched for
// every term, and the words that start like a query word are analyzed, on
// the page's hits only: linear in their text, a full analysis of it for a
// quoted phrase (BenchmarkSearch auto+lines against auto).
type LineOptions struct {
	// Before and After are the lines of context shown before and after
	// each matching line (grep -B and -A); context lines that two matches
	// share are shown once.
	Before, After int
	// Max bounds the matching lines returned per hit; 0 means
	// DefaultMaxLines, at most MaxLines. Hit.MatchingLines counts them
	// all.
	Max int
}

// Limits of a Request.
const (
	DefaultLimit    = 20
	MaxLimit        = 100
	MaxBareLimit    = 10000
	DefaultFallback = 3
	// MaxOffset bounds Offset: pages deeper than any index here holds
	// documents, which keeps an offset's sums in an int on every platform.
	MaxOffset = 1 << 24
	// MaxQueryBytes and MaxQueryTerms bound a query; a longer one is an
	// ErrInvalidRequest, never silently cut.
	MaxQueryBytes = 10000
	MaxQueryTerms = 64
	// DefaultMaxLines and MaxLines bound LineOptions.Max; MaxContext
	// bounds Before and After.
	DefaultMaxLines = 100
	MaxLines        = 10000
	MaxContext      = 100
)

// Validate reports, as an ErrInvalidRequest, what in r Search would
// refuse before reading the index: an unknown mode, order or syntax, a
// limit outside 1..MaxLimit (MaxBareLimit when Bare; 0 is the default),
// Bare with Rerank, an offset outside 0..MaxOffset, Until not after Since,
// fuzziness or Rerank out of range, a query over MaxQueryBytes. What only
// the index can tell (an empty query, too many terms, a malformed raw
// query) Search reports.
func (r *Request) Validate() error {
	_, err := r.Normalized()
	return err
}

// Normalized returns r with its defaults filled in and Mode spelled as
// ParseMode spells it, or what Validate reports.
func (r Request) Normalized() (Request, error) {
	bad := func(format string, args ...any) (Request, error) {
		return r, fmt.Errorf("%w: "+format, append([]any{ErrInvalidRequest}, args...)...)
	}
	var err error
	if r.Mode, err = ParseMode(string(r.Mode)); err != nil {
		return bad("%s", err)
	}
	if r.Order, err = ParseOrder(string(r.Order)); err != nil {
		return bad("%s", err)
	}
	if r.Syntax, err = ParseSyntax(string(r.Syntax)); err != nil {
		return bad("%s", err)
	}
	if r.Limit == 0 {
		r.Limit = DefaultLimit
	}
	maxLimit := MaxLimit
	if r.Bare {
		maxLimit = MaxBareLimit
	}
	switch {
	case r.Limit < 1 || r.Limit > maxLimit:
		return bad("limit %d out of range 1..%d", r.Limit, maxLimit)
	case r.Bare && r.Rerank > 0:
		return bad("a bare request has no text to rerank: leave out bare or rerank")
	case r.Offset < 0 || r.Offset > MaxOffset:
		return bad("offset %d out of range 0..%d", r.Offset, MaxOffset)
	case !r.Since.IsZero() && !r.Until.IsZero() && !r.Until.After(r.Since):
		return bad("until %s is not after since %s", r.Until.Format(time.RFC3339), r.Since.Format(time.RFC3339))
	case r.Fuzzy < FuzzyAuto || r.Fuzzy > MaxFuzzy:
		return bad("fuzzy %d out of range (want off, auto, 1 or 2)", int(r.Fuzzy))
	case len(r.Query) > MaxQueryBytes:
		return bad("query of %d bytes, the limit is %d", len(r.Query), MaxQueryBytes)
	case r.Rerank < 0 || r.Rerank > MaxLimit:
		return bad("rerank %d out of range 0..%d", r.Rerank, MaxLimit)
	}
	if l := r.Lines; l != nil {
		switch {
		case l.Before < 0 || l.Before > MaxContext || l.After < 0 || l.After > MaxContext:
			return bad("lines of context %d before, %d after: out of range 0..%d", l.Before, l.After, MaxContext)
		case l.Max < 0 || l.Max > MaxLines:
			return bad("max lines %d out of range 0..%d", l.Max, MaxLines)
		}
		lo := *l
		if lo.Max == 0 {
			lo.Max = DefaultMaxLines
		}
		r.Lines = &lo
	}
	if r.Fallback == 0 {
		r.Fallback = DefaultFallback
	}
	if r.VectorWeight == 0 {
		r.VectorWeight = 1
	}
	if r.MarkStart == "" && r.MarkEnd == "" {
		r.MarkStart, r.MarkEnd = "<mark>", "</mark>"
	}
	return r, nil
}
