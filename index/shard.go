package index

import (
	"context"
	"fmt"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/storage"
)

// shardSearch prepares a search of req on this index as a shard: the
// request normalized and parsed, the query vector given.
func (ix *Index) shardSearch(ctx context.Context, req Request, g *collection.Stats) (*search, error) {
	req, err := req.Normalized()
	if err != nil {
		return nil, err
	}
	// A shard's statistics come from its trigram index: a shard opened
	// with Options.TrigramsLater builds it first.
	ix.mu.RLock()
	later := ix.view != nil && ix.view.noTrigrams
	ix.mu.RUnlock()
	if later {
		if err := ix.BuildTrigrams(ctx, nil); err != nil {
			return nil, err
		}
	}
	if req.Mode.legs()&runsVector != 0 {
		if len(req.Vector) == 0 {
			return nil, fmt.Errorf("%w: a search of shards with the vector leg needs Request.Vector", ErrInvalidRequest)
		}
		if ok, err := ix.loadVectors(); err != nil {
			return nil, fmt.Errorf("search: vectors: %w", err)
		} else if !ok {
			req.Mode = req.Mode.WithoutVector() // no vector here: the leg has nothing of this shard
			if req.Mode == ModeAuto && req.Mode.legs() == 0 {
				req.Mode = ModeVector
			}
		}
	}
	p, err := parse(&req)
	if err == ErrEmptyQuery && req.Mode == ModeVector {
		p, err = &plan.Plan{ByNode: map[query.Node]*plan.Leaf{}}, nil
	}
	if err != nil {
		return nil, err
	}
	s := ix.newSearch(ctx, req, p, req.Vector)
	s.g = g
	return s, nil
}

// readShard runs fn on a search's state of the index: the readers of the
// legs its mode runs and the store.
func (ix *Index) readShard(s *search, fn func() error) error {
	defer s.release()
	err := ix.read(readsIndexes, func(textR, triR bleveindex.IndexReader, tx storage.Tx) (err error) {
		defer ix.guard(&err)
		s.read(textR, triR, tx)
		s.countDocs()
		s.avgTitle = float64(s.counter(metaTitleTokens)) / max(s.n, 1)
		s.avgBody = float64(s.counter(metaBodyTokens)) / max(s.n, 1)
		if err := s.filter.init(s.tx, &s.req); err != nil {
			return err
		}
		return fn()
	})
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// Gather returns this index's part of the collection's statistics that a
// search of req reads and g (nil on the first pass) lacks: add every
// shard's part to g, and gather again until no shard returns anything
// new (collection.Stats.Keys); usually two passes. The first pass also returns the
// document counts and lengths. With o.Fallback it gathers for the
// fallback's tolerant pass too. Cost: the search's legs without the
// verification of substring candidates.
func (ix *Index) Gather(ctx context.Context, req Request, g *collection.Stats, o collection.ShardOptions) (*collection.Stats, error) {
	s, err := ix.shardSearch(ctx, req, g)
	if err != nil {
		return nil, err
	}
	s.rec = &collection.Recorder{}
	err = ix.readShard(s, func() error {
		if g == nil {
			s.gatherCounters()
		}
		legs := s.req.Mode.legs()
		if legs&runsSubstring != 0 {
			if _, err := s.substringLeg(); err != nil {
				return err
			}
		}
		if legs&runsText != 0 {
			if err := s.shardFeedback(o.Feedback); err != nil {
				return err
			}
			if _, err := s.textLeg(s.shardTolerance(o)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.rec.Stats(), nil
}

// shardFeedback sets the terms feedback adds to the text leg, from the
// collection's best text hits and what g holds of them, as Search makes
// them from its text leg's first pass; a shard gathering statistics
// records what it holds of the hits g lacks.
func (s *search) shardFeedback(hits []collection.ShardHit) error {
	if len(hits) == 0 || s.textR == nil {
		return nil
	}
	if s.rec != nil {
		for _, h := range hits {
			if _, ok := s.g.LookupFeedback(h.ID); ok {
				continue
			}
			d, ok, err := s.feedbackDoc(h.ID)
			if err != nil {
				return fmt.Errorf("feedback: %w", err)
			}
			if ok {
				s.rec.PutFeedback(h.ID, d)
			}
		}
	}
	// The query's own terms, as the first pass had them.
	tp, err := s.textPlan(requestTolerance(&s.req))
	if err != nil {
		return err
	}
	s.added, err = s.feedbackTerms(tp, hits, func(id string) (collection.FeedbackDoc, bool, error) {
		d, ok := s.g.LookupFeedback(id)
		return d, ok, nil
	})
	if err != nil {
		return fmt.Errorf("feedback: %w", err)
	}
	return nil
}

// shardTolerance is the tolerance of a shard's text leg: the request's,
// or the fallback's that sharded.Search asks for, which Search makes the
// same way (fallbackTolerance).
func (s *search) shardTolerance(o collection.ShardOptions) *tolerance {
	if !o.Fallback {
		return requestTolerance(&s.req)
	}
	fb := fallbackPass(&s.req, o.Unknown)
	return &fb
}

// SearchShard runs req's legs on this index as a shard of a collection
// whose statistics are g (gathered with Gather; a statistic g lacks is an
// ErrInvalidRequest, never a score made from this shard's own) and lists
// each leg's first o.Depth hits. Order, paging, the fallback's decision,
// expansion and boosts are the caller's (sharded.Search). Cost: the legs of
// a Search, without fusion or snippets.
func (ix *Index) SearchShard(ctx context.Context, req Request, g *collection.Stats, o collection.ShardOptions) (*collection.ShardResult, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: a shard's search needs the collection's statistics", ErrInvalidRequest)
	}
	s, err := ix.shardSearch(ctx, req, g)
	if err != nil {
		return nil, err
	}
	var out *collection.ShardResult
	err = ix.readShard(s, func() error {
		out, err = s.shardLegs(o)
		return err
	})
	return out, err
}

func (s *search) shardLegs(o collection.ShardOptions) (*collection.ShardResult, error) {
	out := &collection.ShardResult{Scores: map[string]map[string]float64{}}
	legs := s.req.Mode.legs()
	var tri []rank.Scored
	var text *textList
	if legs != runsVector {
		if legs&runsText != 0 {
			if err := s.shardFeedback(o.Feedback); err != nil {
				return nil, err
			}
		}
		var err error
		if tri, text, err = s.legs(s.shardTolerance(o)); err != nil {
			return nil, err
		}
		out.Feedback = text != nil && len(o.Feedback) == 0 && s.getsFeedback(text.plan)
	}
	need := s.req.Offset + s.req.Limit
	var vec []rank.Scored
	if legs&runsVector != 0 {
		var err error
		if vec, err = s.vectorLeg(max(need, VectorDepth)); err != nil {
			return nil, fmt.Errorf("vector leg: %w", err)
		}
	}
	depth := max(o.Depth, 1)
	cut := func(n int) int {
		if o.All {
			return n
		}
		return min(n, depth)
	}
	listed := map[string]bool{}
	scores := func(id string) map[string]float64 {
		sc := out.Scores[id]
		if sc == nil {
			sc = map[string]float64{}
			out.Scores[id] = sc
		}
		return sc
	}
	if tri != nil {
		rank.TopScored(tri, cut(len(tri)))
		leg := collection.ShardLeg{Leg: LegSubstring, Total: len(tri), Hits: make([]collection.ShardHit, cut(len(tri)))}
		for i := range leg.Hits {
			leg.Hits[i] = collection.ShardHit{ID: tri[i].ID, Score: tri[i].Score}
			listed[tri[i].ID] = true
		}
		out.Legs = append(out.Legs, leg)
	}
	if vec != nil {
		leg := collection.ShardLeg{Leg: LegVector, Total: len(vec), Hits: make([]collection.ShardHit, len(vec))}
		for i, x := range vec {
			leg.Hits[i] = collection.ShardHit{ID: x.ID, Score: x.Score}
			listed[x.ID] = true
		}
		out.Legs = append(out.Legs, leg)
	}
	out.Matches = len(tri)
	if text != nil {
		// The text scores of the other legs' documents, and how many of
		// the substring leg's the text leg has, before top cuts the list.
		out.Matches += text.Count()
		// A document's text score is under LegFuzzy when the tolerant
		// pass matched it approximately, as its leg is named in Search.
		inText := func(id string) (float64, string, bool, error) {
			iid, err := s.textR.InternalID(id)
			if err != nil || iid == nil {
				return 0, "", false, err
			}
			p, ok := text.Index(iid)
			if !ok {
				return 0, "", false, nil
			}
			return text.Hits[p].Score, text.leg(p), true, nil
		}
		inTri := map[string]bool{}
		for _, x := range tri {
			sc, leg, ok, err := inText(x.ID)
			if err != nil {
				return nil, err
			}
			if ok {
				out.Matches--
				inTri[x.ID] = true
				if listed[x.ID] {
					scores(x.ID)[leg] = sc
				}
			}
		}
		for _, x := range vec {
			if inTri[x.ID] && listed[x.ID] {
				continue
			}
			sc, leg, ok, err := inText(x.ID)
			if err != nil {
				return nil, err
			}
			if ok {
				scores(x.ID)[leg] = sc
			}
		}
		n := cut(len(text.Hits))
		if err := text.Top(n); err != nil {
			return nil, err
		}
		leg := collection.ShardLeg{Leg: LegText, Total: text.Count(), Hits: make([]collection.ShardHit, n)}
		out.Unknown = text.unknown
		for i := range n {
			id, err := text.Resolve(i)
			if err != nil {
				return nil, err
			}
			leg.Hits[i] = collection.ShardHit{ID: id, Score: text.Hits[i].Score, Fuzzy: text.Hits[i].Approx}
			listed[id] = true
			scores(id)[text.leg(i)] = text.Hits[i].Score
		}
		out.Legs = append(out.Legs, leg)
	}
	// Every listed document's scores in the substring and vector legs
	// (its text score is set above).
	triScore := make(map[string]float64, len(tri))
	for _, x := range tri {
		triScore[x.ID] = x.Score
	}
	vecScore := make(map[string]float64, len(vec))
	for _, x := range vec {
		vecScore[x.ID] = x.Score
	}
	for id := range listed {
		sc := scores(id)
		if v, ok := triScore[id]; ok {
			sc[LegSubstring] = v
		}
		if v, ok := vecScore[id]; ok {
			sc[LegVector] = v
		}
	}
	if s.req.Boost != nil {
		out.Attrs = map[string]fusion.Attrs{}
		for id := range listed {
			h, err := s.header(id)
			if err != nil {
				return nil, err
			}
			out.Attrs[id] = fusion.Attrs{Project: h.Project, Session: h.Session, Time: h.Time}
		}
	}
	if o.All {
		out.Times = map[string]int64{}
		for id := range listed {
			h, err := s.header(id)
			if err != nil {
				return nil, err
			}
			out.Times[id] = h.Time.UnixNano()
		}
	}
	return out, nil
}

// RenderShard makes hits of fused hits that are this shard's documents,
// as Search does for its page: stored fields, title, snippet, matchedIn,
// norm and explain. g is the collection's statistics, with which the
// snippet marks the words the search expanded to.
func (ix *Index) RenderShard(ctx context.Context, req Request, g *collection.Stats, o collection.RenderOptions, fused []fusion.Hit) ([]Hit, error) {
	s, err := ix.shardSearch(ctx, req, g)
	if err != nil {
		return nil, err
	}
	var out []Hit
	err = ix.readShard(s, func() error {
		if s.req.Mode.legs()&runsText != 0 {
			if err := s.renderPlans(o); err != nil {
				return err
			}
		}
		s.best = o.Best
		out = make([]Hit, 0, len(fused))
		recs := make([]hitRecord, 0, len(fused))
		for _, f := range fused {
			h, rec, err := s.hit(f)
			if err != nil {
				return err
			}
			out = append(out, h)
			recs = append(recs, rec)
		}
		return s.texts(out, recs)
	})
	return out, err
}

// renderPlans makes the text leg's term tables that the snippets mark, as
// Search made them; with Explain, by running the text leg's passes again
// (with the terms feedback added), whose tallies split a hit's text
// score by field (Explain.Text), scored with the collection's statistics
// as SearchShard scored them. Cost: nothing of the index without
// Explain; with it, the text leg once more (twice after the fallback).
func (s *search) renderPlans(o collection.RenderOptions) error {
	planText := func(tol *tolerance) error {
		if s.req.Explain {
			_, err := s.textLeg(tol)
			return err
		}
		tp, err := s.textPlan(tol)
		if tol == nil {
			s.exactPlan = tp
		} else {
			s.tolPlan = tp
		}
		return err
	}
	if s.req.Explain {
		if err := s.shardFeedback(o.Feedback); err != nil {
			return err
		}
	}
	if err := planText(requestTolerance(&s.req)); err != nil {
		return err
	}
	if o.Fallback {
		return planText(s.shardTolerance(collection.ShardOptions{Fallback: true, Unknown: o.Unknown}))
	}
	return nil
}

// FeedbackDocs is how many of the text leg's best hits pseudo-relevance
// feedback reads: a shard whose collection.ShardResult.Feedback is set lists at
// least these, so the first FeedbackDocs of the merged text leg are the
// collection's.
const FeedbackDocs = 10

// CheckQuery reports the errors of r's query, with their positions, as
// Search reports them, without reading an index: ErrEmptyQuery for a
// query of no words. r is normalized (Request.Normalized).
func (r *Request) CheckQuery() error {
	_, err := parse(r)
	return err
}

// FallbackFor reports whether a search of r whose legs found total
// documents, substring of them in the substring leg, runs the fallback's
// tolerant pass, as Search decides it (Request.Fallback), and whether it
// tolerates only the words that no document holds (unknown: some shard's
// collection.ShardResult.Unknown is set and none holds the word).
func (r *Request) FallbackFor(total, substring int, unknown bool) (run, unknownOnly bool) {
	fb := fallbackTolerance(r, requestTolerance(r), total, substring, unknown)
	if fb == nil {
		return false, false
	}
	return true, fb.unknown
}
