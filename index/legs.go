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

// textLeg ranks documents by BM25 over the stemmed title and body, with
// real average field lengths from the store's counters, field weights, and
// a coordination factor: a document's BM25 is scaled by the share of the
// query's words it contains, so documents with all the words come first.
// Any document with at least one query term matches.
func (s *search) textLeg() ([]scored, error) {
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
	if len(terms) == 0 {
		return nil, nil
	}
	avgTitle := float64(getUint(s.tx, metaTitleTokens)) / max(s.n, 1)
	avgBody := float64(getUint(s.tx, metaBodyTokens)) / max(s.n, 1)
	fields := []struct {
		name   string
		weight float64
		avg    float64
	}{{fieldTitle, s.ix.opts.TitleWeight, avgTitle}, {fieldBody, s.ix.opts.BodyWeight, avgBody}}

	acc := map[string]*textAcc{}
	var tfd bleveindex.TermFieldDoc
	for _, qt := range terms {
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
		w := idf(s.n, df)
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
				dl := 1.0
				if d.Norm > 0 {
					dl = 1 / (d.Norm * d.Norm)
				}
				a := acc[string(d.ID)]
				if a == nil {
					a = &textAcc{}
					acc[string(d.ID)] = a
				}
				a.score += f.weight * w * bm25(float64(d.Freq), dl, f.avg)
				a.leaves |= qt.leaves
			}
			r.Close()
		}
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
	}

	out := make([]scored, 0, len(acc))
	for iid, a := range acc {
		id, err := s.textR.ExternalID(bleveindex.IndexInternalID(iid))
		if err != nil {
			return nil, err
		}
		if s.filter.active && !s.keep(id) {
			continue
		}
		coord := 1.0
		if words > 1 {
			coord = float64(popcount(a.leaves)) / float64(words)
		}
		out = append(out, scored{id: id, score: a.score * coord})
	}
	sortScored(out)
	return out, nil
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
// Candidates come from intersecting the postings of the terms' trigrams
// (rarest first); every candidate is then verified against its stored,
// folded text, so the result is exact. Verification stops at the first
// occurrence of each term; a term's frequency for BM25 is estimated from
// its rarest trigram's frequency in the document (title and body
// together), plus a title bonus for a term in the title. Terms shorter
// than three characters have no trigrams: they are verified on the longer
// terms' candidates, or on every document when the query has no longer
// term (a scan).
func (s *search) substringLeg() ([]scored, error) {
	type term struct {
		text  string
		grams []int // indexes into grams
		df    float64
	}
	var terms []term
	var grams []string
	for _, l := range s.leaves {
		f := tokenize.Fold(l)
		if f == "" || slices.ContainsFunc(terms, func(t term) bool { return t.text == f }) {
			continue
		}
		t := term{text: f, df: s.n} // a short term gets the lowest idf
		if utf8.RuneCountInString(f) >= 3 {
			for _, g := range tokenize.Grams(f) {
				i := slices.Index(grams, g)
				if i < 0 {
					i = len(grams)
					grams = append(grams, g)
				}
				t.grams = append(t.grams, i)
			}
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
		title, body, err := decodeText(rest)
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		f := s.ix.fold.get(id, h.Seq, title, body)
		dl := float64(len(f.title) + len(f.body))
		score := 0.0
		for _, t := range terms {
			ct := strings.Count(f.title, t.text)
			if ct == 0 && !strings.Contains(f.body, t.text) {
				return nil
			}
			tf := float64(ct)
			switch {
			case c != nil && len(t.grams) > 0:
				tf = math.MaxFloat64
				for _, g := range t.grams {
					tf = min(tf, float64(c.freq[g]))
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

	cands, counts, err := s.candidates(grams)
	if err != nil {
		return nil, err
	}
	for i := range terms {
		if len(terms[i].grams) > 0 {
			terms[i].df = math.MaxFloat64
			for _, g := range terms[i].grams {
				terms[i].df = min(terms[i].df, counts[g])
			}
		}
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

// candidate is a document that holds every trigram of the query, with
// each trigram's frequency in it.
type candidate struct {
	id   bleveindex.IndexInternalID
	freq []uint32 // by gram index
}

// candidates intersects the postings of grams, rarest first, and returns
// the documents holding all of them and each gram's document count.
func (s *search) candidates(grams []string) ([]candidate, []float64, error) {
	readers := make([]bleveindex.TermFieldReader, len(grams))
	counts := make([]float64, len(grams))
	defer func() {
		for _, r := range readers {
			if r != nil {
				r.Close()
			}
		}
	}()
	for i, g := range grams {
		r, err := s.triR.TermFieldReader(s.ctx, []byte(g), fieldGrams, true, false, false)
		if err != nil {
			return nil, nil, err
		}
		readers[i] = r
		counts[i] = float64(r.Count())
		if r.Count() == 0 {
			return nil, counts, nil
		}
	}
	order := make([]int, len(grams))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })

	var cands []candidate
	var tfd bleveindex.TermFieldDoc
	first := readers[order[0]]
	for {
		d, err := first.Next(tfd.Reset())
		if err != nil {
			return nil, nil, err
		}
		if d == nil {
			break
		}
		c := candidate{id: slices.Clone(d.ID), freq: make([]uint32, len(grams))}
		c.freq[order[0]] = uint32(d.Freq)
		cands = append(cands, c)
	}
	for _, gi := range order[1:] {
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
				return nil, nil, err
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
	return cands, counts, nil
}
