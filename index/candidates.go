package index

import (
	"slices"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/query"
)

// candidateSet returns the documents that may match the tree under n, by
// their trigrams, or all when the tree constrains nothing (a scan).
func (s *search) candidateSet(n query.Node, byLeaf map[*plan.Leaf]*sleaf, tris []string, counts []float64) ([]grams.Candidate, bool, error) {
	var children []query.Node
	switch n := n.(type) {
	case *query.And:
		children = n.Children
	case *query.Near:
		children = n.Children
	case *query.Or:
		var union []grams.Candidate
		for _, c := range n.Children {
			set, all, err := s.candidateSet(c, byLeaf, tris, counts)
			if err != nil || all {
				return nil, all, err
			}
			union = grams.Unite(union, set)
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
	var sets [][]grams.Candidate
	for _, c := range children {
		switch c.(type) {
		case *query.Term, *query.Phrase, *query.Prefix:
			sl := byLeaf[s.plan.ByNode[c]]
			for _, g := range sl.Grams[:min(len(sl.Grams), 3)] {
				if !slices.Contains(use, g) {
					use = append(use, g)
				}
			}
		default:
			set, all, err := s.candidateSet(c, byLeaf, tris, counts)
			if err != nil {
				return nil, false, err
			}
			if !all {
				sets = append(sets, set)
			}
		}
	}
	if len(use) > 0 {
		set, err := grams.Postings(s.ctx, s.triR, fieldGrams, tris, use, counts, &s.cands, backend.EachPosting)
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
		out = grams.Intersect(out, set)
	}
	return out, false, nil
}

// gramCounts returns how many documents hold each gram.
func (s *search) gramCounts(tris []string) ([]float64, error) {
	counts := make([]float64, len(tris))
	for i, g := range tris {
		if n, ok := s.g.LookupGram(g); ok {
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
		s.rec.PutGram(g, r.Count())
	}
	return counts, nil
}
