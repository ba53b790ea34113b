// The text leg's judges of word positions: phrases, ^ and NEAR read a
// document's positions from its stored text, since the text index keeps
// none; a phrase found as written needs none (record.Folded.HasRun).

package index

import (
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"

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
func (s *search) textMatch(tp *plan.Text, id string, pres []uint64, nw int) (bool, error) {
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
	v, err := tp.Judge(s.plan, func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }, positions)
	return v == plan.Yes, err
}

// phrasesIn reports whether a document holds every required phrase of a
// simple query: its words' terms present (pres), then, for a phrase of
// several words, as a run, read from the stored text (the external ID is
// resolved into *id when that is needed).
func (s *search) phrasesIn(tp *plan.Text, id *string, iid string, pres []uint64, nw int) (bool, error) {
	bits := func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }
	var pos [2]map[string][]int
	var fd *record.Folded
	for _, tl := range tp.Required {
		ok := false
		for f := range 2 {
			if tl.Fields&(1<<f) == 0 || !tl.Present(bits(f)) {
				continue
			}
			if !tl.NeedsPositions() || tl.Compound(bits(f)) {
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
				if fd.HasRun(f == 1, tl.Text, tl.Folded) {
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
			if len(tl.Occurrences(tp, pos[f])) > 0 {
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
