package index

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/slots"
)

// BM25 parameters of both legs.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// coordExponent scales a text-leg score by (matched words / query
// words)^coordExponent: a document missing some of the words is demoted,
// not excluded. Measured on SciFact (nDCG@10, text mode): 0 gives 0.706,
// 0.25 gives 0.709, 1 gives 0.681.
const coordExponent = 0.25

func idf(n, df float64) float64 {
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

func bm25(tf, dl, avgdl float64) float64 {
	if tf == 0 {
		return 0
	}
	if avgdl <= 0 {
		avgdl = 1
	}
	return tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
}

// docScore accumulates one document's text-leg score: over all terms and
// over the exact ones (not a tolerant pass's expansions).
type docScore struct {
	score, exact        float64
	leaves, exactLeaves uint64 // bit i: the document matched leaf i
	declares            bool   // it has postings in the symbols field
}

// textList is the text leg's ranking. Matches are kept by bleve internal
// ID; external IDs are resolved only where needed (the page shown, a tie,
// a filter), since a broad query matches thousands of documents and the
// lookup is the costliest step per match.
type textList struct {
	r     bleveindex.IndexReader
	hits  []textHit // by score descending, ties by external ID
	total int       // matches, when top dropped hits beyond the first n; else 0
	// slot maps internal IDs to accumulators, shared by the lists of one
	// pass; byAcc maps accumulators to indexes in hits, built on first
	// use by hitIndex.
	slot  *slots.Table
	byAcc []int32
	// unknown: bit i, word leaf i of the query is in no document (the
	// fallback then runs).
	unknown uint64
	plan    *textPlan // the terms it was ranked by
}

// leg names the leg of hit p in a fused hit: LegFuzzy when the tolerant
// pass matched some word of it only approximately.
func (l *textList) leg(p int) string {
	if l.hits[p].approx {
		return LegFuzzy
	}
	return LegText
}

type textHit struct {
	id     string // external ID, "" until resolved
	score  float64
	acc    int32 // the document's accumulator in the text leg: its slot
	approx bool  // the tolerant pass matched some word of it only approximately
}

// iid returns a hit's bleve internal ID.
func (l *textList) iid(h *textHit) string { return l.slot.ID(h.acc) }

func (l *textList) resolve(i int) (string, error) {
	h := &l.hits[i]
	if h.id == "" {
		id, err := l.r.ExternalID(bleveindex.IndexInternalID(l.iid(h)))
		if err != nil {
			return "", err
		}
		h.id = id
	}
	return h.id, nil
}

// byScore orders hits by score, best first, then by slot; ties are
// settled by external ID afterwards (settleTies).
func byScore(a, b textHit) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return cmp.Compare(a.acc, b.acc)
}

// sort orders all hits by score and breaks ties by external ID, resolving
// only the IDs of tied hits.
func (l *textList) sort() error {
	slices.SortFunc(l.hits, byScore)
	return l.settleTies(len(l.hits))
}

// top orders only the first n hits (by score, ties by external ID) and
// drops the rest from l.hits, keeping their number: O(len · log n).
func (l *textList) top(n int) error {
	if n >= len(l.hits) {
		return l.sort()
	}
	// Hits tied with the n-th may belong before it once ties are broken
	// by external ID: keep every hit scoring at least as well.
	best := l.best(n)
	kept := make([]textHit, len(best))
	for i, p := range best {
		kept[i] = l.hits[p]
	}
	l.total = len(l.hits)
	l.hits = kept
	if err := l.settleTies(len(kept)); err != nil {
		return err
	}
	l.hits = l.hits[:n]
	return nil
}

// cutoff returns the n-th best score (n >= 1), or the lowest when there
// are fewer hits: O(len · log n).
func (l *textList) cutoff(n int) float64 {
	// h is a min-heap of the best n scores seen so far.
	h := make([]float64, 0, n)
	for _, x := range l.hits {
		switch {
		case len(h) < n:
			h = append(h, x.score)
			for i := len(h) - 1; i > 0 && h[i] < h[(i-1)/2]; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case x.score > h[0]:
			h[0] = x.score
			for i := 0; ; {
				w, c := i, 2*i+1
				if c < len(h) && h[c] < h[w] {
					w = c
				}
				if c+1 < len(h) && h[c+1] < h[w] {
					w = c + 1
				}
				if w == i {
					break
				}
				h[i], h[w] = h[w], h[i]
				i = w
			}
		}
	}
	if len(h) == 0 {
		return 0
	}
	return h[0]
}

// best returns the indexes of the n best hits and of every hit tied with
// the n-th, ordered by score (ties by slot), leaving l.hits as it is.
func (l *textList) best(n int) []int {
	if n <= 0 || len(l.hits) == 0 {
		return nil
	}
	cut := l.cutoff(n)
	var out []int
	for i, x := range l.hits {
		if x.score >= cut {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return byScore(l.hits[a], l.hits[b]) })
	return out
}

// ranker returns the 1-based rank that a score of the list has (ties
// share the rank of the first of them), for about lookups calls: by
// counting higher scores when they are few, else by binary search in the
// sorted scores.
func (l *textList) ranker(lookups int) func(score float64) int {
	if lookups <= 16 {
		return func(score float64) int {
			r := 1
			for _, x := range l.hits {
				if x.score > score {
					r++
				}
			}
			return r
		}
	}
	desc := l.scores()
	slices.SortFunc(desc, func(a, b float64) int { return cmp.Compare(b, a) })
	return func(score float64) int {
		// The first position holding a score not above it.
		i, _ := slices.BinarySearchFunc(desc, score, func(x, t float64) int { return cmp.Compare(t, x) })
		return i + 1
	}
}

// settleTies sorts each run of equal scores among the first n hits by
// external ID.
func (l *textList) settleTies(n int) error {
	for i := 0; i < n; {
		j := i + 1
		for j < len(l.hits) && l.hits[j].score == l.hits[i].score {
			j++
		}
		if j-i > 1 {
			for k := i; k < j; k++ {
				if _, err := l.resolve(k); err != nil {
					return err
				}
			}
			slices.SortFunc(l.hits[i:j], func(a, b textHit) int { return strings.Compare(a.id, b.id) })
		}
		i = j
	}
	return nil
}

// hitIndex returns the index in l.hits of the document with internal ID
// iid, or false. It reuses the text leg's map of matches instead of
// building another one per search.
func (l *textList) hitIndex(iid []byte) (int, bool) {
	if l.slot == nil {
		return 0, false // no term to match
	}
	k, ok := l.slot.Get(iid)
	if !ok {
		return 0, false
	}
	if l.byAcc == nil {
		l.byAcc = make([]int32, l.slot.Len())
		for i := range l.byAcc {
			l.byAcc[i] = -1
		}
		for p, h := range l.hits {
			l.byAcc[h.acc] = int32(p)
		}
	}
	p := l.byAcc[k]
	return int(p), p >= 0
}

// scores returns the hits' scores, in order.
func (l *textList) scores() []float64 {
	out := make([]float64, len(l.hits))
	for i, h := range l.hits {
		out[i] = h.score
	}
	return out
}

// count is the number of matching documents.
func (l *textList) count() int {
	if l.total > 0 {
		return l.total
	}
	return len(l.hits)
}

// textLeg returns the documents matching the text leg, scored but not
// sorted: the caller sorts all of them (sort) or only the first few (top).
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
	terms := tp.terms
	list := &textList{r: s.textR, plan: tp}
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
		if qt := &terms[ti]; qt.positive && !qt.tolerant {
			for _, rd := range rs {
				if rd.r.Count() > 0 {
					known |= qt.leaves
				}
			}
		}
	}
	list.unknown = tp.wordLeaves &^ known
	a := s.newTextTally(tp, hint)
	var tfd bleveindex.TermFieldDoc
	// Terms that score create matches; those only under a NOT, and those
	// feedback added, are read afterwards, onto the matches there are.
	for _, pass := range []bool{true, false} {
		for ti, qt := range terms {
			if (qt.positive && !qt.added) != pass {
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
					k, ok := a.slot.Get(d.ID)
					if !ok {
						if !pass {
							continue
						}
						k = a.add(d.ID)
					}
					a.record(k, ti, rd.field, d)
				}
			}
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	for ti, qt := range terms {
		if !qt.single {
			df, err := s.setDocs(qt, a.df[ti])
			if err != nil {
				return nil, err
			}
			idfs[ti] = idf(s.n, df)
		}
	}
	if s.rec != nil {
		return list, nil // a shard gathering statistics needs no more
	}
	for k := range a.accs {
		a.score(k, idfs)
	}
	slot, accs, pres, nw := a.slot, a.accs, a.pres, a.nw
	if s.req.Explain {
		s.explained = &tallied{a, idfs}
	}

	coord := make([]float64, 65)
	for m := range coord {
		coord[m] = math.Pow(float64(m)/float64(max(tp.words, 1)), coordExponent)
	}
	positional := s.plan.strict && tp.positional()
	// The exact terms' bits, to judge a strict tree without expansions.
	var mask []uint64
	if tol != nil && s.plan.strict {
		mask = make([]uint64, 2*nw)
		for ti, qt := range terms {
			if !qt.tolerant {
				mask[ti/64] |= 1 << (ti % 64)
				mask[nw+ti/64] |= 1 << (ti % 64)
			}
		}
	}
	slot.Freeze()
	list.slot = slot
	masked := make([]uint64, 2*nw)
	list.hits = make([]textHit, 0, len(accs))
	for k, a := range accs {
		iid := slot.ID(int32(k))
		var id string
		if s.filter.active || positional {
			var err error
			if id, err = s.textR.ExternalID(bleveindex.IndexInternalID(iid)); err != nil {
				return nil, err
			}
			if s.filter.active && !s.keep(id) {
				continue
			}
		}
		p := pres[k*2*nw : (k+1)*2*nw]
		isExact := a.exactLeaves != 0
		if len(tp.required) > 0 && (isExact || tol != nil) {
			// Every match holds the quoted phrases, exactly (their
			// words have no expansions).
			ok, err := s.phrasesIn(tp, &id, iid, p, nw)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		if s.plan.strict {
			if mask != nil {
				for i := range masked {
					masked[i] = p[i] & mask[i]
				}
				p = masked
			}
			ok, err := s.textMatch(tp, id, p, nw)
			if err != nil {
				return nil, err
			}
			isExact = ok
		}
		if tol == nil {
			if isExact {
				h := textHit{id: id, score: a.exact, acc: int32(k)}
				if !s.plan.strict && tp.words > 1 {
					h.score *= coord[bits.OnesCount64(a.exactLeaves)]
				}
				list.hits = append(list.hits, h)
			}
			continue
		}
		if !isExact {
			ok := bits.OnesCount64(a.leaves) >= min(tp.words, 64)
			if s.plan.strict {
				var err error
				if ok, err = s.textMatch(tp, id, pres[k*2*nw:(k+1)*2*nw], nw); err != nil {
					return nil, err
				}
			}
			if !ok {
				continue
			}
		}
		h := textHit{id: id, score: a.score, acc: int32(k), approx: !isExact || a.leaves&^a.exactLeaves != 0}
		if !s.plan.strict && tp.words > 1 {
			h.score *= coord[bits.OnesCount64(a.leaves)]
		}
		list.hits = append(list.hits, h)
	}
	return list, nil
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
	return err == nil && s.filter.matchHeader(&h)
}
