package index

import (
	"slices"
	"sync"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/rank"
)

// decidedByGrams reports whether the candidates of the query's leaves are
// its matches, so that indexScores can rank them: in simple syntax (every
// leaf required), with each leaf one gram that decides it, and no filter
// on stored fields. Queries of words of one to three characters are.
func (s *search) decidedByGrams(leaves []*sleaf) bool {
	if s.plan.Strict || s.filter.byHeader {
		return false
	}
	for _, sl := range leaves {
		if sl.Verify || len(sl.Grams) != 1 {
			return false
		}
	}
	return true
}

// scratch holds a search's arrays sized by its matches, which a query of
// one or two characters makes hundreds of kilobytes (a match for most
// documents): taken from scratchPool when first needed and given back
// when the search ends (search.release), for a later search to use
// again. Only the search's own goroutine uses them, one step at a time.
type scratch struct {
	scoring []float64     // indexScores' lengths, then its scores
	scored  []rank.Scored // indexScores' matches, which the search holds until it ends
	pos     []int         // inText's places of the fused documents in the text leg's hits
	inBoth  []bool        // a fusion's marks of the text leg's hits that another leg holds
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// marks returns inBoth cleared for n hits.
func (scr *scratch) marks(n int) []bool {
	scr.inBoth = slices.Grow(scr.inBoth[:0], n)[:n]
	clear(scr.inBoth)
	return scr.inBoth
}

// scratch returns the search's scratch arrays.
func (s *search) scratch() *scratch {
	if s.scr == nil {
		s.scr = scratchPool.Get().(*scratch)
	}
	return s.scr
}

// indexScores scores candidates that their grams decide from the trigram
// index alone, as substringIn would from their text: a leaf's frequency
// is its gram's in the document, its frequency in the title its gram's in
// fieldTitleGrams (windows, so "aa" counts twice in "aaa" where a count
// of the text finds it once), and the lengths come from the norms of
// fieldTitleGrams and fieldLength. Reading no stored record nor text, a
// candidate costs a few postings and the lookup of its ID. The matches
// come in no set order, as substringLeg's.
func (s *search) indexScores(leaves []*sleaf, tris []string, cands []grams.Candidate, avgTitle, avgAll float64) ([]rank.Scored, error) {
	scr := s.scratch()
	scr.scoring = slices.Grow(scr.scoring[:0], 2*len(cands))[:2*len(cands)]
	clear(scr.scoring)
	dl, score := scr.scoring[:len(cands)], scr.scoring[len(cands):]
	err := s.eachLength(cands, func(i int, _ uint64, norm float64) { dl[i] = lengthOf(norm) })
	if err != nil {
		return nil, err
	}
	for _, sl := range leaves {
		if sl.dup {
			continue
		}
		g, w := sl.Grams[0], sl.idf
		for i := range cands {
			score[i] += w * s.ix.opts.BodyWeight * rank.BM25(float64(cands[i].Freq[g]), dl[i], avgAll)
		}
		err := s.eachPosting(fieldTitleGrams, tris[g], cands, func(i int, d *bleveindex.TermFieldDoc) {
			score[i] += w * s.ix.opts.TitleWeight * rank.BM25(float64(d.Freq), lengthOf(d.Norm), avgTitle)
		})
		if err != nil {
			return nil, err
		}
	}
	out := slices.Grow(scr.scored[:0], len(cands))
	for i := range cands {
		if i%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
		id, err := s.triIDs.ExternalID(cands[i].ID)
		if err != nil {
			return nil, err
		}
		if s.filter.active && !s.filter.matchID(id) {
			continue
		}
		out = append(out, rank.Scored{ID: id, Score: score[i], Doc: rank.DocOf(cands[i].ID)})
	}
	if out == nil {
		out = []rank.Scored{} // a leg that ran and matched nothing, unlike a nil one
	}
	scr.scored = out // a search runs one substring leg
	return out, nil
}

// eachLength calls fn with the index of each candidate and its posting
// of fieldLength (the write that stored it, and its length's norm): from
// the list the trigram index's snapshot holds whole when there is one
// (backend.Whole), else read for the candidates.
func (s *search) eachLength(cands []grams.Candidate, fn func(i int, seq uint64, norm float64)) error {
	list, err := s.ix.lengths.Of(s.ctx, s.triR, len(cands))
	if err != nil {
		return err
	}
	if list == nil {
		return s.eachPosting(fieldLength, lengthTerm, cands, func(i int, d *bleveindex.TermFieldDoc) { fn(i, d.Freq, d.Norm) })
	}
	for i := range cands {
		if seq, norm, ok := list.At(cands[i].ID); ok {
			fn(i, seq, norm)
		}
	}
	return nil
}

// eachPosting calls fn with the index of each candidate that holds term
// in field of the trigram index, and its posting with frequency and norm.
func (s *search) eachPosting(field, term string, cands []grams.Candidate, fn func(int, *bleveindex.TermFieldDoc)) error {
	r, err := s.triR.TermFieldReader(s.ctx, []byte(term), field, true, true, false)
	if err != nil {
		return err
	}
	defer r.Close()
	return grams.Visit(r, cands, float64(r.Count()), fn)
}
