// The text leg's judges of word positions: phrases, ^ and NEAR read a
// document's positions from its stored text, since the text index keeps
// none; a phrase found as written needs none (record.Folded.HasRun).

package index

import (
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/slots"
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
func (s *search) textMatch(tp *plan.Text, posTerms []string, id string, pres []uint64, nw int) (bool, error) {
	var pos [2]map[string][]int
	positions := func(f int) (map[string][]int, error) {
		if pos[0] == nil {
			var err error
			if pos, err = s.positions(posTerms, id); err != nil {
				return nil, err
			}
		}
		return pos[f], nil
	}
	v, err := tp.Judge(s.plan, func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }, positions)
	return v == plan.Yes, err
}

// heldPhrases judges the quoted phrases of a simple query, which every
// match holds, in each document of the tally that judge(k) asks for:
// held[k] reports whether document k holds them. A phrase whose words'
// terms are present (the presence bits) needs the document's text only
// when it has several words and no compound term covers them; those
// documents are read and judged on up to Options.Workers goroutines,
// and, when filters are active, only those the filters keep. ids[k] is
// the external ID of each document that was read, "" for the others.
//
// Cost: for each document read, a look for the phrase as written in its
// folded text (record.Folded.HasRun), and failing that an analysis of its
// text for the positions of the phrases' terms.
func (s *search) heldPhrases(tp *plan.Text, t *rank.Tally, slot *slots.Table, judge func(k int) bool) (held []bool, ids []string, err error) {
	n := len(t.Docs())
	held = make([]bool, n)
	ids = make([]string, n)
	posTerms := tp.PositionTerms()
	var todo []int
	for k := range n {
		if !judge(k) {
			continue
		}
		switch phrasesPresent(tp, t.Present(k)) {
		case plan.Yes:
			held[k] = true
			continue
		case plan.No:
			continue
		}
		id, err := s.textIDs.ExternalID(bleveindex.IndexInternalID(slot.ID(int32(k))))
		if err != nil {
			return nil, nil, err
		}
		if s.filter.active && !s.keep(id) {
			continue
		}
		ids[k] = id
		todo = append(todo, k)
	}
	recs := make([][]byte, len(todo))
	for i, k := range todo {
		if recs[i] = s.tx.Get(bucketDocs, []byte(ids[k])); recs[i] == nil {
			return nil, nil, fmt.Errorf("document %q is in an index but not in the store", ids[k])
		}
	}
	err = s.inParts(len(todo), s.workersFor(len(todo), parallelPhrases), func(_, i int) error {
		k := todo[i]
		var err error
		held[k], err = s.phrasesIn(tp, posTerms, ids[k], recs[i], t.Present(k))
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return held, ids, nil
}

// parallelPhrases is the fewest documents whose phrases are judged by
// more than one goroutine.
const parallelPhrases = 64

// phrasesPresent judges the required phrases by the presence bits alone:
// Yes when each is satisfied without positions, No when one's words are
// missing from every field it may match in, Abstain when the text must
// tell.
func phrasesPresent(tp *plan.Text, pres []uint64) plan.Verdict {
	nw := len(pres) / 2
	v := plan.Yes
	for _, tl := range tp.Required {
		present, decided := false, false
		for f := range 2 {
			bits := pres[f*nw : (f+1)*nw]
			if tl.Fields&(1<<f) == 0 || !tl.Present(bits) {
				continue
			}
			present = true
			if !tl.NeedsPositions() || tl.Compound(bits) {
				decided = true
				break
			}
		}
		if !present {
			return plan.No
		}
		if !decided {
			v = plan.Abstain
		}
	}
	return v
}

// phrasesIn reports whether a document, whose stored record is rec,
// holds every required phrase of a simple query: its words' terms
// present (pres), then, for a phrase of several words, as a run, found as
// written or from the positions of its terms. It may run on any
// goroutine.
func (s *search) phrasesIn(tp *plan.Text, posTerms []string, id string, rec []byte, pres []uint64) (bool, error) {
	nw := len(pres) / 2
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
			if !tl.Initial && !s.ix.analyzeRuns {
				if fd == nil {
					seq, err := record.Seq(rec)
					if err != nil {
						return false, fmt.Errorf("document %q: %w", id, err)
					}
					it := checkItem{id: id, rec: rec, seq: seq}
					if fd, err = it.folded(s.ix.fold); err != nil {
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
				if pos, err = s.recordPositions(posTerms, id, rec); err != nil {
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

// positions returns the positions of terms (plan.Text.PositionTerms) in a
// document's title and body, analyzed from the stored text.
func (s *search) positions(terms []string, id string) ([2]map[string][]int, error) {
	rec := s.tx.Get(bucketDocs, []byte(id))
	if rec == nil {
		return [2]map[string][]int{}, fmt.Errorf("document %q is in an index but not in the store", id)
	}
	return s.recordPositions(terms, id, rec)
}

// recordPositions is positions of the document's record.
func (s *search) recordPositions(terms []string, id string, rec []byte) ([2]map[string][]int, error) {
	var pos [2]map[string][]int
	_, rest, err := record.DecodeHeader(rec)
	if err != nil {
		return pos, fmt.Errorf("document %q: %w", id, err)
	}
	title, body, err := record.DecodeText(rest)
	if err != nil {
		return pos, fmt.Errorf("document %q: %w", id, err)
	}
	for i, text := range [][]byte{title, body} {
		pos[i] = make(map[string][]int, len(terms))
		for k, p := range s.ix.textA.Positions(text, terms) {
			if p != nil {
				pos[i][terms[k]] = p
			}
		}
	}
	return pos, nil
}
