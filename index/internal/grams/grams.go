// Package grams reads the trigram postings of a bleve index into
// candidate lists: the documents that hold every trigram of a substring,
// with each trigram's frequency, which the substring leg then verifies
// against the documents' text (Needle.Match).
//
// Invariants: a candidate list is sorted by internal document ID, and a
// Candidate's Freq has one entry per gram of the query (zero for a gram
// not read). Functions use the bleve readers they are given from the
// calling goroutine only, as bleve requires. A Needle is not changed
// after its query's grams are sorted, so Match is safe for concurrent
// use.
package grams

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/tokenize"
)

// Candidate is a document that holds every trigram of the query, with
// each trigram's frequency in it.
type Candidate struct {
	ID   bleveindex.IndexInternalID
	Freq []uint32 // by gram index
}

// Lister reads the postings of term in field of r in ID order, straight
// from the index's segments where it can (see backend.EachPosting): fn
// gets each live document's internal ID, valid during the call, and its
// frequency. It returns false, having called nothing, for a reader it
// cannot read so.
type Lister func(r bleveindex.IndexReader, field string, term []byte, fn func(id bleveindex.IndexInternalID, freq uint64)) (bool, error)

// Postings intersects the postings in field of r of the grams in use
// (indexes into grams, whose document counts are counts), rarest first,
// and returns the documents holding all of them, with each gram's
// frequency in each. The rarest gram's are read by list, when not nil
// and it can, else by r's TermFieldReader.
//
// Cost: one pass over the rarest gram's postings, and for each other
// gram a read through its postings or a seek per candidate (Visit).
func Postings(ctx context.Context, r bleveindex.IndexReader, field string, grams []string, use []int, counts []float64, bufs *Buffers, list Lister) ([]Candidate, error) {
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
	open := func(g int) error {
		tr, err := r.TermFieldReader(ctx, []byte(grams[g]), field, true, false, false)
		readers[g] = tr
		return err
	}
	for _, g := range use[1:] {
		if err := open(g); err != nil {
			return nil, err
		}
	}

	// The rarest gram's postings are the candidates. Their IDs and
	// frequencies go to two arenas, sliced once the arenas stop growing:
	// a query of one common letter has a candidate for most documents.
	b := bufs.get()
	ids, idEnds, freqs := b.ids[:0], b.ends[:0], b.freqs[:0]
	if n := int(min(counts[use[0]], 1<<20)); n > 0 {
		ids, idEnds, freqs = slices.Grow(ids, 8*n), slices.Grow(idEnds, n), slices.Grow(freqs, n*len(grams))
	}
	add := func(id bleveindex.IndexInternalID, freq uint64) {
		ids = append(ids, id...)
		idEnds = append(idEnds, len(ids))
		at := len(freqs)
		freqs = append(freqs, make([]uint32, len(grams))...)
		freqs[at+use[0]] = uint32(freq)
	}
	listed := false
	if list != nil {
		var err error
		if listed, err = list(r, field, []byte(grams[use[0]]), add); err != nil {
			return nil, err
		}
	}
	if !listed {
		if err := open(use[0]); err != nil {
			return nil, err
		}
		var tfd bleveindex.TermFieldDoc
		for {
			d, err := readers[use[0]].Next(tfd.Reset())
			if err != nil {
				return nil, err
			}
			if d == nil {
				break
			}
			add(d.ID, d.Freq)
		}
	}
	cands := slices.Grow(b.cands[:0], len(idEnds))[:len(idEnds)]
	start := 0
	for i, end := range idEnds {
		f := freqs[i*len(grams) : (i+1)*len(grams) : (i+1)*len(grams)]
		cands[i] = Candidate{ID: ids[start:end:end], Freq: f}
		start = end
	}
	b.ids, b.ends, b.freqs, b.cands = ids, idEnds, freqs, cands
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

// Buffers holds the arenas of the candidate lists that Postings returns,
// to be used again once no candidate of them is read: a search holds them
// until it ends. A nil *Buffers makes Postings allocate its own. Not safe
// for concurrent use.
type Buffers struct {
	held []*arenas
}

// arenas are one candidate list's: the IDs and frequencies its candidates
// point into, and the list.
type arenas struct {
	ids   []byte
	ends  []int
	freqs []uint32
	cands []Candidate
}

var arenaPool = sync.Pool{New: func() any { return new(arenas) }}

func (b *Buffers) get() *arenas {
	if b == nil {
		return new(arenas)
	}
	a := arenaPool.Get().(*arenas)
	b.held = append(b.held, a)
	return a
}

// Release gives the arenas back for later lists; the candidates they
// hold must not be read after.
func (b *Buffers) Release() {
	for _, a := range b.held {
		arenaPool.Put(a)
	}
	b.held = nil
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
// holds term; nil for none. Cost: a pass over the term's postings.
func Holders(ctx context.Context, r bleveindex.IndexReader, field, term string) (map[string]struct{}, error) {
	tr, err := r.TermFieldReader(ctx, []byte(term), field, false, false, false)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	var out map[string]struct{}
	var tfd bleveindex.TermFieldDoc
	for {
		d, err := tr.Next(tfd.Reset())
		if err != nil {
			return nil, err
		}
		if d == nil {
			return out, nil
		}
		if out == nil {
			out = map[string]struct{}{}
		}
		out[string(d.ID)] = struct{}{}
	}
}

// Needle is a leaf of a query as a case- and diacritics-insensitive
// substring of a document's folded title or body.
type Needle struct {
	Text        string // folded
	Initial     bool   // must start its field
	Title, Body bool   // the fields it is looked for in
	Grams       []int  // indexes into the query's grams; the caller may sort them rarest first
	Verify      bool   // its candidates do not decide it: Match reads the text
	find        find.Finder
}

// NewNeedle is the needle of folded text, its grams added to *grams (the
// query's) where they are new. Cost: O(len(text)*len(*grams)).
func NewNeedle(text string, initial, title, body bool, grams *[]string) *Needle {
	n := &Needle{Text: text, Initial: initial, Title: title, Body: body, Verify: true, find: find.New(text)}
	for _, g := range tokenize.Grams(text) {
		i := slices.Index(*grams, g)
		if i < 0 {
			i = len(*grams)
			*grams = append(*grams, g)
		}
		n.Grams = append(n.Grams, i)
	}
	if len(n.Grams) > 0 {
		// A needle of exactly one gram is in the document iff the gram
		// is, unless it could span the title/body joint.
		n.Verify = len(n.Grams) > 1 || strings.Contains(text, "\n") || initial || !title || !body
	}
	return n
}

// Match reports whether the needle, not empty, is in a document of
// folded title and body, and returns its term frequency estimate and its
// count in the title. c is the document's candidate entry, or nil for a
// document scanned without one, whose frequency is counted. A
// candidate's frequency is estimated from its grams' (title and body
// together), and Match stops at the needle's first occurrence in the
// body.
func (n *Needle) Match(title, body string, c *Candidate) (ok bool, tf, ct float64) {
	if !n.Title {
		title = ""
	}
	if !n.Body {
		body = ""
	}
	if n.Initial {
		in := func(t string) bool {
			return strings.HasPrefix(strings.TrimLeftFunc(t, unicode.IsSpace), n.Text)
		}
		if !in(title) && !in(body) {
			return false, 0, 0
		}
		return true, 1, float64(find.Count(title, n.Text))
	}
	ct = float64(find.Count(title, n.Text))
	if c == nil {
		// A scan: counting the body also decides it.
		tf = ct + float64(find.Count(body, n.Text))
		if tf == 0 {
			return false, 0, 0
		}
		return true, tf, ct
	}
	decided := !n.Verify && c.Freq[n.Grams[0]] > 0
	if ct == 0 && !decided && !n.find.In(body) {
		return false, 0, 0
	}
	tf = ct
	switch {
	case len(n.Grams) > 0 && c.Freq[n.Grams[0]] > 0:
		tf = math.MaxFloat64
		for _, g := range n.Grams {
			if c.Freq[g] > 0 {
				tf = min(tf, float64(c.Freq[g]))
			}
		}
	case len(n.Grams) == 0:
		tf += float64(find.Count(body, n.Text))
	default:
		tf = max(tf, 1)
	}
	return true, tf, ct
}
