// The text leg's judges of word positions: phrases, ^ and NEAR read a
// document's positions from its stored text, since the text index keeps
// none; a phrase found as written needs none (exactRun).

package index

import (
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/record"
)

// docText returns the stored title and body of a document, ok false when
// the store has no such document.
func (s *search) docText(id string) (title, body []byte, ok bool, err error) {
	rec := s.tx.Get(bucketDocs, []byte(id))
	if rec == nil {
		return nil, nil, false, nil
	}
	_, rest, err := record.DecodeHeader(rec)
	if err == nil {
		title, body, err = record.DecodeText(rest)
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("document %q: %w", id, err)
	}
	return title, body, true, nil
}

// textMatch judges one document against a strict plan, reading its
// stored text only when a phrase, NEAR or ^ needs word positions.
func (s *search) textMatch(tp *textPlan, id string, pres []uint64, nw int) (bool, error) {
	var pos [2]map[string][]int
	positions := func(f int) (map[string][]int, error) {
		if pos[0] == nil {
			var err error
			if pos, err = s.positions(id); err != nil {
				return nil, err
			}
		}
		return pos[f], nil
	}
	v, err := tp.verdict(s.plan, func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }, positions)
	return v == plan.Yes, err
}

// phrasesIn reports whether a document holds every required phrase of a
// simple query: its words' terms present (pres), then, for a phrase of
// several words, as a run, read from the stored text (the external ID is
// resolved into *id when that is needed).
func (s *search) phrasesIn(tp *textPlan, id *string, iid string, pres []uint64, nw int) (bool, error) {
	bits := func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }
	var pos [2]map[string][]int
	var fd *record.Folded
	for _, tl := range tp.required {
		ok := false
		for f := range 2 {
			if tl.Fields&(1<<f) == 0 || !tl.present(bits(f)) {
				continue
			}
			if !tl.needsPositions() || tl.compound(bits(f)) {
				ok = true
				break
			}
			if *id == "" {
				var err error
				if *id, err = s.textR.ExternalID(bleveindex.IndexInternalID(iid)); err != nil {
					return false, err
				}
			}
			if !tl.Initial && !s.ix.analyzeRuns {
				if fd == nil {
					var err error
					if fd, err = s.foldedDoc(*id); err != nil {
						return false, err
					}
				}
				if exactRun(tl, fd, f) {
					ok = true
					break
				}
			}
			if pos[f] == nil {
				var err error
				if pos, err = s.positions(*id); err != nil {
					return false, err
				}
			}
			if len(tl.occurrences(tp, pos[f])) > 0 {
				ok = true
				break
			}
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// foldedDoc returns a document's folded text, from the fold cache or its
// record.
func (s *search) foldedDoc(id string) (*record.Folded, error) {
	rec := s.tx.Get(bucketDocs, []byte(id))
	if rec == nil {
		return nil, fmt.Errorf("document %q is in an index but not in the store", id)
	}
	seq, err := record.Seq(rec)
	if err != nil {
		return nil, fmt.Errorf("document %q: %w", id, err)
	}
	return (&checkItem{id: id, rec: rec, seq: seq}).folded(s.ix.fold)
}

// positions returns the term positions of a document's title and body,
// analyzed from the stored text.
func (s *search) positions(id string) ([2]map[string][]int, error) {
	var pos [2]map[string][]int
	title, body, ok, err := s.docText(id)
	if err != nil {
		return pos, err
	}
	if !ok {
		return pos, fmt.Errorf("document %q is in an index but not in the store", id)
	}
	for i, text := range [][]byte{title, body} {
		pos[i] = map[string][]int{}
		for _, tok := range s.ix.textA.Analyze(text) {
			pos[i][string(tok.Term)] = append(pos[i][string(tok.Term)], tok.Position)
		}
	}
	return pos, nil
}

// exactRun reports whether field f (0 title, 1 body) of a document holds
// the quoted leaf's text as written, up to case, between separators, in
// a way that analyzes as the query does: then the document holds the
// leaf's words as a run, and no analysis of its text is needed. That is
// the common case of a quoted phrase ("all rights", "source code"), which
// matches thousands of documents that each would otherwise be analyzed
// whole for its positions (2.2 s for "all rights" on the yardstick's
// corpus). A false answer decides nothing: stems and an identifier's
// parts make runs too, which positions find.
//
// The same text, bounded by separators, is the same words; case changes
// words only inside one (camelCase and acronyms split), so every word of
// both the query's text and the document's must have no inner capital
// (lower, Title or UPPER case). Cost: a scan of the folded field, cached
// between searches.
func exactRun(tl *tleaf, fd *record.Folded, f int) bool {
	text, upper := fd.Title, fd.TitleUpper
	if f == 1 {
		text, upper = fd.Body, fd.BodyUpper
	}
	q := tl.Folded
	if upper == nil || len(q) == 0 || len(tl.Text) != len(q) || !wordByte(q[0]) || !wordByte(q[len(q)-1]) || !plainCase(tl.Text) {
		return false
	}
	fn := find.New(q)
	for at := 0; at+len(q) <= len(text); {
		i := fn.Index(text[at:])
		if i < 0 {
			return false
		}
		i += at
		end := i + len(q)
		if (i == 0 || separator(text[i-1])) && (end == len(text) || separator(text[end])) &&
			plainCase(record.RestoreCase(text[i:end], shiftMask(upper, i, end-i))) {
			return true
		}
		at = i + 1
	}
	return false
}

// wordByte reports whether c is an ASCII letter or digit.
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// separator reports whether c ends a word whatever surrounds it: ASCII
// space and punctuation that no identifier holds ('.', '-', '_' and '\”
// join the parts of names and contractions).
func separator(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', ',', ';', ':', '!', '?', '"', '(', ')', '[', ']', '{', '}', '<', '>', '/', '\\', '|', '=', '+', '*', '&', '^', '%', '$', '#', '@', '~', '`':
		return true
	}
	return false
}

// plainCase reports whether no ASCII word of s has a capital after its
// first letter unless all its letters are capitals: lower, Title and
// UPPER words are one word each, whatever their case.
func plainCase(s string) bool {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && ('a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z') {
			j++
		}
		if j > i+1 {
			lower, upper := 0, 0
			for _, c := range []byte(s[i+1 : j]) {
				if c <= 'Z' {
					upper++
				} else {
					lower++
				}
			}
			if upper > 0 && (lower > 0 || s[i] > 'Z') {
				return false
			}
		}
		i = max(j, i+1)
	}
	return true
}

// shiftMask returns the bits of mask for bytes [off, off+n), from bit 0.
func shiftMask(mask []uint64, off, n int) []uint64 {
	out := make([]uint64, (n+63)/64)
	for k := range n {
		if b := off + k; mask[b/64]&(1<<(b%64)) != 0 {
			out[k/64] |= 1 << (k % 64)
		}
	}
	return out
}
