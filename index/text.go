package index

import (
	"math"
	"math/bits"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
)

// coordExponent scales a text-leg score by (matched words / query
// words)^coordExponent: a document missing some of the words is demoted,
// not excluded. Measured on SciFact (nDCG@10, text mode): 0 gives 0.706,
// 0.25 gives 0.709, 1 gives 0.681.
const coordExponent = 0.25

// textList is the text leg's ranking, with what the engine keeps of the
// pass that made it.
type textList struct {
	rank.List
	// unknown: bit i, word leaf i of the query is in no document (the
	// fallback then runs).
	unknown uint64
	plan    *plan.Text // the terms it was ranked by
}

// leg names the leg of hit p in a fused hit: LegFuzzy when the tolerant
// pass matched some word of it only approximately.
func (l *textList) leg(p int) string {
	if l.Hits[p].Approx {
		return LegFuzzy
	}
	return LegText
}

// textLeg returns the documents matching the text leg, scored but not
// sorted: the caller sorts all of them (Sort) or only the first few (Top).
// It ranks documents by BM25 over the stemmed title and body, as
// FTS5's bm25() weighs columns: per term, the fields' frequencies are
// summed with the field weights and saturated once against the document's
// whole length, with real average lengths from the store's counters. In
// simple syntax any document with one of the query's terms matches and a
// coordination factor (coordExponent) favours documents with more of the
// query's words; in raw syntax a document must satisfy the query's tree.
//
// With tol set it is the tolerant pass: the words also stand for their
// tolerant expansions, read in the same pass and weighed lower
// (tolerantWeight, farWeight), and a word matched only approximately
// counts as matched for the coordination, so a document with every word,
// some approximately, ranks with those that have every word. A document
// that matches no word exactly must match every word (in raw syntax: the
// tree), since one approximate word alone is mostly noise. Its hits that
// matched some word only approximately are marked approx.
func (s *search) textLeg(tol *tolerance) (*textList, error) {
	tp, err := s.textPlan(tol)
	if err != nil {
		return nil, err
	}
	if tol == nil {
		s.exactPlan = tp
	} else {
		s.tolPlan = tp
	}
	terms := tp.Terms
	list := &textList{plan: tp}
	if len(terms) == 0 {
		return list, nil
	}
	readers, idfs, hint, err := s.openTextReaders(tp)
	defer closeTextReaders(readers)
	if err != nil {
		return nil, err
	}
	// A word no document holds, for the fallback.
	var known uint64
	for ti, rs := range readers {
		if qt := &terms[ti]; qt.Positive && !qt.Tolerant {
			for _, rd := range rs {
				if rd.r.Count() > 0 {
					known |= qt.Leaves
				}
			}
		}
	}
	list.unknown = tp.WordLeaves &^ known
	slot, t := s.newTextTally(tp, hint)
	if need := s.pruneDepth(tp, tol); need > 0 {
		if done, err := s.pruned(list, tp, readers, idfs, slot, t, need); done || err != nil {
			return list, err
		}
	}
	var tfd bleveindex.TermFieldDoc
	// Terms that score create matches; those only under a NOT, and those
	// feedback added, are read afterwards, onto the matches there are.
	for _, pass := range []bool{true, false} {
		for ti, qt := range terms {
			if (qt.Positive && !qt.Added) != pass {
				continue
			}
			for _, rd := range readers[ti] {
				for {
					d, err := rd.r.Next(tfd.Reset())
					if err != nil {
						return nil, err
					}
					if d == nil {
						break
					}
					k, ok := slot.Get(d.ID)
					if !ok {
						if !pass {
							continue
						}
						k = t.Add(d.ID)
					}
					t.Record(k, ti, rd.field, d)
				}
			}
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	for ti, qt := range terms {
		if !qt.Single {
			df, err := s.setDocs(qt, t.Matches(ti))
			if err != nil {
				return nil, err
			}
			idfs[ti] = rank.IDF(s.n, df)
		}
	}
	if s.rec != nil {
		return list, nil // a shard gathering statistics needs no more
	}
	t.Score(idfs)
	nw := (len(terms) + 63) / 64
	if s.req.Explain {
		s.explained = t
	}

	coord := coordTable(tp.Words)
	positional := s.plan.Strict && tp.Positional()
	var runs *runJudge
	if s.plan.Strict {
		runs = s.newRunJudge(tp)
	}
	// The exact terms' bits, to judge a strict tree without expansions.
	var mask []uint64
	if tol != nil && s.plan.Strict {
		mask = make([]uint64, 2*nw)
		for ti, qt := range terms {
			if !qt.Tolerant {
				mask[ti/64] |= 1 << (ti % 64)
				mask[nw+ti/64] |= 1 << (ti % 64)
			}
		}
	}
	slot.Freeze()
	// Every match holds the quoted phrases, exactly (their words have no
	// expansions).
	judgePhrases := func(k int) bool {
		return len(tp.Required) > 0 && (t.Docs()[k].ExactLeaves != 0 || tol != nil)
	}
	var held []bool
	var ids []string // by document: resolved and kept by the filters, or ""
	if len(tp.Required) > 0 {
		if err := s.awaitRuns(); err != nil {
			return nil, err
		}
		if held, ids, err = s.heldPhrases(tp, t, slot, judgePhrases); err != nil {
			return nil, err
		}
	}
	masked := make([]uint64, 2*nw)
	hits := make([]rank.Hit, 0, len(t.Docs()))
	for k, a := range t.Docs() {
		if judgePhrases(k) && !held[k] {
			continue
		}
		var id string
		if ids != nil {
			id = ids[k]
		}
		if id == "" && (s.filter.active || positional) {
			var err error
			if id, err = s.textIDs.ExternalID(bleveindex.IndexInternalID(slot.ID(int32(k)))); err != nil {
				return nil, err
			}
			if s.filter.active && !s.keep(id) {
				continue
			}
		}
		p := t.Present(k)
		isExact := a.ExactLeaves != 0
		if s.plan.Strict {
			if mask != nil {
				for i := range masked {
					masked[i] = p[i] & mask[i]
				}
				p = masked
			}
			ok, err := s.textMatch(runs, id, p, nw)
			if err != nil {
				return nil, err
			}
			isExact = ok
		}
		if tol == nil {
			if isExact {
				h := rank.Hit{ID: id, Score: a.Exact, Slot: int32(k)}
				if !s.plan.Strict && tp.Words > 1 {
					h.Score *= coord[bits.OnesCount64(a.ExactLeaves)]
				}
				hits = append(hits, h)
			}
			continue
		}
		if !isExact {
			ok := bits.OnesCount64(a.Leaves) >= min(tp.Words, 64)
			if s.plan.Strict {
				var err error
				if ok, err = s.textMatch(runs, id, t.Present(k), nw); err != nil {
					return nil, err
				}
			}
			if !ok {
				continue
			}
		}
		h := rank.Hit{ID: id, Score: a.Score, Slot: int32(k), Approx: !isExact || a.Leaves&^a.ExactLeaves != 0}
		if !s.plan.Strict && tp.Words > 1 {
			h.Score *= coord[bits.OnesCount64(a.Leaves)]
		}
		hits = append(hits, h)
	}
	list.List = rank.NewList(s.textIDs, slot, hits)
	return list, nil
}

// coordTable returns the coordination factor of a document matching m
// of a query's words words, by m (up to 64).
func coordTable(words int) []float64 {
	coord := make([]float64, 65)
	for m := range coord {
		coord[m] = math.Pow(float64(m)/float64(max(words, 1)), coordExponent)
	}
	return coord
}

// keep applies the request's filters to a matching document.
func (s *search) keep(id string) bool {
	if !s.filter.matchID(id) {
		return false
	}
	if !s.filter.byHeader {
		return true
	}
	h, err := s.header(id)
	return err == nil && s.filter.header.Match(&h)
}
