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
