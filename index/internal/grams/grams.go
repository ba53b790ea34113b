// Package grams reads the trigram postings of a bleve index into
// candidate lists: the documents that hold every trigram of a substring,
// with each trigram's frequency, which the substring leg then verifies
// against the documents' text.
//
// Invariants: a candidate list is sorted by internal document ID, and a
// Candidate's Freq has one entry per gram of the query (zero for a gram
// not read). Functions use the bleve readers they are given from the
// calling goroutine only, as bleve requires.
package grams

import (
	"cmp"
	"context"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Candidate is a document that holds every trigram of the query, with
// each trigram's frequency in it.
type Candidate struct {
	ID   bleveindex.IndexInternalID
	Freq []uint32 // by gram index
}

// Postings intersects the postings in field of r of the grams in use
// (indexes into grams, whose document counts are counts), rarest first,
// and returns the documents holding all of them, with each gram's
// frequency in each.
//
// Cost: one pass over the rarest gram's postings, and for each other
// gram a read through its postings or a seek per candidate (Visit).
func Postings(ctx context.Context, r bleveindex.IndexReader, field string, grams []string, use []int, counts []float64) ([]Candidate, error) {
	slices.SortFunc(use, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })
	if len(use) == 0 || counts[use[0]] == 0 {
		return nil, nil
	}
	readers := make([]bleveindex.TermFieldReader, len(grams))
	defer func() {
		for _, tr := range readers {
			if tr != nil {
				tr.Close()
			}
		}
	}()
	for _, g := range use {
		tr, err := r.TermFieldReader(ctx, []byte(grams[g]), field, true, false, false)
		if err != nil {
			return nil, err
		}
		readers[g] = tr
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
	cands := make([]Candidate, len(idEnds))
	start := 0
	for i, end := range idEnds {
		f := freqs[i*len(grams) : (i+1)*len(grams) : (i+1)*len(grams)]
		cands[i] = Candidate{ID: ids[start:end:end], Freq: f}
		start = end
	}
	for _, gi := range use[1:] {
		kept := 0
		err := Visit(readers[gi], cands, counts[gi], func(i int, d *bleveindex.TermFieldDoc) {
			c := cands[i]
			c.Freq[gi] = uint32(d.Freq)
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

// Unite merges two candidate lists sorted by ID.
func Unite(a, b []Candidate) []Candidate {
	out := make([]Candidate, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch c := a[0].ID.Compare(b[0].ID); {
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

// Intersect keeps the candidates in both lists sorted by ID.
func Intersect(a, b []Candidate) []Candidate {
	var out []Candidate
	for len(a) > 0 && len(b) > 0 {
		switch c := a[0].ID.Compare(b[0].ID); {
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

func merged(a, b Candidate) Candidate {
	for i, f := range b.Freq {
		a.Freq[i] = max(a.Freq[i], f)
	}
	return a
}

// mergeRatio is how many postings per candidate a list may have to be
// read through rather than advanced along: an Advance seeks the index
// afresh, a Next steps to the neighbouring row, so reading through wins
// while lists are within a small multiple of the candidates (measured in
// wasm under node; DESIGN.md).
const mergeRatio = 8

// Visit calls fn, in order, with the index of each candidate
// (sorted by ID) that r's postings hold, and the posting; count is r's
// number of postings. fn may overwrite the candidates up to the one it is
// given.
func Visit(r bleveindex.TermFieldReader, cands []Candidate, count float64, fn func(int, *bleveindex.TermFieldDoc)) error {
	var tfd bleveindex.TermFieldDoc
	if count <= mergeRatio*float64(len(cands)) {
		d, err := r.Next(tfd.Reset())
		for i := range cands {
			id := cands[i].ID
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
		id := cands[i].ID
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

// Holders returns the internal IDs of the documents whose field in r
// holds term. Cost: a pass over the term's postings.
func Holders(ctx context.Context, r bleveindex.IndexReader, field, term string) (map[string]struct{}, error) {
	tr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	out := map[string]struct{}{}
	var tfd bleveindex.TermFieldDoc
	for {
		d, err := tr.Next(tfd.Reset())
		if err != nil {
			return nil, err
		}
		if d == nil {
			return out, nil
		}
		out[string(d.ID)] = struct{}{}
	}
}
