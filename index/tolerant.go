package index

import (
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/tokenize"
)

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
			fz, err := s.expandFuzzy(tokenize.Fold(l.text[tok.Start:tok.End]), term, int(MaxFuzzy))
			if err != nil || len(fz) == 0 {
				if err != nil {
					return "", err
				}
				continue
			}
			word := fz[0].word
			if word == "" {
				if word, err = s.surface(fz[0].term); err != nil {
					return "", err
				}
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
// text fields.
func (s *search) docFreq(term string) (uint64, error) {
	var n uint64
	for _, f := range []string{fieldTitle, fieldBody} {
		r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f, false, false, false)
		if err != nil {
			return 0, err
		}
		n = max(n, r.Count())
		r.Close()
	}
	return n, nil
}

// surface returns a word as written in a document holding term (whose
// analyzed term it is), lowercased: the stem "configur" comes back as
// "configuration".
func (s *search) surface(term string) (string, error) {
	for _, f := range []string{fieldBody, fieldTitle} {
		r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f, false, false, false)
		if err != nil {
			return "", err
		}
		var tfd bleveindex.TermFieldDoc
		d, err := r.Next(&tfd)
		r.Close()
		if err != nil || d == nil {
			if err != nil {
				return "", err
			}
			continue
		}
		id, err := s.textR.ExternalID(d.ID)
		if err != nil {
			return "", err
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
