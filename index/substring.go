package index

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/snippet"
	"github.com/twindex/twindex/query"
)

// sleaf is what the substring leg makes of a leaf.
type sleaf struct {
	*plan.Leaf
	*grams.Needle                     // its grams rarest first
	df, idf       float64             // its rarest gram's document count, and rank.IDF of it
	dup           bool                // simple syntax: the same text as an earlier leaf
	at            int                 // its place in the query's leaves
	defines       map[string]struct{} // internal IDs of the documents that declare the leaf's text
}

// substringLeg finds the documents whose title or body contains the
// query's leaves as case- and diacritics-insensitive substrings: every
// leaf in simple syntax, as the tree says in raw syntax.
//
// Candidates come from intersecting gram postings, rarest first: the one
// gram of a leaf of one to three characters, which decides it exactly, and
// the rarest few trigrams of a longer one, whose candidates are then
// verified against the stored, folded text, so the result is exact. OR
// unites candidates; NOT constrains nothing and is verified on the
// others' candidates, or on every document when nothing else constrains
// (a scan of the store, as for a leaf that folds to nothing).
// Verification stops at the first occurrence of each leaf. A leaf's
// frequency for BM25 is estimated from its rarest gram's frequency in the
// document (title and body together), plus a title bonus for a leaf in
// the title; a scanned leaf's is counted. The matches come in no set
// order: a search orders only as many as it shows (rank.TopScored).
func (s *search) substringLeg() ([]rank.Scored, error) {
	var tris []string
	var leaves []*sleaf
	byLeaf := map[*plan.Leaf]*sleaf{}
	for _, l := range s.plan.Leaves {
		sl := &sleaf{Leaf: l, df: s.n, // an empty leaf gets the lowest idf
			Needle: grams.NewNeedle(l.Folded, l.Initial, l.Fields&plan.InTitle != 0, l.Fields&plan.InBody != 0, &tris)}
		for _, o := range leaves {
			if !s.plan.Strict && o.Folded == l.Folded {
				sl.dup = true
			}
		}
		leaves = append(leaves, sl)
		byLeaf[l] = sl
	}
	avgTitle := float64(s.counter(metaTitleBytes)) / max(s.n, 1)
	avgAll := avgTitle + float64(s.counter(metaBodyBytes))/max(s.n, 1)

	// Without a trigram index (Options.TrigramsLater, until it is built)
	// every document is read, and a leaf weighs as one all of them hold.
	scan := s.allTriR == nil
	var counts []float64
	if !scan {
		var err error
		if counts, err = s.gramCounts(tris); err != nil || s.rec != nil {
			return nil, err // a shard gathering statistics needs no more
		}
	}
	defs, err := s.definers()
	if err != nil {
		return nil, err
	}
	for _, sl := range leaves {
		sl.defines = defs[sl.Leaf]
	}
	for _, sl := range leaves {
		if len(sl.Grams) > 0 && !scan {
			slices.SortFunc(sl.Grams, func(a, b int) int { return cmp.Compare(counts[a], counts[b]) })
			sl.df = counts[sl.Grams[0]]
		}
		sl.idf = rank.IDF(s.n, sl.df)
	}

	// Rarest first: most false candidates fail early.
	order := slices.Clone(leaves)
	slices.SortStableFunc(order, func(a, b *sleaf) int { return cmp.Compare(a.df, b.df) })
	for i, sl := range leaves {
		sl.at = i
	}

	// A quoted search's phrases are looked for as written in each match,
	// whose folded text is at hand, for the text leg (search.runs).
	var runLeaves []*sleaf
	if s.plan.Quoted && !s.plan.Strict && s.req.Mode.legs()&runsText != 0 && !s.ix.analyzeRuns {
		for _, sl := range leaves {
			if sl.Leaf.Quoted && sl.Leaf.Phrase && !sl.Leaf.Initial && !sl.Negated && sl.at < 32 {
				runLeaves = append(runLeaves, sl)
			}
		}
	}
	var found []*[]docRun // each worker's runs
	// newCheck returns a function that judges a document whose folded
	// text is fd (cand is nil for a scanned one), with its own state,
	// shared with leafOK so that neither is made anew per document: one
	// per goroutine. dl is the document's folded length; given the fold
	// of the text's head (head true), it abstains unless every leaf occurs
	// in it.
	newCheck := func() checkFunc {
		var runs *[]docRun
		if len(runLeaves) > 0 {
			runs = new([]docRun)
			found = append(found, runs)
		}
		var (
			f      *record.Folded
			c      *grams.Candidate
			score  float64
			dl     float64
			judged = make([]plan.Verdict, len(leaves))
			seen   = make([]bool, len(leaves))
		)
		leafOK := func(l *plan.Leaf) plan.Verdict {
			sl := byLeaf[l]
			if seen[sl.at] {
				return judged[sl.at]
			}
			v, tf, ct := s.substringIn(sl, f, c)
			judged[sl.at], seen[sl.at] = v, true
			if v == plan.Yes && !l.Negated && !sl.dup {
				w := sl.idf
				score += w * (s.ix.opts.BodyWeight*rank.BM25(tf, dl, avgAll) + s.ix.opts.TitleWeight*rank.BM25(ct, float64(len(f.Title)), avgTitle))
				if c != nil {
					if _, ok := sl.defines[string(c.ID)]; ok {
						score += w * s.ix.opts.SymbolWeight
					}
				}
			}
			return v
		}
		nearOK := func(n *query.Near) plan.Verdict { return s.nearIn(n, byLeaf, f, leafOK) }
		return func(id string, fd *record.Folded, cand *grams.Candidate, head bool, length float64) (rank.Scored, plan.Verdict) {
			f, c, score, dl = fd, cand, 0, length
			clear(seen)
			v := plan.Yes
			if s.plan.Strict {
				v = s.plan.Eval(s.plan.Root, leafOK, nearOK)
			} else {
				for _, sl := range order {
					if leafOK(sl.Leaf) == plan.No {
						v = plan.No
						if head {
							v = plan.Abstain // the rest of the text may hold it
						}
						break
					}
				}
			}
			if v == plan.Yes && runs != nil {
				var bits uint64
				for _, sl := range runLeaves {
					for fi := range 2 {
						if sl.Fields&(1<<fi) != 0 && f.HasRun(fi == 1, sl.Leaf.Text, sl.Leaf.Find) {
							bits |= 1 << (2*sl.at + fi)
						}
					}
				}
				if bits != 0 || len(leaves) == 1 { // every match, for search.runsAll
					*runs = append(*runs, docRun{id, bits})
				}
			}
			m := rank.Scored{ID: id, Score: score}
			if c != nil {
				m.Doc = rank.DocOf(c.ID)
			}
			return m, v
		}
	}
	// A simple query's leaves are judged by a text's head when each is
	// found by its first occurrence, its frequency estimated from its
	// grams: not a leaf at the start (^), nor one too short for a gram.
	head := 0
	if !s.plan.Strict {
		head = textHead
		for _, sl := range leaves {
			if sl.Folded == "" || sl.Leaf.Initial || len(sl.Grams) == 0 {
				head = 0
			}
		}
	}
	cands, all := []grams.Candidate(nil), true
	if !scan {
		if cands, all, err = s.candidateSet(s.plan.Root, byLeaf, tris, counts); err != nil {
			return nil, err
		}
	}
	if !all && !s.ix.textScores && s.decidedByGrams(leaves) {
		return s.indexScores(leaves, tris, cands, avgTitle, avgAll)
	}
	// Unless a filter needs the stored record, a candidate whose folded
	// text is cached needs none: fieldLength gives its record's sequence
	// number, which the cached fold must have, and its folded length,
	// which a check of the text's head needs.
	var seqs []uint64
	var lens []float64
	if !s.filter.byHeader && len(cands) > 0 {
		seqs, lens = make([]uint64, len(cands)), make([]float64, len(cands))
		err := s.eachLength(cands, func(i int, seq uint64, norm float64) { seqs[i], lens[i] = seq, lengthOf(norm) })
		if err != nil {
			return nil, err
		}
	}
	// What to check: the documents that pass the filters, with their
	// folded text. Reading them takes the store and the trigram index,
	// which this goroutine alone uses; checking them is spread over the
	// workers as they come (checkStream).
	n := len(cands)
	if all {
		n = int(s.n)
	}
	out, err := s.checkStream(n, newCheck, head, func(add func(checkItem)) error {
		// verify filters a stored record and adds it. Only a filter on
		// stored fields needs its header decoded in full.
		verify := func(id string, rec []byte, cand *grams.Candidate, dl float64) error {
			if s.filter.active && !s.filter.matchID(id) {
				return nil
			}
			seq, err := record.Seq(rec)
			if err != nil {
				return fmt.Errorf("document %q: %w", id, err)
			}
			if s.filter.byHeader {
				h, _, err := record.DecodeHeader(rec)
				if err != nil {
					return fmt.Errorf("document %q: %w", id, err)
				}
				if !s.filter.header.Match(&h) {
					return nil
				}
			}
			add(checkItem{id: id, rec: rec, seq: seq, cand: cand, dl: dl})
			return nil
		}
		if all {
			return s.tx.Scan(bucketDocs, nil, func(k, v []byte) error {
				if err := s.ctx.Err(); err != nil {
					return err
				}
				return verify(string(k), v, nil, -1)
			})
		}
		dlOf := func(i int) float64 {
			if lens != nil && seqs[i] > 0 {
				return lens[i]
			}
			return -1
		}
		// idOf returns candidate i's ID, checking the search's context
		// every 256 candidates.
		idOf := func(i int) (string, error) {
			if i%256 == 0 {
				if err := s.ctx.Err(); err != nil {
					return "", err
				}
			}
			return s.triIDs.ExternalID(cands[i].ID)
		}
		// With no fold cache to look in first, the records of a quarter
		// of the documents or more are read by one scan of the store in
		// key order (search.scanPays).
		if !s.ix.fold.Keeps() && s.scanPays(len(cands)) {
			ids := make([]string, len(cands))
			for i := range cands {
				var err error
				if ids[i], err = idOf(i); err != nil {
					return err
				}
			}
			return s.scanStored(ids, func(i int, rec []byte) error { return verify(ids[i], rec, &cands[i], dlOf(i)) })
		}
		var key []byte // the store's key of each candidate, in one buffer
		for i := range cands {
			id, err := idOf(i)
			if err != nil {
				return err
			}
			if seqs != nil && seqs[i] > 0 {
				if fd := s.ix.fold.Peek(id, seqs[i]); fd != nil {
					if !s.filter.active || s.filter.matchID(id) {
						add(checkItem{id: id, f: fd, cand: &cands[i]})
					}
					continue
				}
			}
			key = append(key[:0], id...)
			rec := s.tx.Get(bucketDocs, key)
			if rec == nil {
				continue // drift between an index and the store is Check's to report
			}
			if err := verify(id, rec, &cands[i], dlOf(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if len(found) > 0 {
		n := 0
		for _, rs := range found {
			n += len(*rs)
		}
		s.runs, s.runsAll = make(map[string]uint64, n), len(leaves) == 1
		for _, rs := range found {
			for _, r := range *rs {
				s.runs[r.id] = r.bits
			}
		}
	}
	return out, err
}

// docRun is a document's entry in search.runs, as a worker of the
// substring leg finds it.
type docRun struct {
	id   string
	bits uint64
}

// substringIn judges one leaf in one document and returns its term
// frequency estimate and its count in the title.
func (s *search) substringIn(sl *sleaf, f *record.Folded, c *grams.Candidate) (v plan.Verdict, tf, ct float64) {
	if sl.Folded == "" {
		return plan.Abstain, 0, 0
	}
	ok, tf, ct := sl.Match(f.Title, f.Body, c)
	if !ok {
		return plan.No, 0, 0
	}
	return plan.Yes, tf, ct
}

// nearIn judges a NEAR group in one document: its leaves within the
// group's distance, in words, inside one field.
func (s *search) nearIn(n *query.Near, byLeaf map[*plan.Leaf]*sleaf, f *record.Folded, leafOK func(*plan.Leaf) plan.Verdict) plan.Verdict {
	for _, c := range n.Children {
		if leafOK(s.plan.ByNode[c]) == plan.No {
			return plan.No
		}
	}
	for _, field := range []struct {
		text string
		set  plan.Fields
	}{{f.Title, plan.InTitle}, {f.Body, plan.InBody}} {
		words := find.NewWords(field.text)
		occ := make([][][2]int, 0, len(n.Children))
		for _, c := range n.Children {
			sl := byLeaf[s.plan.ByNode[c]]
			if sl.Fields&field.set == 0 {
				occ = append(occ, nil)
				continue
			}
			occ = append(occ, words.Occurrences(sl.Folded, snippet.Spans*4))
		}
		if plan.NearWithin(occ, n.Distance) {
			return plan.Yes
		}
	}
	return plan.No
}
