package index

import (
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/fusion"
)

// exactIIDs returns the text index's internal IDs of the exact pass's
// matches in both legs.
func (s *search) exactIIDs(tri []scored, text *textList) (map[string]bool, error) {
	skip := make(map[string]bool, len(tri)+len(text.hits))
	for i := range text.hits {
		skip[text.iid(&text.hits[i])] = true
	}
	for _, t := range tri {
		iid, err := s.textR.InternalID(t.id)
		if err != nil {
			return nil, err
		}
		if iid != nil {
			skip[string(iid)] = true
		}
	}
	return skip, nil
}

// tolerantHits returns the first n of the tolerant list's hits, ranked
// after the exact search's exactTotal hits. A tolerant hit's score
// continues the exact ranking: 1/(K + exactTotal + its rank), times the
// smaller leg weight, below every exact hit's fused score.
func (s *search) tolerantHits(list *textList, exactTotal, n int) ([]fusion.Hit, error) {
	if n <= 0 {
		return nil, nil
	}
	if s.req.Order != OrderScore {
		n = len(list.hits)
	}
	if err := list.top(n); err != nil {
		return nil, err
	}
	rank := ranks(list.scores())
	w := min(s.ix.opts.TextWeight, s.ix.opts.SubstringWeight)
	k := float64(s.ix.opts.K)
	out := make([]fusion.Hit, 0, min(n, len(list.hits)))
	for i := range min(n, len(list.hits)) {
		id, err := list.resolve(i)
		if err != nil {
			return nil, err
		}
		sc := list.hits[i].score
		out = append(out, fusion.Hit{
			ID:    id,
			Score: w / (k + float64(exactTotal+rank[i])),
			Legs:  []fusion.LegRank{{Leg: LegFuzzy, Rank: rank[i], Score: sc}},
		})
	}
	if s.req.Order != OrderScore {
		if err := s.sortByDate(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// didYouMean returns the query with each word that no document holds
// replaced by the nearest indexed word (at most two edits, the most
// frequent among the nearest), or "" when no word changes. It reads only
// the plain words of the query (terms, not phrases or prefixes).
func (s *search) didYouMean() (string, error) {
	if s.textR == nil {
		s.textR = s.allTextR
		defer func() { s.textR = nil }()
	}
	type edit struct {
		start, end int
		word       string
	}
	var edits []edit
	for _, n := range s.plan.nodes(s.req.Query) {
		l := s.plan.byNode[n.node]
		if l.negated {
			continue
		}
		for _, tok := range s.ix.textA.Analyze([]byte(l.text)) {
			term := string(tok.Term)
			if n, err := s.docFreq(term); err != nil || n > 0 {
				if err != nil {
					return "", err
				}
				continue
			}
			fz, err := s.expandFuzzy(term, int(MaxFuzzy))
			if err != nil || len(fz) == 0 {
				if err != nil {
					return "", err
				}
				continue
			}
			word, err := s.surface(fz[0].term)
			if err != nil {
				return "", err
			}
			if word != "" {
				edits = append(edits, edit{n.pos + tok.Start, n.pos + tok.End, word})
			}
		}
	}
	if len(edits) == 0 {
		return "", nil
	}
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue // a compound's part after the compound was replaced
		}
		b.WriteString(s.req.Query[at:e.start])
		b.WriteString(e.word)
		at = e.end
	}
	b.WriteString(s.req.Query[at:])
	return b.String(), nil
}

// docFreq is the number of documents holding term in the larger of the
// title and the body.
func (s *search) docFreq(term string) (uint64, error) {
	c, err := s.termDocs(term)
	return max(c[tfTitle], c[tfBody]), err
}

// termDocs returns the number of documents holding term in the title, in
// the body and in the licence comment (by tfTitle, tfBody, tfBoiler): the
// collection's on a shard.
func (s *search) termDocs(term string) ([3]uint64, error) {
	if c, ok := s.g.term(term); ok {
		return c, nil
	}
	if err := s.missing("term %q", term); err != nil {
		return [3]uint64{}, err
	}
	var c [3]uint64
	for i, f := range [3]string{tfTitle: fieldTitle, tfBody: fieldBody, tfBoiler: fieldBoiler} {
		r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f, false, false, false)
		if err != nil {
			return c, err
		}
		c[i] = r.Count()
		r.Close()
	}
	s.rec.putTerm(term, c)
	return c, nil
}

// surface returns a word as written in a document holding term (whose
// analyzed term it is), lowercased: the stem "configur" comes back as
// "configuration". The document is the one with the smallest ID, so that
// the same documents give the same word on every backend and after every
// rebuild, whatever order an index keeps them in. Cost: the IDs of every
// document holding term, in the body or else the title.
func (s *search) surface(term string) (string, error) {
	for _, f := range []string{fieldBody, fieldTitle} {
		id, err := s.firstHolder(term, f)
		if err != nil || id == "" {
			if err != nil {
				return "", err
			}
			continue
		}
		title, body, ok, err := s.docText(id)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		text := body
		if f == fieldTitle {
			text = title
		}
		for _, tok := range s.ix.textA.Analyze(text) {
			if string(tok.Term) == term {
				return strings.ToLower(string(text[tok.Start:tok.End])), nil
			}
		}
	}
	return "", nil
}

// firstHolder returns the smallest ID of the documents holding term in
// field of the text index, or "".
func (s *search) firstHolder(term, field string) (string, error) {
	r, err := s.textR.TermFieldReader(s.ctx, []byte(term), field, false, false, false)
	if err != nil {
		return "", err
	}
	defer r.Close()
	first := ""
	var tfd bleveindex.TermFieldDoc
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return "", err
			}
		}
		d, err := r.Next(tfd.Reset())
		if err != nil || d == nil {
			return first, err
		}
		id, err := s.textR.ExternalID(d.ID)
		if err != nil {
			return "", err
		}
		if first == "" || id < first {
			first = id
		}
	}
}
