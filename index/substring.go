package index

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/tokenize"
)

// sleaf is what the substring leg makes of a leaf.
type sleaf struct {
	*leaf
	find   finder
	grams  []int // indexes into the query's grams, rarest first
	df     float64
	verify bool // its candidates do not decide it
	dup    bool // simple syntax: the same text as an earlier leaf
	at     int  // its place in the query's leaves
}

// substringLeg finds the documents whose title or body contains the
// query's leaves as case- and diacritics-insensitive substrings: every
// leaf in simple syntax, as the tree says in raw syntax.
//
// Candidates come from intersecting trigram postings, rarest first: the
// one trigram of a three-character leaf, which decides it exactly, and the
// rarest few of a longer one, whose candidates are then verified against
// the stored, folded text, so the result is exact. OR unites candidates;
// NOT and leaves shorter than three characters (no trigrams) constrain
// nothing and are verified on the others' candidates, or on every
// document when nothing else constrains (a scan, over the scanTable).
// Verification stops at the first occurrence of each leaf. A leaf's
// frequency for BM25 is estimated from its rarest trigram's frequency in
// the document (title and body together), plus a title bonus for a leaf
// in the title; a scanned leaf's is counted.
func (s *search) substringLeg() ([]scored, error) {
	var grams []string
	var leaves []*sleaf
	byLeaf := map[*leaf]*sleaf{}
	for _, l := range s.plan.leaves {
		sl := &sleaf{leaf: l, find: newFinder(l.folded), df: s.n, verify: true} // a short leaf gets the lowest idf
		for _, o := range leaves {
			if !s.plan.strict && o.folded == l.folded {
				sl.dup = true
			}
		}
		if utf8.RuneCountInString(l.folded) >= 3 {
			for _, g := range tokenize.Grams(l.folded) {
				i := slices.Index(grams, g)
				if i < 0 {
					i = len(grams)
					grams = append(grams, g)
				}
				sl.grams = append(sl.grams, i)
			}
			// A leaf of exactly one trigram is in the document iff the
			// trigram is, unless it could span the title/body joint.
			sl.verify = len(sl.grams) > 1 || strings.Contains(l.folded, "\n") || l.initial || l.fields != allFields
		}
		leaves = append(leaves, sl)
		byLeaf[l] = sl
	}
	avgTitle := float64(getUint(s.tx, metaTitleBytes)) / max(s.n, 1)
	avgAll := avgTitle + float64(getUint(s.tx, metaBodyBytes))/max(s.n, 1)

	counts, err := s.gramCounts(grams)
	if err != nil {
		return nil, err
	}
	for _, sl := range leaves {
		if len(sl.grams) > 0 {
			slices.SortFunc(sl.grams, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })
			sl.df = counts[sl.grams[0]]
		}
	}

	// Rarest first: most false candidates fail early.
	order := slices.Clone(leaves)
	slices.SortStableFunc(order, func(a, b *sleaf) int { return cmp.Compare(a.df, b.df) })
	for i, sl := range leaves {
		sl.at = i
	}

	// newCheck returns a function that judges a document whose folded
	// text is fd (cand is nil for a scanned one), with its own state,
	// shared with leafOK so that neither is made anew per document: one
	// per goroutine.
	newCheck := func() func(id string, fd *folded, cand *candidate) (scored, bool) {
		var (
			f      *folded
			c      *candidate
			score  float64
			dl     float64
			judged = make([]verdict, len(leaves))
			seen   = make([]bool, len(leaves))
		)
		leafOK := func(l *leaf) verdict {
			sl := byLeaf[l]
			if seen[sl.at] {
				return judged[sl.at]
			}
			v, tf, ct := s.substringIn(sl, f, c)
			judged[sl.at], seen[sl.at] = v, true
			if v == yes && !l.negated && !sl.dup {
				w := idf(s.n, sl.df)
				score += w * (s.ix.opts.BodyWeight*bm25(tf, dl, avgAll) + s.ix.opts.TitleWeight*bm25(ct, float64(len(f.title)), avgTitle))
			}
			return v
		}
		nearOK := func(n *query.Near) verdict { return s.nearIn(n, byLeaf, f, leafOK) }
		return func(id string, fd *folded, cand *candidate) (scored, bool) {
			f, c, score, dl = fd, cand, 0, float64(len(fd.title)+len(fd.body))
			clear(seen)
			v := yes
			if s.plan.strict {
				v = s.plan.eval(s.plan.root, leafOK, nearOK)
			} else {
				for _, sl := range order {
					if leafOK(sl.leaf) == no {
						v = no
						break
					}
				}
			}
			return scored{id: id, score: score}, v == yes
		}
	}
	// todo is what to check: the documents that pass the filters, with
	// their folded text. Reading them takes the store and the trigram
	// index, which one goroutine uses; checking them is spread over the
	// workers (checkAll).
	var todo []checkItem
	// verify filters a stored record and adds it to todo. Only a filter
	// on stored fields needs its header decoded in full.
	verify := func(id string, rec []byte, cand *candidate) error {
		if s.filter.active && !s.filter.matchID(id) {
			return nil
		}
		seq, err := recordSeq(rec)
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		if s.filter.byHeader {
			h, _, err := decodeHeader(rec)
			if err != nil {
				return fmt.Errorf("document %q: %w", id, err)
			}
			if !s.filter.matchHeader(&h) {
				return nil
			}
		}
		fd, err := s.ix.fold.get(id, seq, func() ([]byte, []byte, error) {
			_, rest, err := decodeHeader(rec)
			if err != nil {
				return nil, nil, err
			}
			return decodeText(rest)
		})
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		todo = append(todo, checkItem{id, fd, cand})
		return nil
	}

	cands, all, err := s.candidateSet(s.plan.root, byLeaf, grams, counts)
	if err != nil {
		return nil, err
	}
	if all {
		table, err := s.scan(verify)
		if err != nil {
			return nil, err
		}
		todo = append(todo, table...)
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
	out, err := s.checkAll(todo, newCheck)
	if err != nil {
		return nil, err
	}
	sortScored(out)
	return out, nil
}

// checkItem is a document to check, with its folded text and, when it
// came from the trigram index, its candidate entry.
type checkItem struct {
	id   string
	f    *folded
	cand *candidate
}

// parallelChecks is the fewest documents checked by more than one goroutine.
const parallelChecks = 512

// checkAll checks every item, on up to Options.Workers goroutines, each
// with its own check function, and returns the matches in no set order.
func (s *search) checkAll(todo []checkItem, newCheck func() func(string, *folded, *candidate) (scored, bool)) ([]scored, error) {
	workers := min(s.ix.opts.Workers, len(todo)/parallelChecks)
	if workers <= 1 {
		check := newCheck()
		out := []scored{}
		for i, it := range todo {
			if i%256 == 0 {
				if err := s.ctx.Err(); err != nil {
					return nil, err
				}
			}
			if m, ok := check(it.id, it.f, it.cand); ok {
				out = append(out, m)
			}
		}
		return out, nil
	}
	outs := make([][]scored, workers)
	var wg sync.WaitGroup
	for w := range workers {
		check := newCheck()
		part := todo[w*len(todo)/workers : (w+1)*len(todo)/workers]
		wg.Go(func() {
			for i, it := range part {
				if i%256 == 0 && s.ctx.Err() != nil {
					return
				}
				if m, ok := check(it.id, it.f, it.cand); ok {
					outs[w] = append(outs[w], m)
				}
			}
		})
	}
	wg.Wait()
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	return slices.Concat(outs...), nil
}

// scan returns every document that passes the filters, to check, from
// the snapshot's scanTable when there is one; else it gives each stored
// record to verify and returns nothing.
func (s *search) scan(verify func(string, []byte, *candidate) error) (todo []checkItem, err error) {
	t, err := s.scanTable()
	if err != nil {
		return nil, err
	}
	if t == nil {
		err := s.tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			if err := s.ctx.Err(); err != nil {
				return err
			}
			return verify(string(k), v, nil)
		})
		return nil, err
	}
	todo = make([]checkItem, 0, len(t.docs))
	for i := range t.docs {
		d := &t.docs[i]
		if i%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
		if s.filter.active && !s.filter.matchID(d.id) || s.filter.byHeader && !s.filter.matchHeader(&d.h) {
			continue
		}
		todo = append(todo, checkItem{d.id, d.f, nil})
	}
	return todo, nil
}

// substringIn judges one leaf in one document and returns its term
// frequency estimate and its count in the title.
func (s *search) substringIn(sl *sleaf, f *folded, c *candidate) (v verdict, tf, ct float64) {
	if sl.folded == "" {
		return abstain, 0, 0
	}
	title, body := f.title, f.body
	if sl.fields&inTitle == 0 {
		title = ""
	}
	if sl.fields&inBody == 0 {
		body = ""
	}
	if sl.initial {
		in := func(t string) bool {
			return strings.HasPrefix(strings.TrimLeftFunc(t, unicode.IsSpace), sl.folded)
		}
		if !in(title) && !in(body) {
			return no, 0, 0
		}
		return yes, 1, float64(count(title, sl.folded))
	}
	ct = float64(count(title, sl.folded))
	if c == nil {
		// A scan: counting the body also decides it.
		tf = ct + float64(count(body, sl.folded))
		if tf == 0 {
			return no, 0, 0
		}
		return yes, tf, ct
	}
	decided := !sl.verify && c.freq[sl.grams[0]] > 0
	if ct == 0 && !decided && !sl.find.in(body) {
		return no, 0, 0
	}
	tf = ct
	switch {
	case len(sl.grams) > 0 && c.freq[sl.grams[0]] > 0:
		tf = math.MaxFloat64
		for _, g := range sl.grams {
			if c.freq[g] > 0 {
				tf = min(tf, float64(c.freq[g]))
			}
		}
	case len(sl.grams) == 0:
		tf += float64(count(body, sl.folded))
	default:
		tf = max(tf, 1)
	}
	return yes, tf, ct
}

// nearIn judges a NEAR group in one document: its leaves within the
// group's distance, in words, inside one field.
func (s *search) nearIn(n *query.Near, byLeaf map[*leaf]*sleaf, f *folded, leafOK func(*leaf) verdict) verdict {
	for _, c := range n.Children {
		if leafOK(s.plan.byNode[c]) == no {
			return no
		}
	}
	for _, field := range []struct {
		text string
		set  fieldSet
	}{{f.title, inTitle}, {f.body, inBody}} {
		words := wordStarts(field.text)
		occ := make([][][2]int, 0, len(n.Children))
		for _, c := range n.Children {
			sl := byLeaf[s.plan.byNode[c]]
			if sl.fields&field.set == 0 {
				occ = append(occ, nil)
				continue
			}
			var o [][2]int
			for i, k := 0, 0; k < snippetSpans*4; k++ {
				j := strings.Index(field.text[i:], sl.folded)
				if j < 0 {
					break
				}
				at := i + j
				o = append(o, [2]int{wordIndex(words, at), wordIndex(words, at+len(sl.folded)-1)})
				i = at + 1
			}
			occ = append(occ, o)
		}
		if nearWithin(occ, n.Distance) {
			return yes
		}
	}
	return no
}

// recordSeq returns the write sequence number of a stored record (see
// encodeDoc) without decoding the rest of its header.
func recordSeq(rec []byte) (uint64, error) {
	if len(rec) == 0 || rec[0] < 1 || rec[0] > recordVersion {
		return 0, errCorruptRecord
	}
	seq, n := binary.Uvarint(rec[1:])
	if n <= 0 {
		return 0, errCorruptRecord
	}
	return seq, nil
}

// wordStarts returns the byte offsets where words (runs of letters and
// digits) start in text.
func wordStarts(text string) []int {
	var out []int
	inWord := false
	for i, r := range text {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !inWord {
			out = append(out, i)
		}
		inWord = w
	}
	return out
}

// wordIndex is the number of the word at byte offset at: 1 for the first.
func wordIndex(starts []int, at int) int {
	i, found := slices.BinarySearch(starts, at)
	if found {
		return i + 1
	}
	return max(i, 1)
}

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
// the index afresh, a Next steps to the neighbouring row. In wasm under
// node (upsidedown over memKV, the standard library corpus), reading
// through took "error" (1,163 candidates, lists of about as many) from
// 10.1 to 8.3 ms, best of five runs, and advancing stayed the faster for
// "Marshal the", whose common trigram's list is many times longer.
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
