package index

import (
	"fmt"
	"slices"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/snippet"
)

// snippetQuery is what a hit's snippet and lines look for: the query's
// folded terms as substrings (keys 0..n-1), its analyzed terms (keys
// n..) and its quoted phrases of several words as runs of words.
type snippetQuery struct {
	*snippet.Query
	// defines holds the folded text of the query's terms: a declared
	// name among them is the best match.
	defines map[string]bool
}

// snippetQuery returns what the snippets of exact or tolerant hits look
// for, made on first use.
func (s *search) snippetQuery(tolerant bool) *snippetQuery {
	i := 0
	if tolerant {
		i = 1
	}
	if s.snip[i] == nil {
		s.snip[i] = s.snippetTerms(tolerant)
	}
	return s.snip[i]
}

func (s *search) snippetTerms(tolerant bool) *snippetQuery {
	q := &snippetQuery{
		Query:   &snippet.Query{Analyze: s.ix.textA.Analyze, Words: &s.ix.words, MarkStart: s.req.MarkStart, MarkEnd: s.req.MarkEnd, MaxLine: MaxLineBytes},
		defines: map[string]bool{},
	}
	leaves := s.plan.Positive()
	for _, l := range leaves {
		q.defines[l.Folded] = true
	}
	// Exact substrings, unless only words were searched for.
	if legs := s.req.Mode.legs(); legs&runsSubstring != 0 || legs&runsText == 0 {
		for _, l := range leaves {
			q.AddSub(l.Folded)
		}
	}
	key := map[*plan.Leaf]int{}
	for i, l := range leaves {
		key[l] = len(leaves) + i
	}
	// The words of the text leg, with their expansions: of the tolerant
	// pass when it ranked the text leg, its tolerant ones only for a hit
	// it matched approximately.
	tp := s.exactPlan
	if s.tolPlan != nil {
		tp = s.tolPlan
	}
	if tp == nil {
		return q
	}
	for _, tl := range tp.Leaves {
		k, ok := key[tl.Leaf]
		if !ok {
			continue
		}
		if tl.Quoted && tl.NeedsPositions() {
			if slices.ContainsFunc(tl.Groups, func(g plan.Group) bool { return g.Stop != "" }) {
				q.Stops = s.ix.textA.Stops
			}
			q.AddRun(snippet.Run{Key: k, Occurrences: func(pos map[string][]int) [][2]int { return tl.Occurrences(tp, pos) }, Starts: leafStarts(s.ix.textA, tp, tl)})
			continue
		}
		for _, g := range tl.Groups {
			for _, ti := range g.Terms {
				if tp.Terms[ti].Tolerant && !tolerant {
					continue
				}
				for _, t := range tp.Terms[ti].Dict {
					q.AddTerm(t, k)
				}
			}
		}
	}
	return q
}

// snippet returns the field a hit shows, its snippet and where its best
// match is in the body (-1: none); see snippet.Query.Snippet.
func (s *search) snippet(q *snippetQuery, title string, body snippet.Field, f *record.Folded, prefer, floor int) (field, snip string, at int) {
	snip, at, inTitle := q.Snippet(snippet.Field{Text: title, Folded: f.Title, Map: f.TitleMap}, body, prefer, floor)
	if inTitle {
		return fieldTitle, snip, at
	}
	return fieldBody, snip, at
}

// lines returns the body's matching lines with their context, and how
// many lines match; see snippet.Query.Lines.
func (s *search) lines(q *snippetQuery, body snippet.Field, o *LineOptions) ([]Line, int) {
	var out []Line
	n := q.Lines(body, snippet.LineOptions(*o), func(l snippet.Line) { out = append(out, Line(l)) })
	return out, n
}

// texts sets each hit's title and snippet from its record (none for a
// Bare request, which counts lines at most), on up to Options.Workers
// goroutines: the snippets are most of a page's cost and need only the
// fold cache, which is safe for concurrent use, and the records, which
// nothing writes.
func (s *search) texts(hits []Hit, recs []hitRecord) error {
	if s.req.Bare && s.req.Lines == nil {
		return nil
	}
	// The snippets' queries and what each hit declares are found first,
	// on this goroutine.
	qs := make([]*snippetQuery, len(hits))
	declared := make([][]string, len(hits))
	for i := range hits {
		qs[i] = s.snippetQuery(slices.Contains(hits[i].MatchedIn, LegFuzzy))
		if s.req.Bare {
			continue
		}
		var err error
		if declared[i], err = s.declared(hits[i].ID); err != nil {
			return err
		}
	}
	text := func(i int) error {
		h := &hits[i]
		title, body, fd, err := s.hitText(h.ID, recs[i])
		if err != nil {
			return err
		}
		if s.req.Bare { // Lines: their count alone
			_, h.MatchingLines = s.lines(qs[i], body, &LineOptions{Max: 1})
			return nil
		}
		h.Title = title
		prefer, floor := s.declarations(h, &body, declared[i], qs[i])
		var at int
		h.Field, h.Snippet, at = s.snippet(qs[i], title, body, fd, prefer, floor)
		if at >= 0 {
			h.Line, h.Column = snippet.Locate(body.Shape(), at)
		}
		if s.req.Lines != nil {
			h.Lines, h.MatchingLines = s.lines(qs[i], body, s.req.Lines)
		}
		if h.Explain != nil {
			h.Explain.Defines = declared[i]
		}
		return nil
	}
	return inParts(s.ctx, len(hits), s.ix.workersFor(len(hits), parallelTexts), func(_, i int) error { return text(i) })
}

// parallelTexts is the fewest hits per goroutine that texts spreads.
const parallelTexts = 4

// hitText returns a hit's title and body and their folding with its
// maps. The folded text is usually cached, and the original restored
// from it, only where a snippet shows it, costs less than reading the
// record's text whole (restoring it when stored lowered, decompressing it
// in a store written before text was stored raw); a record read raw for
// the cache is used as it is. A body whose folding only lowered ASCII
// letters is given by the folding and its case mask (snippet.Field), for
// the snippet to restore the parts it shows.
func (s *search) hitText(id string, rec hitRecord) (title string, body snippet.Field, fd *record.Folded, err error) {
	decoded := false
	var text string
	fd, err = s.ix.fold.Get(id, rec.seq, func() (record.Text, error) {
		t, err := record.DecodeStored(rec.rest)
		if tt, b, raw := t.Raw(); err == nil && raw {
			title, text, decoded = string(tt), string(b), true
		}
		return t, err
	})
	if err != nil {
		return "", body, nil, fmt.Errorf("document %q: %w", id, err)
	}
	if !decoded {
		if folded, upper, ok := fd.Plain(true); ok && upper != nil {
			if title, ok := fd.OriginalTitle(); ok {
				return title, snippet.Field{Folded: folded, Upper: upper}, fd, nil
			}
		}
	}
	ok := decoded
	if !ok {
		title, text, ok = fd.Original()
	}
	if !ok {
		t, b, err := record.DecodeText(rec.rest)
		if err != nil {
			return "", body, nil, fmt.Errorf("document %q: %w", id, err)
		}
		title, text = string(t), string(b)
	}
	fd = fd.WithMaps(title, text)
	return title, snippet.Field{Text: text, Folded: fd.Body, Map: fd.BodyMap}, fd, nil
}
