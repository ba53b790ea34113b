package index

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/tokenize"
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

// textAcc accumulates one document's text-leg score.
type textAcc struct {
	score  float64
	leaves uint64 // bit i: the document matched leaf i
}

// textList is the text leg's ranking. Matches are kept by bleve internal
// ID; external IDs are resolved only where needed (the page shown, a tie,
// a filter), since a broad query matches thousands of documents and the
// lookup is the costliest step per match.
type textList struct {
	r     bleveindex.IndexReader
	hits  []textHit // by score descending, ties by external ID
	total int       // matches, when top dropped hits beyond the first n; else 0
}

type textHit struct {
	iid   string // bleve internal ID
	id    string // external ID, "" until resolved
	score float64
}

func (l *textList) resolve(i int) (string, error) {
	h := &l.hits[i]
	if h.id == "" {
		id, err := l.r.ExternalID(bleveindex.IndexInternalID(h.iid))
		if err != nil {
			return "", err
		}
		h.id = id
	}
	return h.id, nil
}

// byScore orders hits by score, best first, then by internal ID; ties
// are settled by external ID afterwards (settleTies).
func byScore(a, b textHit) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return strings.Compare(a.iid, b.iid)
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
	// h is a heap of the best n seen so far, worst at the root.
	h := l.hits[:0:0]
	worse := func(i, j int) bool { return byScore(h[i], h[j]) > 0 }
	down := func(i int) {
		for {
			w, c := i, 2*i+1
			if c < len(h) && worse(c, w) {
				w = c
			}
			if c+1 < len(h) && worse(c+1, w) {
				w = c + 1
			}
			if w == i {
				return
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
	for _, x := range l.hits {
		switch {
		case len(h) < n:
			h = append(h, x)
			for i := len(h) - 1; i > 0 && worse(i, (i-1)/2); i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case byScore(x, h[0]) < 0:
			h[0] = x
			down(0)
		}
	}
	// Hits tied with the n-th may belong before it once ties are broken
	// by external ID: keep every hit scoring at least as well.
	cut := h[0].score
	kept := make([]textHit, 0, n+8)
	for _, x := range l.hits {
		if x.score >= cut {
			kept = append(kept, x)
		}
	}
	slices.SortFunc(kept, byScore)
	l.total = len(l.hits)
	l.hits = kept
	if err := l.settleTies(len(kept)); err != nil {
		return err
	}
	l.hits = l.hits[:n]
	return nil
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

// positions maps internal IDs to ranks (0-based) of a fully sorted list.
func (l *textList) positions() map[string]int {
	pos := make(map[string]int, len(l.hits))
	for i, h := range l.hits {
		pos[h.iid] = i
	}
	return pos
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
// whole length, with real average lengths from the store's counters. A
// coordination factor (coordExponent) favours documents with more of the
// query's words. Any document with at least one query term matches.
func (s *search) textLeg() (*textList, error) {
	type qterm struct {
		term   string
		leaves uint64
	}
	var terms []qterm
	index := map[string]int{}
	words := 0 // leaves that analyze to at least one term
	for li, leaf := range s.leaves {
		ts := s.ix.textA.Terms(leaf)
		if len(ts) > 0 && li < 64 {
			words++
		}
		for _, t := range ts {
			i, ok := index[t]
			if !ok {
				i = len(terms)
				index[t] = i
				terms = append(terms, qterm{term: t})
			}
			if li < 64 {
				terms[i].leaves |= 1 << li
			}
		}
	}
	list := &textList{r: s.textR}
	if len(terms) == 0 {
		return list, nil
	}
	avgTitle := float64(getUint(s.tx, metaTitleTokens)) / max(s.n, 1)
	avgBody := float64(getUint(s.tx, metaBodyTokens)) / max(s.n, 1)
	fields := []struct {
		name   string
		weight float64
		avg    float64
	}{{fieldTitle, s.ix.opts.TitleWeight, avgTitle}, {fieldBody, s.ix.opts.BodyWeight, avgBody}}

	// Size the accumulators for the larger posting list of the first term,
	// a lower bound on the matches that avoids most map growth.
	hint := 0
	for _, f := range fields {
		r, err := s.textR.TermFieldReader(s.ctx, []byte(terms[0].term), f.name, false, false, false)
		if err != nil {
			return nil, err
		}
		hint = max(hint, int(r.Count()))
		r.Close()
	}
	slot := make(map[string]int32, hint) // internal ID -> index in accs
	accs := make([]textAcc, 0, hint)
	iids := make([]string, 0, hint)
	tfw := make([]float64, 0, hint*len(terms)) // weighted term frequency, by acc*len(terms)+term
	lens := make([]float64, 0, hint*2)         // field lengths seen, by acc*2+field; 0 unknown
	idfs := make([]float64, len(terms))
	var tfd bleveindex.TermFieldDoc
	for ti, qt := range terms {
		readers := make([]bleveindex.TermFieldReader, len(fields))
		df := 0.0
		for i, f := range fields {
			r, err := s.textR.TermFieldReader(s.ctx, []byte(qt.term), f.name, true, true, false)
			if err != nil {
				return nil, err
			}
			readers[i] = r
			df = max(df, float64(r.Count()))
		}
		idfs[ti] = idf(s.n, df)
		for i, r := range readers {
			f := fields[i]
			for {
				d, err := r.Next(tfd.Reset())
				if err != nil {
					r.Close()
					return nil, err
				}
				if d == nil {
					break
				}
				k, ok := slot[string(d.ID)]
				if !ok {
					k = int32(len(accs))
					iid := string(d.ID)
					slot[iid] = k
					accs = append(accs, textAcc{})
					iids = append(iids, iid)
					tfw = append(tfw, make([]float64, len(terms))...)
					lens = append(lens, 0, 0)
				}
				if d.Norm > 0 {
					lens[int(k)*2+i] = 1 / (d.Norm * d.Norm)
				}
				tfw[int(k)*len(terms)+ti] += f.weight * float64(d.Freq)
				accs[k].leaves |= qt.leaves
			}
			r.Close()
		}
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
	}
	// BM25 as FTS5 computes it with column weights: per term, the weighted
	// sum of the fields' frequencies saturates once, against the length of
	// the whole document. A field whose length no posting told is taken to
	// be of average length.
	avgDoc := avgTitle + avgBody
	for k := range accs {
		dl := 0.0
		for i, f := range fields {
			if l := lens[k*2+i]; l > 0 {
				dl += l
			} else {
				dl += f.avg
			}
		}
		for ti := range terms {
			accs[k].score += idfs[ti] * bm25(tfw[k*len(terms)+ti], dl, avgDoc)
		}
	}

	coord := make([]float64, 65)
	for m := range coord {
		coord[m] = math.Pow(float64(m)/float64(max(words, 1)), coordExponent)
	}
	list.hits = make([]textHit, 0, len(accs))
	for k, a := range accs {
		h := textHit{iid: iids[k], score: a.score}
		if words > 1 {
			h.score *= coord[popcount(a.leaves)]
		}
		if s.filter.active {
			id, err := s.textR.ExternalID(bleveindex.IndexInternalID(h.iid))
			if err != nil {
				return nil, err
			}
			if !s.keep(id) {
				continue
			}
			h.id = id
		}
		list.hits = append(list.hits, h)
	}
	return list, nil
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
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

// substringLeg finds the documents whose title or body contains every
// query term as a case- and diacritics-insensitive substring.
//
// Candidates come from intersecting trigram postings, rarest first: the
// one trigram of a three-character term, which decides it exactly, and the
// rarest few of a longer term, whose candidates are then verified against
// the stored, folded text, so the result is exact. Verification stops at
// the first occurrence of each term. A term's frequency for BM25 is
// estimated from its rarest trigram's frequency in the document (title
// and body together), plus a title bonus for a term in the title. Terms
// shorter than three characters have no trigrams: they are verified on
// the longer terms' candidates, or on every document when the query has
// no longer term (a scan).
func (s *search) substringLeg() ([]scored, error) {
	type term struct {
		text   string
		find   finder
		grams  []int // indexes into grams
		df     float64
		verify bool // the candidates do not decide it
	}
	var terms []term
	var grams []string
	for _, l := range s.leaves {
		f := tokenize.Fold(l)
		if f == "" || slices.ContainsFunc(terms, func(t term) bool { return t.text == f }) {
			continue
		}
		t := term{text: f, find: newFinder(f), df: s.n, verify: true} // a short term gets the lowest idf
		if utf8.RuneCountInString(f) >= 3 {
			for _, g := range tokenize.Grams(f) {
				i := slices.Index(grams, g)
				if i < 0 {
					i = len(grams)
					grams = append(grams, g)
				}
				t.grams = append(t.grams, i)
			}
			// A term of exactly one trigram is in the document iff the
			// trigram is, unless it could span the title/body joint.
			t.verify = len(t.grams) > 1 || strings.Contains(f, "\n")
		}
		terms = append(terms, t)
	}
	avgTitle := float64(getUint(s.tx, metaTitleBytes)) / max(s.n, 1)
	avgAll := avgTitle + float64(getUint(s.tx, metaBodyBytes))/max(s.n, 1)

	out := []scored{}
	// verify checks a candidate; c is nil for a scanned document.
	verify := func(id string, rec []byte, c *candidate) error {
		if s.filter.active && !s.filter.matchID(id) {
			return nil
		}
		h, rest, err := decodeHeader(rec)
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		if s.filter.byHeader && !s.filter.matchHeader(&h) {
			return nil
		}
		f, err := s.ix.fold.get(id, h.Seq, func() ([]byte, []byte, error) { return decodeText(rest) })
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		dl := float64(len(f.title) + len(f.body))
		score := 0.0
		for _, t := range terms {
			ct := strings.Count(f.title, t.text)
			if ct == 0 && (c == nil || t.verify) && !t.find.in(f.body) {
				return nil
			}
			tf := float64(ct)
			switch {
			case c != nil && len(t.grams) > 0:
				tf = math.MaxFloat64
				for _, g := range t.grams {
					if c.freq[g] > 0 {
						tf = min(tf, float64(c.freq[g]))
					}
				}
			case c == nil:
				tf += float64(strings.Count(f.body, t.text))
			default:
				tf = max(tf, 1)
			}
			w := idf(s.n, t.df)
			score += w * (s.ix.opts.BodyWeight*bm25(tf, dl, avgAll) + s.ix.opts.TitleWeight*bm25(float64(ct), float64(len(f.title)), avgTitle))
		}
		out = append(out, scored{id: id, score: score})
		return nil
	}

	if len(grams) == 0 {
		err := s.tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			return verify(string(k), v, nil)
		})
		if err != nil {
			return nil, err
		}
		sortScored(out)
		return out, nil
	}

	counts, err := s.gramCounts(grams)
	if err != nil {
		return nil, err
	}
	var use []int // the grams to intersect
	for i := range terms {
		t := &terms[i]
		if len(t.grams) == 0 {
			continue
		}
		slices.SortFunc(t.grams, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })
		t.df = counts[t.grams[0]]
		for _, g := range t.grams[:min(len(t.grams), 3)] {
			if !slices.Contains(use, g) {
				use = append(use, g)
			}
		}
	}
	// Verify the rarest terms first: most false candidates fail early.
	slices.SortStableFunc(terms, func(a, b term) int { return cmp.Compare(a.df, b.df) })
	cands, err := s.candidates(grams, use, counts)
	if err != nil {
		return nil, err
	}
	for i := range cands {
		if i%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
		id, err := s.triR.ExternalID(cands[i].id)
		if err != nil {
			return nil, err
		}
		rec := s.tx.Get(bucketDocs, []byte(id))
		if rec == nil {
			continue // drift between an index and the store is Check's to report
		}
		if err := verify(id, rec, &cands[i]); err != nil {
			return nil, err
		}
	}
	sortScored(out)
	return out, nil
}

// gramCounts returns how many documents hold each gram.
func (s *search) gramCounts(grams []string) ([]float64, error) {
	counts := make([]float64, len(grams))
	for i, g := range grams {
		r, err := s.triR.TermFieldReader(s.ctx, []byte(g), fieldGrams, false, false, false)
		if err != nil {
			return nil, err
		}
		counts[i] = float64(r.Count())
		r.Close()
	}
	return counts, nil
}

// candidate is a document that holds every trigram of the query, with
// each trigram's frequency in it.
type candidate struct {
	id   bleveindex.IndexInternalID
	freq []uint32 // by gram index
}

// candidates intersects the postings of the grams in use, rarest first,
// and returns the documents holding all of them, with each gram's
// frequency in each.
func (s *search) candidates(grams []string, use []int, counts []float64) ([]candidate, error) {
	slices.SortFunc(use, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })
	if len(use) == 0 || counts[use[0]] == 0 {
		return nil, nil
	}
	readers := make([]bleveindex.TermFieldReader, len(grams))
	defer func() {
		for _, r := range readers {
			if r != nil {
				r.Close()
			}
		}
	}()
	for _, g := range use {
		r, err := s.triR.TermFieldReader(s.ctx, []byte(grams[g]), fieldGrams, true, false, false)
		if err != nil {
			return nil, err
		}
		readers[g] = r
	}

	var cands []candidate
	var tfd bleveindex.TermFieldDoc
	first := readers[use[0]]
	for {
		d, err := first.Next(tfd.Reset())
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		c := candidate{id: slices.Clone(d.ID), freq: make([]uint32, len(grams))}
		c.freq[use[0]] = uint32(d.Freq)
		cands = append(cands, c)
	}
	for _, gi := range use[1:] {
		r := readers[gi]
		kept := cands[:0]
		// Advance never moves backwards (scorch reopens the reader for
		// that), so a candidate at or before the reader's position is
		// decided by comparing with that position.
		var cur bleveindex.IndexInternalID
		var curFreq uint64
		for _, c := range cands {
			if cur != nil {
				if c.id.Compare(cur) < 0 {
					continue
				}
				if c.id.Equals(cur) {
					c.freq[gi] = uint32(curFreq)
					kept = append(kept, c)
					continue
				}
			}
			d, err := r.Advance(c.id, tfd.Reset())
			if err != nil {
				return nil, err
			}
			if d == nil {
				break
			}
			cur, curFreq = append(cur[:0], d.ID...), d.Freq
			if d.ID.Equals(c.id) {
				c.freq[gi] = uint32(d.Freq)
				kept = append(kept, c)
			}
		}
		cands = kept
		if len(cands) == 0 {
			break
		}
	}
	return cands, nil
}
