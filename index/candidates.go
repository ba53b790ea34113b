package index

import (
	"cmp"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/query"
)

// candidateSet returns the documents that may match the tree under n, by
// their trigrams, or all when the tree constrains nothing (a scan).
func (s *search) candidateSet(n query.Node, byLeaf map[*leaf]*sleaf, grams []string, counts []float64) ([]candidate, bool, error) {
	var children []query.Node
	switch n := n.(type) {
	case *query.And:
		children = n.Children
	case *query.Near:
		children = n.Children
	case *query.Or:
		var union []candidate
		for _, c := range n.Children {
			set, all, err := s.candidateSet(c, byLeaf, grams, counts)
			if err != nil || all {
				return nil, all, err
			}
			union = unite(union, set)
		}
		return union, false, nil
	case *query.Not:
		return nil, true, nil
	default:
		children = []query.Node{n}
	}
	// The leaves of an AND (or NEAR) are intersected in one pass, the
	// other branches each on their own and then intersected.
	var use []int
	var sets [][]candidate
	for _, c := range children {
		switch c.(type) {
		case *query.Term, *query.Phrase, *query.Prefix:
			sl := byLeaf[s.plan.byNode[c]]
			for _, g := range sl.grams[:min(len(sl.grams), 3)] {
				if !slices.Contains(use, g) {
					use = append(use, g)
				}
			}
		default:
			set, all, err := s.candidateSet(c, byLeaf, grams, counts)
			if err != nil {
				return nil, false, err
			}
			if !all {
				sets = append(sets, set)
			}
		}
	}
	if len(use) > 0 {
		set, err := s.candidates(grams, use, counts)
		if err != nil {
			return nil, false, err
		}
		sets = append(sets, set)
	}
	if len(sets) == 0 {
		return nil, true, nil
	}
	out := sets[0]
	for _, set := range sets[1:] {
		out = intersect(out, set)
	}
	return out, false, nil
}

// unite merges two candidate lists sorted by ID.
func unite(a, b []candidate) []candidate {
	out := make([]candidate, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch c := a[0].id.Compare(b[0].id); {
		case c < 0:
			out, a = append(out, a[0]), a[1:]
		case c > 0:
			out, b = append(out, b[0]), b[1:]
		default:
			out = append(out, merged(a[0], b[0]))
			a, b = a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// intersect keeps the candidates in both lists sorted by ID.
func intersect(a, b []candidate) []candidate {
	var out []candidate
	for len(a) > 0 && len(b) > 0 {
		switch c := a[0].id.Compare(b[0].id); {
		case c < 0:
			a = a[1:]
		case c > 0:
			b = b[1:]
		default:
			out = append(out, merged(a[0], b[0]))
			a, b = a[1:], b[1:]
		}
	}
	return out
}

func merged(a, b candidate) candidate {
	for i, f := range b.freq {
		a.freq[i] = max(a.freq[i], f)
	}
	return a
}

// gramCounts returns how many documents hold each gram.
func (s *search) gramCounts(grams []string) ([]float64, error) {
	counts := make([]float64, len(grams))
	for i, g := range grams {
		if n, ok := s.g.gram(g); ok {
			counts[i] = float64(n)
			continue
		}
		if err := s.missing("trigram %q", g); err != nil {
			return nil, err
		}
		r, err := s.triR.TermFieldReader(s.ctx, []byte(g), fieldGrams, false, false, false)
		if err != nil {
			return nil, err
		}
		counts[i] = float64(r.Count())
		r.Close()
		s.rec.putGram(g, r.Count())
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
		var err error
		if counts[gi] <= mergeRatio*float64(len(cands)) {
			cands, err = mergeNext(readers[gi], gi, cands)
		} else {
			cands, err = mergeAdvance(readers[gi], gi, cands)
		}
		if err != nil {
			return nil, err
		}
		if len(cands) == 0 {
			break
		}
	}
	return cands, nil
}

// mergeRatio is how many postings per candidate a gram may have for its
// list to be read through rather than advanced along: an Advance seeks
// the index afresh, a Next steps to the neighbouring row, so reading
// through wins while lists are within a small multiple of the candidates
// (measured in wasm under node; DESIGN.md).
const mergeRatio = 8

// mergeNext keeps the candidates (sorted by ID) that the reader's
// postings hold, reading every posting, and records the gram's frequency
// in them as gram gi.
func mergeNext(r bleveindex.TermFieldReader, gi int, cands []candidate) ([]candidate, error) {
	var tfd bleveindex.TermFieldDoc
	kept := cands[:0]
	d, err := r.Next(tfd.Reset())
	for _, c := range cands {
		for err == nil && d != nil && d.ID.Compare(c.id) < 0 {
			d, err = r.Next(tfd.Reset())
		}
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		if d.ID.Equals(c.id) {
			c.freq[gi] = uint32(d.Freq)
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// mergeAdvance is mergeNext for a reader with many more postings than
// there are candidates: it advances to each candidate instead.
func mergeAdvance(r bleveindex.TermFieldReader, gi int, cands []candidate) ([]candidate, error) {
	var tfd bleveindex.TermFieldDoc
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
	return kept, nil
}
