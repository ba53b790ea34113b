package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/slots"
	"github.com/twindex/twindex/index/internal/terms"
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/storage"
)

// search is the state of one Search call.
type search struct {
	ix  *Index
	ctx context.Context
	req Request
	tx  storage.Tx // reads the state of the store the readers show
	// allTextR and allTriR are the indexes' readers whatever the mode,
	// for did-you-mean and declarations; textR and triR are nil when the
	// mode does not run their leg.
	allTextR bleveindex.IndexReader
	allTriR  bleveindex.IndexReader
	textR    bleveindex.IndexReader
	triR     bleveindex.IndexReader
	// textIDs and triIDs resolve the internal IDs of allTextR and allTriR.
	textIDs, triIDs rank.Resolver
	plan            *plan.Plan
	// The text leg's term tables of the exact and the tolerant pass, for
	// snippets.
	exactPlan, tolPlan *plan.Text
	// explained is the tally of the text leg's last pass, whose list
	// ranked the hits, kept for Explain.
	explained *rank.Tally
	// defines holds, by positive leaf, the trigram index's internal IDs
	// of the documents that declare its text; made on first use.
	defines           map[*plan.Leaf]map[string]struct{}
	filter            filter
	n                 float64          // documents in the index
	snip              [2]*snippetQuery // what snippets look for in exact and tolerant hits, made on first use
	best              float64          // the first hit's score, for Hit.Norm
	probed            bool             // probeDicts has run
	qvec              []float32        // the query vector of a vector or hybrid search
	avgTitle, avgBody float64          // average field lengths in tokens, for BM25
	slots             []*slots.Table   // the text leg's, released when the search ends
	tallies           []*rank.Tally    // the same
	added             []feedbackTerm   // the terms feedback added to the text leg
	// near walks a reader's dictionaries for the terms near a word, once
	// for each word, distance, field and prefix, for the fallback and
	// did-you-mean alike (backend.NearTerms); nearR is its reader.
	near  terms.FuzzyWalk
	nearR bleveindex.IndexReader
	// g, when set, holds the statistics of the whole collection, of which
	// this index is a shard: the search scores with them (see collection.Stats).
	// rec, when set, gathers this shard's part of those g lacks.
	g   *collection.Stats
	rec *collection.Recorder
	// cands holds the substring leg's candidate lists until the search
	// ends.
	cands grams.Buffers
	// runs holds, by document ID, the quoted phrases the substring leg
	// found as written in the documents it matched (record.Folded.HasRun):
	// bit 2i+f for leaf i of the plan in field f (0 title, 1 body). A
	// quoted search's text leg, once that leg ended (awaitRuns), takes them
	// as held without reading the documents again (heldPhrases). Every match
	// has an entry. runsAll: the phrase is the query's one leaf, so runs
	// holds every document whose text holds it folded, and a document it
	// lacks holds no run of it as written.
	runs    map[string]uint64
	runsAll bool
	// runsDone, when not nil, is closed when the substring leg, run
	// beside a quoted search's text leg, has ended; runsLost, then set,
	// reports that it failed and left no runs. The text leg reads and
	// scores its lists meanwhile and waits (awaitRuns) before it judges
	// phrases by the runs and reads the store.
	runsDone chan struct{}
	runsLost bool
	scr      *scratch // made on first use, given back by release
}

// awaitRuns waits for the substring leg's runs when it runs beside the
// text leg (search.runsDone); an error when it failed.
func (s *search) awaitRuns() error {
	if s.runsDone == nil {
		return nil
	}
	<-s.runsDone
	if s.runsLost {
		return errRunsLost
	}
	return nil
}

// errRunsLost is the text leg's error when the substring leg it waited
// for failed: that leg's error is the search's.
var errRunsLost = errors.New("the substring leg failed")

// Search runs a query. It returns ErrEmptyQuery for a query with nothing to
// search for and ErrInvalidRequest (wrapped) for a request out of range or,
// in raw syntax, a malformed query (wrapping a *query.Error that points at
// the bad part). Cost: the text leg reads the postings of every query
// term (in a text-only search, those of its common terms only for the
// documents its rarer ones hold: textprune.go), the substring leg
// intersects the postings of the query's trigrams and verifies each
// candidate against the stored text; both are linear in the matches, and
// Total is always exact. A prefix or fuzzy word reads at most
// MaxExpansions posting lists.
func (ix *Index) Search(ctx context.Context, req Request) (*Result, error) {
	req, err := req.Normalized()
	if err != nil {
		return nil, err
	}
	var warnings []string
	var qvec []float32
	if req.Mode.legs()&runsVector != 0 {
		vec, warning, err := ix.queryVector(ctx, &req)
		if err != nil {
			return nil, err
		}
		if warning != "" {
			warnings = append(warnings, warning)
			req.Mode = req.Mode.WithoutVector()
		} else if ok, err := ix.loadVectors(); err != nil {
			return nil, fmt.Errorf("search: vectors: %w", err)
		} else if !ok {
			warnings = append(warnings, "no document has a vector, searched by keywords only")
			req.Mode = req.Mode.WithoutVector()
		} else {
			qvec = vec
		}
	}
	p, err := parse(&req)
	if err == ErrEmptyQuery && req.Mode == ModeVector {
		p, err = &plan.Plan{ByNode: map[query.Node]*plan.Leaf{}}, nil // the vector is the query
	}
	if err != nil {
		return nil, err
	}
	s := ix.newSearch(ctx, req, p, qvec)
	defer s.release()

	var res *Result
	err = ix.read(readsIndexes, func(textR, triR bleveindex.IndexReader, tx storage.Tx) (err error) {
		defer ix.guard(&err)
		s.read(textR, triR, tx)
		res, err = s.run()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	res.Warnings = append(warnings, res.Warnings...)
	if req.Mode == ModeText && res.Total == 0 && s.exactPlan != nil && len(s.exactPlan.Terms) == 0 && ix.hasStopWord(p) {
		res.Warnings = append(res.Warnings, stopOnlyWarning)
	}
	if req.Rerank > 0 && req.Offset == 0 {
		if w := ix.rerank(ctx, req.Query, res.Hits, req.Rerank); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
	}
	return res, nil
}

// newSearch returns the state of a search of p.
func (ix *Index) newSearch(ctx context.Context, req Request, p *plan.Plan, qvec []float32) *search {
	return &search{ix: ix, ctx: ctx, req: req, plan: p, qvec: qvec}
}

// countDocs notes how many documents the index holds, and moves an
// offset past them to just past them: the page is as empty, and what a
// search sizes by the hits it needs (offset + limit) stays within the
// index's documents.
func (s *search) countDocs() {
	s.n = float64(s.counter(metaDocs))
	s.req.Offset = min(s.req.Offset, int(s.n))
}

// stopOnlyWarning is the warning of a text-mode search whose every word
// is a stop word: it finds nothing, as the text index holds none of them.
const stopOnlyWarning = "every word of the query is a stop word, which text mode does not index: search in auto or substring mode to find it as written"

// hasStopWord reports whether a leaf of p holds a stop word, which the
// text leg drops (a query of punctuation alone holds none).
func (ix *Index) hasStopWord(p *plan.Plan) bool {
	for _, l := range p.Leaves {
		if len(ix.textA.Stops([]byte(l.Text))) > 0 {
			return true
		}
	}
	return false
}

func (s *search) run() (*Result, error) {
	s.countDocs()
	if err := s.filter.init(s.tx, &s.req); err != nil {
		return nil, err
	}
	legs := s.req.Mode.legs()
	if legs == runsVector {
		return s.runVector()
	}
	s.avgTitle = float64(s.counter(metaTitleTokens)) / max(s.n, 1)
	s.avgBody = float64(s.counter(metaBodyTokens)) / max(s.n, 1)
	tol := requestTolerance(&s.req)
	tri, text, err := s.legs(tol)
	if err != nil {
		return nil, err
	}
	if text != nil {
		// Feedback reads the store, so not beside the substring leg.
		if s.added, err = s.feedback(text); err != nil {
			return nil, fmt.Errorf("feedback: %w", err)
		}
		if len(s.added) > 0 {
			if text, err = s.textLeg(tol); err != nil {
				return nil, fmt.Errorf("text leg: %w", err)
			}
		}
	}

	need := s.req.Offset + s.req.Limit
	var vec []rank.Scored
	if legs&runsVector != 0 {
		if vec, err = s.vectorLeg(max(need, VectorDepth)); err != nil {
			return nil, fmt.Errorf("vector leg: %w", err)
		}
	}
	fused, total, err := s.fuse(tri, text, vec, need)
	if err != nil {
		return nil, err
	}
	if fb := fallbackTolerance(&s.req, tol, total, len(tri), text != nil && text.unknown != 0); fb != nil {
		tol = fb
		if text, err = s.textLeg(tol); err != nil {
			return nil, fmt.Errorf("tolerant pass: %w", err)
		}
		if fused, total, err = s.fuse(tri, text, vec, need); err != nil {
			return nil, err
		}
	}
	return s.finish(&Result{Mode: s.req.Mode, Tolerant: tol != nil && legs&runsText != 0}, fused, total)
}

// fuse returns the first need hits of the legs' fused ranking in the
// request's order (all of them, unless by score), and the number of
// matching documents.
func (s *search) fuse(tri []rank.Scored, text *textList, vec []rank.Scored, need int) ([]fusion.Hit, int, error) {
	if s.req.Order == OrderScore {
		return s.fuseTop(tri, text, vec, need)
	}
	fused, err := s.fuseAll(tri, text, vec)
	if err == nil {
		err = s.sortByDate(fused)
	}
	return fused, len(fused), err
}

// legs runs the substring and text legs the mode asks for, at once when
// it can: the substring leg's matches and the text leg's list, both
// unsorted, the text leg tolerant with tol (nil: exact).
func (s *search) legs(tol *tolerance) (tri []rank.Scored, text *textList, err error) {
	legs := s.req.Mode.legs()
	var triErr, textErr error
	substring := func() {
		if tri, triErr = s.substringLeg(); triErr != nil {
			triErr = fmt.Errorf("substring leg: %w", triErr)
		}
	}
	words := func() {
		if text, textErr = s.textLeg(tol); textErr != nil {
			textErr = fmt.Errorf("text leg: %w", textErr)
		}
	}
	switch {
	case legs&runsText == 0:
		substring()
	case legs&runsSubstring == 0:
		words()
	case s.ix.opts.Workers > 1 && !s.plan.Strict && !s.filter.byHeader:
		// The legs at once: the text leg reads no record (no filter on
		// stored fields) until it judges a quoted search's phrases, and
		// those it judges once the substring leg ended (awaitRuns), so
		// only one leg at a time uses the store's transaction.
		if s.plan.Quoted {
			s.runsDone = make(chan struct{})
		}
		var wg sync.WaitGroup
		wg.Go(func() {
			defer s.ix.guard(&textErr)
			words()
		})
		// A panic (a damaged index) must not leave before the text leg,
		// which reads what Search closes when it returns.
		func() {
			defer func() {
				if s.runsDone != nil {
					s.runsLost = triErr != nil
					close(s.runsDone)
				}
			}()
			defer s.ix.guard(&triErr)
			substring()
		}()
		wg.Wait()
		s.runsDone = nil
		if errors.Is(textErr, errRunsLost) {
			textErr = nil // triErr says why
		}
	default:
		// The substring leg first: a quoted search's text leg takes the
		// runs it found (search.runs).
		substring()
		words()
	}
	if err := errors.Join(triErr, textErr); err != nil {
		return nil, nil, err
	}
	return tri, text, s.ctx.Err()
}

// requestTolerance is what Request.Fuzzy adds to the text leg, read in
// the same pass as the exact words; nil for none.
func requestTolerance(req *Request) *tolerance {
	if req.Fuzzy == FuzzyOff {
		return nil
	}
	return &tolerance{fuzzy: req.Fuzzy}
}

// fallbackPass is what the fallback's tolerant pass adds to each word;
// with unknown, only to the words no document holds.
func fallbackPass(req *Request, unknown bool) tolerance {
	fb := tolerance{fuzzy: req.Fuzzy, prefix: req.Prefix, unknown: unknown}
	if fb.fuzzy == FuzzyOff {
		fb.fuzzy = FuzzyAuto
	}
	return fb
}

// fallbackTolerance returns what the fallback's tolerant pass adds to
// each word, nil when it does not run. It runs, when the mode has the
// text leg, for a search whose text leg (tolerant with tol) and other
// legs found fewer than Request.Fallback documents: fuzzy (auto unless
// asked otherwise) and, as typed into a search box, prefixes; and, when
// some word is in no document (unknown) but the others match enough, for
// that word alone, unless the substring leg found Request.Fallback
// documents or more (substring, its matches): the query as typed is then
// in them, so a word that no document holds whole is a piece of longer
// words there (nmars of Unmarshal), not a misspelling that the words near
// it would mend.
func fallbackTolerance(req *Request, tol *tolerance, total, substring int, unknown bool) *tolerance {
	if req.Mode.legs()&runsText == 0 {
		return nil
	}
	fb := fallbackPass(req, false)
	switch {
	case total < req.Fallback && (tol == nil || *tol != fb):
	case req.Fallback > 0 && tol == nil && unknown && substring < req.Fallback:
		fb.unknown = true
	default:
		return nil
	}
	return &fb
}

// finish expands and boosts the ranked hits, suggests a spelling when
// there are none, and renders the page.
func (s *search) finish(res *Result, fused []fusion.Hit, total int) (*Result, error) {
	var err error
	if s.req.Order == OrderScore && (s.req.Expand != nil || s.req.Boost != nil) {
		var added int
		if fused, added, err = s.expandAndBoost(fused); err != nil {
			return nil, err
		}
		total += added
	}
	if len(fused) > 0 {
		s.best = fused[0].Score
	}
	if total == 0 && s.req.Mode != ModeVector {
		if res.DidYouMean, err = s.didYouMean(); err != nil {
			return nil, err
		}
	}
	page, _ := fusion.Page(fused, s.req.Offset, s.req.Limit)
	res.Total, res.Hits = total, make([]Hit, 0, len(page))
	if end := s.req.Offset + s.req.Limit; end < total {
		res.NextOffset = &end
	}
	recs := make([]hitRecord, 0, len(page))
	for _, f := range page {
		h, rec, err := s.hit(f)
		if err != nil {
			return nil, err
		}
		res.Hits = append(res.Hits, h)
		recs = append(recs, rec)
	}
	if err := s.texts(res.Hits, recs); err != nil {
		return nil, err
	}
	return res, nil
}

func (s *search) sortByDate(fused []fusion.Hit) error {
	times := make(map[string]int64, len(fused))
	for _, f := range fused {
		h, err := s.header(f.ID)
		if err != nil {
			return err
		}
		times[f.ID] = h.Time.UnixNano()
	}
	desc := s.req.Order == OrderDateDesc
	slices.SortFunc(fused, func(a, b fusion.Hit) int {
		c := cmp.Compare(times[a.ID], times[b.ID])
		if desc {
			c = -c
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return nil
}

// stored returns the stored record of document id, which an index
// holds: the store not holding it is an error.
func (s *search) stored(id string) ([]byte, error) {
	if rec := s.tx.Get(bucketDocs, []byte(id)); rec != nil {
		return rec, nil
	}
	return nil, notStored(id)
}

// notStored is the error of a document that an index holds and the store
// does not.
func notStored(id string) error {
	return fmt.Errorf("document %q is in an index but not in the store", id)
}

func (s *search) header(id string) (record.Header, error) {
	v, err := s.stored(id)
	if err != nil {
		return record.Header{}, err
	}
	h, _, err := record.DecodeHeader(v)
	if err != nil {
		return h, fmt.Errorf("document %q: %w", id, err)
	}
	return h, nil
}

// hitRecord is the text part of a hit's stored record, from which texts
// makes its title and snippet; it stays valid for the search's
// transaction.
type hitRecord struct {
	seq  uint64
	rest []byte
}

// hit makes a hit of a fused one, but for its title and snippet (texts).
func (s *search) hit(f fusion.Hit) (Hit, hitRecord, error) {
	v, err := s.stored(f.ID)
	if err != nil {
		return Hit{}, hitRecord{}, err
	}
	hd, rest, err := record.DecodeHeader(v)
	if err != nil {
		return Hit{}, hitRecord{}, fmt.Errorf("document %q: %w", f.ID, err)
	}
	h := Hit{
		ID: f.ID, Kind: hd.Kind, Parent: hd.Parent, Tags: hd.Tags, Role: hd.Role,
		Project: hd.Project, Source: hd.Source, Time: hd.Time, Meta: hd.Meta, Score: f.Score,
	}
	for _, l := range f.Legs {
		h.MatchedIn = append(h.MatchedIn, l.Leg)
	}
	if len(f.Legs) == 0 && f.Via != nil {
		h.MatchedIn = []string{LegGraph}
	}
	slices.Sort(h.MatchedIn)
	if s.best > 0 {
		h.Norm = f.Score / s.best
	}
	h.Via = f.Via
	if s.req.Explain {
		h.Explain = &Explain{K: s.ix.opts.K, Legs: slices.Clone(f.Legs), Boost: f.Boosted}
		if err := s.explainText(h.Explain, f); err != nil {
			return Hit{}, hitRecord{}, err
		}
	}
	return h, hitRecord{hd.Seq, rest}, nil
}

// explainText splits the hit's text-leg score by field.
func (s *search) explainText(e *Explain, f fusion.Hit) error {
	for _, l := range f.Legs {
		t := s.explained
		if t == nil || l.Leg != LegText && l.Leg != LegFuzzy {
			continue
		}
		iid, err := s.allTextR.InternalID(f.ID)
		if err != nil {
			return err
		}
		if iid != nil {
			e.Text = t.FieldScores(iid, l.Score)
		}
	}
	return nil
}

// parse parses req's query into the plan the legs read, with the
// engine's errors: ErrEmptyQuery, or ErrInvalidRequest for a syntax error
// (with its position) or more than MaxQueryTerms terms.
func parse(req *Request) (*plan.Plan, error) {
	p, err := plan.Parse(req.Query, req.Syntax == SyntaxRaw, req.Prefix)
	if errors.Is(err, query.ErrEmpty) {
		return nil, ErrEmptyQuery
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	if len(p.Leaves) > MaxQueryTerms {
		return nil, fmt.Errorf("%w: %d terms, the limit is %d", ErrInvalidRequest, len(p.Leaves), MaxQueryTerms)
	}
	return p, nil
}

// read sets the readers and the store transaction the search reads, and
// the resolvers of the readers' IDs.
func (s *search) read(textR, triR bleveindex.IndexReader, tx storage.Tx) {
	s.tx, s.allTextR, s.allTriR = tx, textR, triR
	s.textIDs, s.triIDs = s.ix.textIDs.Of(textR), s.ix.triIDs.Of(triR)
	if s.req.Mode.legs()&runsText != 0 {
		s.textR = textR
	}
	if s.req.Mode.legs()&runsSubstring != 0 {
		s.triR = triR
	}
}

// release hands back what the search took from pools: the substring
// leg's candidate lists, the text leg's slot tables and tallies, and the
// scratch arrays.
func (s *search) release() {
	s.cands.Release()
	if s.scr != nil {
		scratchPool.Put(s.scr)
		s.scr = nil
	}
	for _, sl := range s.slots {
		sl.Release()
	}
	for _, t := range s.tallies {
		t.Release()
	}
}
