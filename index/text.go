package index

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/slots"
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
// simple syntax any document with one of the query's words matches (a
// word of parts, such as ReadFile, when one field holds it whole or all
// its parts: conjunctions) and a coordination factor (coordExponent)
// favours documents with more of the query's words; in raw syntax a
// document must satisfy the query's tree.
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
	conj := s.conjunctions(tp)
	list.unknown = s.unknownWords(tp, readers, conj)
	slot, t := s.newTextTally(tp, hint)
	if need := s.pruneDepth(tp, tol, conj); need > 0 {
		if done, err := s.pruned(list, tp, readers, idfs, slot, t, need); done || err != nil {
			return list, err
		}
	}
	var tfd bleveindex.TermFieldDoc
	// The words of several parts that the backend finds from its posting
	// bitmaps are matched first (conjHolders); the other terms that score
	// create matches, but for the parts of a word that its rarest part
	// finds (creators); the others, those only under a NOT, and those
	// feedback added, are read afterwards, onto the matches there are.
	byHolders, err := s.conjHolders(tp, conj, readers, slot, t)
	if err != nil {
		return nil, err
	}
	creates := creators(tp, conj, readers, byHolders)
	if s.ix.opts.noSeek {
		for ti := range creates {
			creates[ti] = true
		}
	}
	counted, err := s.countSets(tp, readers, creates)
	if err != nil {
		return nil, err
	}
	var onto *seeker
	for _, pass := range []bool{true, false} {
		for ti, qt := range terms {
			if (qt.Positive && !qt.Added && creates[ti]) != pass {
				continue
			}
			for _, rd := range readers[ti] {
				if !pass && !s.ix.opts.noSeek && rd.r.Count() > seekRatio*uint64(len(t.Docs())) {
					if onto == nil {
						onto = newSeeker(slot, len(t.Docs()))
					}
					if err := onto.record(rd, ti, t, &tfd); err != nil {
						return nil, err
					}
					continue
				}
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
			here, ok := counted[ti]
			if !ok {
				here = t.Matches(ti)
			}
			df, err := s.setDocs(qt, here)
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
	// The exact terms' bits in one column, to judge a word of parts by
	// them alone: nil when every term is exact.
	var exact, scratch []uint64
	if tol != nil && len(conj) > 0 {
		exact, scratch = make([]uint64, nw), make([]uint64, nw)
		for ti, qt := range terms {
			if !qt.Tolerant {
				exact[ti/64] |= 1 << (ti % 64)
			}
		}
	}
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
		for _, c := range conj {
			if a.Leaves&c.bit != 0 && !c.holds(p, nil, nil, nw) {
				a.Leaves &^= c.bit
			}
			if a.ExactLeaves&c.bit != 0 && !c.holds(p, exact, scratch, nw) {
				a.ExactLeaves &^= c.bit
			}
		}
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

// unknownWords returns the word leaves (bits of the plan's leaves) that
// no document holds, for the fallback: a word none of whose terms is
// indexed, or a word of parts with a part that is in no document (the
// flie of ReadFlie), which it asks for. On a shard with the collection's
// statistics, no document of the collection: its parts may be on two
// shards.
func (s *search) unknownWords(tp *plan.Text, readers [][]termReader, conj []conjLeaf) uint64 {
	var known uint64
	anywhere := make([]uint64, (len(tp.Terms)+63)/64)
	for ti, rs := range readers {
		qt := &tp.Terms[ti]
		if !qt.Positive || qt.Tolerant {
			continue
		}
		held, ok := s.collectionHolds(qt)
		if !ok {
			held = slices.ContainsFunc(rs, func(rd termReader) bool { return rd.r.Count() > 0 })
		}
		if held {
			known |= qt.Leaves
			anywhere[ti/64] |= 1 << (ti % 64)
		}
	}
	for _, c := range conj {
		if !c.tl.Holds(anywhere) {
			known &^= c.bit
		}
	}
	return tp.WordLeaves &^ known
}

// collectionHolds reports whether some document of the collection holds
// a term of qt, with ok false when the search has no collection's
// statistics of it.
func (s *search) collectionHolds(qt *plan.Term) (held, ok bool) {
	if s.g == nil {
		return false, false
	}
	if qt.Single {
		c, ok := s.g.LookupTerm(qt.Dict[0])
		return c != [3]uint64{}, ok
	}
	n, ok := s.g.Sets[collection.ListKey(qt.Dict)]
	return n > 0, ok
}

// seekRatio is how many times longer than the matches a posting list
// read onto them is sought through (a seek per match) rather than read
// to its end.
const seekRatio = 4

// seeker reads posting lists onto a fixed set of matches by seeking to
// each: the matches in internal ID order, which is the order of every
// backend's posting lists (scorch's and the compact backend's doc
// numbers, 8 bytes big-endian; upsidedown's external IDs).
type seeker struct {
	ids   []string
	slots []int32
	buf   []byte
}

func newSeeker(slot *slots.Table, n int) *seeker {
	slot.Freeze()
	order := make([]int32, n)
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(slot.ID(a), slot.ID(b)) })
	sk := &seeker{ids: make([]string, n), slots: order}
	for i, k := range order {
		sk.ids[i] = slot.ID(k)
	}
	return sk
}

// record records term ti's postings in rd that are of the matches.
// Cost: a seek per match at most.
func (sk *seeker) record(rd termReader, ti int, t *rank.Tally, tfd *bleveindex.TermFieldDoc) error {
	if len(sk.ids) == 0 {
		return nil
	}
	sk.buf = append(sk.buf[:0], sk.ids[0]...)
	d, err := rd.r.Advance(sk.buf, tfd.Reset())
	for i := 0; err == nil && d != nil; {
		i += sort.Search(len(sk.ids)-i, func(j int) bool { return sk.ids[i+j] >= string(d.ID) })
		if i == len(sk.ids) {
			return nil
		}
		if sk.ids[i] == string(d.ID) {
			t.Record(sk.slots[i], ti, rd.field, d)
			if i++; i == len(sk.ids) {
				return nil
			}
		}
		sk.buf = append(sk.buf[:0], sk.ids[i]...)
		d, err = rd.r.Advance(sk.buf, tfd.Reset())
	}
	return err
}

// countSets counts the documents holding any word of each set of words
// (completions, typos) that creates no matches, since its idf is of all
// of them and the walk reads its lists only for the matches: counted by
// the backend without reading postings (backend.UnionCounts), by term.
// Where the backend cannot count (any but scorch), those sets create
// matches after all, and the walk counts them.
func (s *search) countSets(tp *plan.Text, readers [][]termReader, creates []bool) (map[int]float64, error) {
	var which []int
	var sets []backend.Union
	fields := s.ix.opts.textFields()
	for ti, qt := range tp.Terms {
		if qt.Single || creates[ti] || !qt.Positive || qt.Added {
			continue
		}
		if _, ok := s.collectionHolds(&tp.Terms[ti]); ok {
			continue // a shard's: the collection's count (setDocs)
		}
		u := backend.Union{Alone: true}
		for _, rd := range readers[ti] {
			u.Terms = append(u.Terms, backend.FieldTerm{Field: fields[rd.field].Name, Term: rd.term})
		}
		which, sets = append(which, ti), append(sets, u)
	}
	if len(which) == 0 {
		return nil, nil
	}
	each, _, ok, err := backend.UnionCounts(s.textR, sets)
	if err != nil || !ok {
		for _, ti := range which {
			creates[ti] = true
		}
		return nil, err
	}
	counted := make(map[int]float64, len(which))
	for i, ti := range which {
		counted[ti] = float64(each[i])
	}
	return counted, nil
}
