package index

import (
	"bytes"
	"strings"

	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/terms"
	"github.com/twindex/twindex/tokenize"
)

// didYouMean returns the query with each word that no document holds
// replaced by the nearest indexed word (at most two edits, the most
// frequent among the nearest), or "" when no word changes. It reads only
// the plain words of the query (terms, not phrases or prefixes), and
// not a word of one or two letters still being typed (Request.Prefix):
// it has no completions, and a word near it ("c" for "cl", "do" for "Du")
// is no suggestion while the rest of it comes.
func (s *search) didYouMean() (string, error) {
	if s.textR == nil {
		s.textR = s.allTextR
		defer func() { s.textR = nil }()
	}
	var edits []terms.Edit
	for _, n := range s.plan.TermNodes(s.req.Query) {
		l := s.plan.ByNode[n.Node]
		if l.Negated || l.Unfinished && !l.Typing {
			continue
		}
		for _, tok := range s.ix.textA.Analyze([]byte(l.Text)) {
			term := string(tok.Term)
			if n, err := s.docFreq(term); err != nil || n > 0 {
				if err != nil {
					return "", err
				}
				continue
			}
			fz, err := s.closestFuzzy(tokenize.Fold(l.Text[tok.Start:tok.End]), term)
			if err != nil || len(fz) == 0 {
				if err != nil {
					return "", err
				}
				continue
			}
			word := fz[0].Word
			if word == "" {
				if word, err = s.surface(fz[0].Term); err != nil {
					return "", err
				}
			}
			if word != "" {
				edits = append(edits, terms.Edit{Start: n.Pos + tok.Start, End: n.Pos + tok.End, Word: word})
			}
		}
	}
	return terms.Respell(s.req.Query, edits), nil
}

// docFreq is the number of documents holding term in the larger of the
// title and the body.
func (s *search) docFreq(term string) (uint64, error) {
	c, err := s.termDocs(term)
	return max(c[rank.Title], c[rank.Body]), err
}

// termDocs returns the number of documents holding term in the title, in
// the body and in the licence comment (by rank.Title, rank.Body, rank.Boiler): the
// collection's on a shard.
func (s *search) termDocs(term string) ([3]uint64, error) {
	if c, ok := s.g.LookupTerm(term); ok {
		return c, nil
	}
	if err := s.missing("term %q", term); err != nil {
		return [3]uint64{}, err
	}
	c, err := s.localTermDocs(term)
	if err == nil {
		s.rec.PutTerm(term, c)
	}
	return c, err
}

// localTermDocs is termDocs of this index alone, recording nothing.
func (s *search) localTermDocs(term string) ([3]uint64, error) {
	var c [3]uint64
	for i, f := range [3]string{rank.Title: fieldTitle, rank.Body: fieldBody, rank.Boiler: fieldBoiler} {
		r, err := s.textR.TermFieldReader(s.ctx, []byte(term), f, false, false, false)
		if err != nil {
			return c, err
		}
		c[i] = r.Count()
		r.Close()
	}
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
		id, err := s.dicts().FirstHolder(s.ctx, term, f)
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
		if w, ok := s.firstWord(text, term); ok {
			return w, nil
		}
	}
	return "", nil
}

// surfacePart is how much of a text surface analyzes at a time, to the
// end of the line it reaches: the word is most often near the start, and
// a body may be a MiB.
const surfacePart = 2048

// firstWord returns the first word of text whose term is term, as
// written and lowercased. It analyzes text a part at a time, each ending
// at a line's end, which no word spans: the parts' tokens are the
// whole's (over the Go tree's files, 3,000 of them, not one differed).
func (s *search) firstWord(text []byte, term string) (string, bool) {
	for start := 0; start < len(text); {
		end := len(text)
		if end-start > surfacePart {
			if i := bytes.IndexByte(text[start+surfacePart:], '\n'); i >= 0 {
				end = start + surfacePart + i + 1
			}
		}
		for _, tok := range s.ix.textA.Analyze(text[start:end]) {
			if string(tok.Term) == term {
				return strings.ToLower(string(text[start+tok.Start : start+tok.End])), true
			}
		}
		start = end
	}
	return "", false
}
