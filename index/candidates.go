package index

import (
	"cmp"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/query"
)

// candidateSet returns the documents that may match the tree under n, by
// their trigrams, or all when the tree constrains nothing (a scan).
func (s *search) candidateSet(n query.Node, byLeaf map[*plan.Leaf]*sleaf, grams []string, counts []float64) ([]candidate, bool, error) {
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
			sl := byLeaf[s.plan.ByNode[c]]
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

	// The rarest gram's postings are the candidates. Their IDs and
	// frequencies go to two arenas, sliced once the arenas stop growing:
	// a query of one common letter has a candidate for most documents.
	var ids []byte
	var idEnds []int
	var freqs []uint32
	var tfd bleveindex.TermFieldDoc
	first := readers[use[0]]
	if n := int(min(first.Count(), 1<<20)); n > 0 {
		ids, idEnds, freqs = make([]byte, 0, 8*n), make([]int, 0, n), make([]uint32, 0, n*len(grams))
	}
	for {
		d, err := first.Next(tfd.Reset())
		if err != nil {
			return nil, err
		}
		if d == nil {
			break
		}
		ids = append(ids, d.ID...)
		idEnds = append(idEnds, len(ids))
		at := len(freqs)
		freqs = append(freqs, make([]uint32, len(grams))...)
		freqs[at+use[0]] = uint32(d.Freq)
	}
	cands := make([]candidate, len(idEnds))
	start := 0
	for i, end := range idEnds {
		f := freqs[i*len(grams) : (i+1)*len(grams) : (i+1)*len(grams)]
		cands[i] = candidate{id: ids[start:end:end], freq: f}
		start = end
	}
	for _, gi := range use[1:] {
		kept := 0
		err := visitPostings(readers[gi], cands, counts[gi], func(i int, d *bleveindex.TermFieldDoc) {
			c := cands[i]
			c.freq[gi] = uint32(d.Freq)
			cands[kept] = c
			kept++
		})
		if err != nil {
			return nil, err
		}
		if cands = cands[:kept]; len(cands) == 0 {
			break
		}
	}
	return cands, nil
}

// mergeRatio is how many postings per candidate a list may have to be
// read through rather than advanced along: an Advance seeks the index
// afresh, a Next steps to the neighbouring row, so reading through wins
// while lists are within a small multiple of the candidates (measured in
// wasm under node; DESIGN.md).
const mergeRatio = 8

// visitPostings calls fn, in order, with the index of each candidate
// (sorted by ID) that r's postings hold, and the posting; count is r's
// number of postings. fn may overwrite the candidates up to the one it is
// given.
func visitPostings(r bleveindex.TermFieldReader, cands []candidate, count float64, fn func(int, *bleveindex.TermFieldDoc)) error {
	var tfd bleveindex.TermFieldDoc
	if count <= mergeRatio*float64(len(cands)) {
		d, err := r.Next(tfd.Reset())
		for i := range cands {
			id := cands[i].id
			for err == nil && d != nil && d.ID.Compare(id) < 0 {
				d, err = r.Next(tfd.Reset())
			}
			if err != nil || d == nil {
				return err
			}
			if d.ID.Equals(id) {
				fn(i, d)
			}
		}
		return nil
	}
	// Advance never moves backwards (scorch reopens the reader for
	// that), so a candidate at or before the reader's position is decided
	// by comparing with that position.
	var cur *bleveindex.TermFieldDoc
	for i := range cands {
		id := cands[i].id
		if cur != nil {
			if c := id.Compare(cur.ID); c <= 0 {
				if c == 0 {
					fn(i, cur)
				}
				continue
			}
		}
		d, err := r.Advance(id, tfd.Reset())
		if err != nil || d == nil {
			return err
		}
		cur = d
		if d.ID.Equals(id) {
			fn(i, d)
		}
	}
	return nil
}
