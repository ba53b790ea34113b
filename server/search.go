package server

import (
	"context"
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
	"github.com/twindex/twindex/query"
)

// Page sizes of the search tool: smaller than the engine's, since every
// hit costs the agent context.
const (
	mcpDefaultLimit = 10
	mcpMaxLimit     = 50
)

type searchInput struct {
	Query        string   `json:"query" jsonschema:"words or a code fragment; \"double quotes\" make a phrase"`
	Mode         string   `json:"mode,omitempty" jsonschema:"the legs that run: auto (default, best for most queries): stemmed words and exact substrings, fused; substring: exact case-insensitive text, for identifiers and code; text: stemmed words ranked by BM25, for prose; vector: documents nearest the query's embedding; hybrid: all three fused; substring+vector and text+vector fuse those two. vector legs need the server started with --embed-url"`
	Syntax       string   `json:"syntax,omitempty" jsonschema:"simple (default): every character literal, \"quotes\" make a phrase; raw: SQLite FTS5 query syntax: AND OR NOT (uppercase), parentheses, \"phrase\", prefix*, NEAR(a b, 10), title:word, {title body}:word, -title:word, ^word (starts the field)"`
	Fuzzy        string   `json:"fuzzy,omitempty" jsonschema:"off (default), auto, 1 or 2: the words also match indexed words within that many typos (auto: 0 for words up to 2 letters, 1 up to 5, 2 beyond), at a lower weight, in one ranking with the exact matches; hits matched only approximately are marked matchedIn fuzzy"`
	Expand       int      `json:"expand,omitempty" jsonschema:"also return the documents linked to the top 5 hits (upsert links), up to this many hops away, marked matchedIn graph with via"`
	BoostProject string   `json:"boostProject,omitempty" jsonschema:"rank hits from this project higher (x1.5), without filtering"`
	BoostSession string   `json:"boostSession,omitempty" jsonschema:"rank hits from this session higher (x1.2), without filtering"`
	Fallback     *int     `json:"fallback,omitempty" jsonschema:"when fewer hits than this match, rank again with the words fuzzy and completed, and when a word is in no document, with that word fuzzy (default 3; 0 turns it off)"`
	Kinds        []string `json:"kinds,omitempty" jsonschema:"only these kinds (any of); files are code, test, doc, config or other"`
	Projects     []string `json:"projects,omitempty" jsonschema:"only these projects (any of)"`
	Tags         []string `json:"tags,omitempty" jsonschema:"only documents with any of these tags"`
	Role         string   `json:"role,omitempty" jsonschema:"only documents with this role"`
	Under        string   `json:"under,omitempty" jsonschema:"only the document with this ID and everything below it through parent links (a folder: src/index)"`
	IDs          []string `json:"ids,omitempty" jsonschema:"only these document IDs"`
	Since        string   `json:"since,omitempty" jsonschema:"only documents at or after this time: RFC 3339 (2024-05-01T12:00:00Z) or a date (2024-05-01); files use their modification time"`
	Until        string   `json:"until,omitempty" jsonschema:"only documents before this time: RFC 3339 or a date (YYYY-MM-DD)"`
	Order        string   `json:"order,omitempty" jsonschema:"score (best first), date_desc (newest first) or date_asc"`
	Limit        int      `json:"limit,omitempty" jsonschema:"hits per page"`
	Offset       int      `json:"offset,omitempty" jsonschema:"hits to skip: the nextOffset of the previous page"`
	Explain      bool     `json:"explain,omitempty" jsonschema:"add to each hit how it was ranked in each leg"`
	Rerank       *int     `json:"rerank,omitempty" jsonschema:"reorder the first N hits of the first page by the server's cross-encoder reranker (default: the whole page when the server was started with --rerank-url; 0 turns it off)"`
	MinSeq       uint64   `json:"minSeq,omitempty" jsonschema:"on a cluster: answer once every shard shows the writes up to this seq (an upsert's or remove's seq), to read your own writes"`
}

type searchOutput struct {
	Hits       []Hit    `json:"hits"`
	Total      int      `json:"total" jsonschema:"exact number of matching documents"`
	NextOffset *int     `json:"nextOffset" jsonschema:"offset of the next page, null on the last page"`
	Truncated  bool     `json:"truncated" jsonschema:"true when more hits follow this page"`
	Tolerant   bool     `json:"tolerant,omitempty" jsonschema:"true when fuzzy words or completions ranked the hits (fuzzy, or the fallback)"`
	DidYouMean string   `json:"didYouMean,omitempty" jsonschema:"when nothing matched: the query with its words replaced by the nearest indexed words"`
	Warnings   []string `json:"warnings,omitempty" jsonschema:"what the search did in a lesser form, e.g. keywords only because embedding the query failed"`
	Partial    []int    `json:"partial,omitempty" jsonschema:"on a cluster: the shards no node answered; their documents are missing from hits and total"`
}

var searchArgs = map[string]arg{
	"query": {fix: `pass the words or code fragment to look for, e.g. {"query": "open file"}`},
	"mode": {enum: modeNames(), def: string(index.ModeAuto),
		fix: "mode is one of auto (default: words and substrings fused), substring (exact text), text (stemmed words), vector, hybrid, substring+vector or text+vector"},
	"syntax": {enum: []string{"simple", "raw"}, def: "simple",
		fix: "syntax is simple (default: every character literal) or raw (SQLite FTS5 query syntax)"},
	"fuzzy": {enum: []string{"off", "auto", "1", "2"}, def: "off",
		fix: "fuzzy is off (default), auto, 1 or 2 (a string)"},
	"expand": {min: num(0), max: num(3), fix: "expand is a number of link hops from 0 (default) to 3"},
	"fallback": {min: num(0), def: index.DefaultFallback,
		fix: fmt.Sprintf("fallback is an integer, 0 or more (default %d; 0 turns it off)", index.DefaultFallback)},
	"order": {enum: []string{"score", "date_asc", "date_desc"}, def: "score",
		fix: "order is one of score (default), date_desc or date_asc"},
	"limit": {min: num(1), max: num(mcpMaxLimit), def: mcpDefaultLimit,
		fix: fmt.Sprintf("limit is an integer from 1 to %d (default %d); for more hits keep the limit and call again with offset set to the previous nextOffset", mcpMaxLimit, mcpDefaultLimit)},
	"offset": {min: num(0), max: num(index.MaxOffset), fix: fmt.Sprintf("offset is 0 to %d: the nextOffset of the previous page", index.MaxOffset)},
	"rerank": {min: num(0), max: num(mcpMaxLimit),
		fix: fmt.Sprintf("rerank is a number of hits from 0 (off) to %d, and needs the server started with --rerank-url", mcpMaxLimit)},
	"since": {fix: "since is an RFC 3339 time (2024-05-01T12:00:00Z) or a date (2024-05-01)"},
	"until": {fix: "until is an RFC 3339 time (2024-05-01T12:00:00Z) or a date (2024-05-01)"},
}

const searchDescription = `Ranked full-text search over the index. Words match stemmed, documents with more of them rank higher; substrings match exactly, every term required; "double quotes" make a phrase. ` +
	`mode auto (default) fuses stemmed-word and exact-substring matching and suits most queries; use substring for exact identifiers or code fragments, text for natural-language words. ` +
	`score is a relative rank-fusion (RRF) value with no absolute meaning: use it to order hits, never as a threshold. ` +
	`total is exact; to see more, call again with offset set to nextOffset (null on the last page) rather than raising limit; ` +
	`narrow with kinds, under, since/until, then read a hit in full with get. ` +
	`syntax raw takes SQLite FTS5 queries (AND OR NOT NEAR, "phrase", prefix*, title:word). ` +
	`When fewer than 3 documents match exactly, typo-tolerant and prefix matches follow them, marked matchedIn fuzzy; when none match, didYouMean suggests a spelling.`

func (s *Service) addSearch() {
	addTool(s, &mcp.Tool{
		Name:        "search",
		Title:       "Search the index",
		Description: searchDescription,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: boolPtr(false), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, searchArgs, s.search)
}

func (s *Service) search(ctx context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	req, err := in.request(s.info.Reranker)
	if err != nil {
		return nil, searchOutput{}, err
	}
	res, err := s.eng.Search(ctx, req)
	if err != nil {
		return nil, searchOutput{}, s.searchErr(err, in.Query)
	}
	out := searchOutput{Hits: []Hit{}, Total: res.Total, NextOffset: res.NextOffset, Truncated: res.NextOffset != nil,
		Tolerant: res.Tolerant, DidYouMean: res.DidYouMean, Warnings: res.Warnings, Partial: res.Partial}
	snippets := 0
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, NewHit(h))
		snippets += len(h.Snippet)
	}
	s.searches.Add(1)
	if res.Total > 0 {
		s.searchesWithHits.Add(1)
	}
	s.snippetBytes.Add(int64(snippets))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: searchText(in, &out)}}}, out, nil
}

// request checks the input (beyond the schema, which the SDK checked)
// and builds the engine request. reranker says whether the server has one.
func (in *searchInput) request(reranker bool) (index.Request, error) {
	const tool = "search"
	if strings.TrimSpace(in.Query) == "" {
		return index.Request{}, badArg(tool, `query is empty: %s`, searchArgs["query"].fix)
	}
	// Prefix: an agent's query often ends in a partial identifier.
	req := index.Request{Query: in.Query, Prefix: true, Kinds: in.Kinds, Projects: in.Projects, Tags: in.Tags,
		Role: in.Role, IDs: in.IDs, Under: strings.TrimSuffix(in.Under, "/"),
		Limit: in.Limit, Offset: in.Offset, Explain: in.Explain, MinSeq: in.MinSeq}
	var err error
	if req.Syntax, err = index.ParseSyntax(in.Syntax); err != nil {
		return req, badArg(tool, "%s: %s", err, searchArgs["syntax"].fix)
	}
	if req.Fuzzy, err = index.ParseFuzzy(in.Fuzzy); err != nil {
		return req, badArg(tool, "%s: %s", err, searchArgs["fuzzy"].fix)
	}
	if req.Mode, err = index.ParseMode(in.Mode); err != nil {
		return req, badArg(tool, "%s: %s", err, searchArgs["mode"].fix)
	}
	if req.Order, err = index.ParseOrder(in.Order); err != nil {
		return req, badArg(tool, "%s: %s", err, searchArgs["order"].fix)
	}
	if in.Expand > 0 {
		req.Expand = &index.Expand{Depth: in.Expand}
	}
	if in.BoostProject != "" || in.BoostSession != "" {
		req.Boost = &index.Boost{Project: in.BoostProject, Session: in.BoostSession}
	}
	if in.Fallback != nil {
		switch {
		case *in.Fallback < 0:
			return req, badArg(tool, "fallback %d is negative: %s", *in.Fallback, searchArgs["fallback"].fix)
		case *in.Fallback == 0:
			req.Fallback = -1
		default:
			req.Fallback = *in.Fallback
		}
	}
	if req.Limit == 0 {
		req.Limit = mcpDefaultLimit
	}
	if req.Limit < 1 || req.Limit > mcpMaxLimit {
		return req, badArg(tool, "limit %d is out of range: %s", in.Limit, searchArgs["limit"].fix)
	}
	if req.Offset < 0 || req.Offset > index.MaxOffset {
		return req, badArg(tool, "offset %d is out of range: %s", in.Offset, searchArgs["offset"].fix)
	}
	switch {
	case in.Rerank == nil:
		if reranker {
			req.Rerank = req.Limit
		}
	case *in.Rerank < 0 || *in.Rerank > mcpMaxLimit:
		return req, badArg(tool, "rerank %d is out of range: %s", *in.Rerank, searchArgs["rerank"].fix)
	case *in.Rerank > 0 && !reranker:
		return req, badArg(tool, "rerank %d, but this server has no reranker: %s", *in.Rerank, searchArgs["rerank"].fix)
	default:
		req.Rerank = *in.Rerank
	}
	if in.Since != "" {
		if req.Since, err = ParseTime(in.Since); err != nil {
			return req, badArg(tool, "since: %s", err)
		}
	}
	if in.Until != "" {
		if req.Until, err = ParseTime(in.Until); err != nil {
			return req, badArg(tool, "until: %s", err)
		}
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && !req.Until.After(req.Since) {
		return req, badArg(tool, "until %s is not after since %s: nothing could match; swap them or widen the range", in.Until, in.Since)
	}
	return req, nil
}

// searchErr turns an engine error into a tool error: the caller's
// mistakes with a fix, anything else as an index failure, never as "no
// hits".
func (s *Service) searchErr(err error, q string) error {
	var qe *query.Error
	switch {
	case errors.Is(err, index.ErrEmptyQuery):
		return badArg("search", "query %q has nothing to search for: use at least one word or a few characters of the text you want", q)
	case errors.As(err, &qe):
		return &badRequest{msg: fmt.Sprintf("search: %s\n%s", qe.Error(), qe.Caret()), err: qe}
	case errors.Is(err, index.ErrInvalidRequest):
		return badArg("search", "%s; see the tool's input schema", strings.TrimPrefix(err.Error(), "index: "))
	case errors.Is(err, context.Canceled):
		return errors.New("search: cancelled")
	}
	s.log.Error("search failed", "query", q, "error", err)
	return fmt.Errorf("search failed: the index returned an error, not an empty result: %w (the server's operator can run 'twindex check')", err)
}

// modeNames are the modes the search tool's schema lists.
func modeNames() []string {
	var out []string
	for _, m := range index.Modes() {
		out = append(out, string(m))
	}
	return out
}

// searchText is the result for clients that read only text: one line per
// hit, matches in **bold**, and how to get the next page.
func searchText(in searchInput, out *searchOutput) string {
	var b strings.Builder
	if out.Total == 0 {
		fmt.Fprintf(&b, "No hits for %q.", in.Query)
		if out.DidYouMean != "" {
			fmt.Fprintf(&b, " Did you mean %q?", out.DidYouMean)
		}
		if m, _ := index.ParseMode(in.Mode); m == index.ModeSubstring {
			b.WriteString(" Substring mode needs the exact text; try mode auto or text for words.")
		}
		return b.String()
	}
	if len(out.Hits) == 0 {
		fmt.Fprintf(&b, "%d hits for %q; offset %d is past the last one.", out.Total, in.Query, in.Offset)
		return b.String()
	}
	fmt.Fprintf(&b, "%d hits for %q, showing %d-%d", out.Total, in.Query, in.Offset+1, in.Offset+len(out.Hits))
	if out.NextOffset != nil {
		fmt.Fprintf(&b, "; next page: offset=%d", *out.NextOffset)
	}
	b.WriteString("\n")
	marks := strings.NewReplacer("</mark><mark>", "", "<mark>", "**", "</mark>", "**")
	for i, h := range out.Hits {
		fmt.Fprintf(&b, "\n%d. %s [%s] score %.4f", in.Offset+i+1, h.ID, plain.OrDash(h.Kind), h.Score)
		if slices.Contains(h.MatchedIn, index.LegFuzzy) {
			b.WriteString(" (fuzzy)")
		}
		if h.Via != nil {
			fmt.Fprintf(&b, " (linked from %s: %s)", h.Via.Seed, plain.OrDash(h.Via.Type))
		}
		if h.Title != "" && h.Title != plain.Base(h.ID) {
			fmt.Fprintf(&b, " - %s", plain.Clean(h.Title))
		}
		if sn := strings.TrimSpace(plain.Clean(html.UnescapeString(marks.Replace(h.Snippet)))); sn != "" {
			fmt.Fprintf(&b, "\n   %s", sn)
		}
		if h.Explain != nil {
			var legs []string
			for _, l := range h.Explain.Legs {
				legs = append(legs, fmt.Sprintf("%s #%d (%.4f)", l.Leg, l.Rank, l.Score))
			}
			fmt.Fprintf(&b, "\n   explain: RRF k=%d: %s", h.Explain.K, strings.Join(legs, ", "))
		}
	}
	return b.String()
}
