package index

import (
	"context"
	"fmt"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/storage"
)

// An index can hold one shard of a collection that several indexes hold
// between them (package cluster spreads one over machines). A search of
// the collection (SearchShards) asks each shard three things, each of
// which this file answers for one index:
//
//   - Gather: the shard's part of the statistics the search scores with
//     (Global). They are sums, so the caller adds the parts; a second
//     pass gathers what depends on the first (the documents holding any
//     of a prefix's completions, which the first pass chose).
//   - SearchShard: the shard's legs, scored with the collection's
//     statistics, so that a document scores as it would in one index of
//     every document: each leg's first hits, exact totals, and every
//     listed document's score in the other legs.
//   - RenderShard: the hits of a page that are the shard's documents,
//     with their snippets.

// ShardOptions say what SearchShard and Gather return.
type ShardOptions struct {
	// Depth is how many hits of each leg to list: the first Depth by
	// score. The vector leg lists its whole ranking.
	Depth int `json:"depth"`
	// All lists every hit of every leg with its time: for an order other
	// than by score.
	All bool `json:"all,omitempty"`
	// Fallback runs the tolerant pass of the fallback (the collection
	// found fewer exact hits than Request.Fallback).
	Fallback bool `json:"fallback,omitempty"`
}

// ShardResult is one shard's answer to SearchShard.
type ShardResult struct {
	// Legs are the exact legs that ran, each with its first hits.
	Legs []ShardLeg `json:"legs"`
	// Matches is the number of documents the substring or text leg
	// matched (the vector leg's are counted by the caller, which knows
	// which of them are in the collection's first ranks).
	Matches int `json:"matches"`
	// Tolerant is the tolerant pass's list, less the exact matches: with
	// Request.Fuzzy or ShardOptions.Fallback.
	Tolerant *ShardLeg `json:"tolerant,omitempty"`
	// Scores are, for each listed document, its scores in every leg that
	// matched it.
	Scores map[string]map[string]float64 `json:"scores"`
	// Times are the listed documents' times (Unix nanoseconds), with
	// ShardOptions.All.
	Times map[string]int64 `json:"times,omitempty"`
	// Attrs are the listed documents' project, session and time, when the
	// request boosts.
	Attrs map[string]fusion.Attrs `json:"attrs,omitempty"`
}

// ShardLeg is one leg's first hits on one shard.
type ShardLeg struct {
	Leg   string     `json:"leg"`
	Total int        `json:"total"` // the leg's matches on the shard
	Hits  []ShardHit `json:"hits"`  // by score, best first, ties by ID
}

// ShardHit is a document and its score in one leg.
type ShardHit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// shardSearch prepares a search of req on this index as a shard: the
// request normalized and parsed, the query vector given.
func (ix *Index) shardSearch(ctx context.Context, req Request, g *Global) (*search, error) {
	req, err := req.normalized()
	if err != nil {
		return nil, err
	}
	if req.Mode.legs()&runsVector != 0 {
		if len(req.Vector) == 0 {
			return nil, fmt.Errorf("%w: a search of shards with the vector leg needs Request.Vector", ErrInvalidRequest)
		}
		if ok, err := ix.loadVectors(); err != nil {
			return nil, fmt.Errorf("search: vectors: %w", err)
		} else if !ok {
			req.Mode = req.Mode.without(runsVector) // no vector here: the leg has nothing of this shard
			if req.Mode == ModeAuto && req.Mode.legs() == 0 {
				req.Mode = ModeVector
			}
		}
	}
	p, err := parse(&req)
	if err == ErrEmptyQuery && req.Mode == ModeVector {
		p, err = &plan{byNode: map[query.Node]*leaf{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return &search{ix: ix, ctx: ctx, req: req, plan: p, qvec: req.Vector, g: g}, nil
}

// readShard runs fn on a search's state of the index: the readers of the
// legs its mode runs and the store.
func (ix *Index) readShard(s *search, fn func() error) error {
	defer func() {
		for _, sl := range s.slots {
			sl.Release()
		}
	}()
	err := ix.read(readsIndexes, func(textR, triR bleveindex.IndexReader, tx storage.Tx) (err error) {
		defer ix.guard(&err)
		s.tx, s.allTextR, s.allTriR = tx, textR, triR
		if s.req.Mode.legs()&runsText != 0 {
			s.textR = textR
		}
		if s.req.Mode.legs()&runsSubstring != 0 {
			s.triR = triR
		}
		s.n = float64(s.counter(metaDocs))
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
// new (Global.Keys); usually two passes. The first pass also returns the
// document counts and lengths. With o.Fallback it gathers for the
// fallback's tolerant pass too. Cost: the search's legs without the
// verification of substring candidates.
func (ix *Index) Gather(ctx context.Context, req Request, g *Global, o ShardOptions) (*Global, error) {
	s, err := ix.shardSearch(ctx, req, g)
	if err != nil {
		return nil, err
	}
	s.rec = &recorder{}
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
			var tol *tolerance
			if s.req.Fuzzy != FuzzyOff {
				tol = &tolerance{fuzzy: s.req.Fuzzy}
			}
			if _, _, err := s.textLeg(tol, nil); err != nil {
				return err
			}
			if o.Fallback {
				if _, _, err := s.textLeg(s.fallbackTolerance(), nil); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &s.rec.g, nil
}

// fallbackTolerance is what the fallback's tolerant pass adds to each
// word: fuzzy auto unless the request asks otherwise, and prefixes.
func (s *search) fallbackTolerance() *tolerance {
	tol := &tolerance{fuzzy: s.req.Fuzzy, prefix: true}
	if tol.fuzzy == FuzzyOff {
		tol.fuzzy = FuzzyAuto
	}
	return tol
}

// SearchShard runs req's legs on this index as a shard of a collection
// whose statistics are g (gathered with Gather; a statistic g lacks is an
// ErrInvalidRequest, never a score made from this shard's own) and lists
// each leg's first o.Depth hits. Order, paging, the fallback's decision,
// expansion and boosts are the caller's (SearchShards). Cost: the legs of
// a Search, without fusion or snippets.
func (ix *Index) SearchShard(ctx context.Context, req Request, g *Global, o ShardOptions) (*ShardResult, error) {
	if g == nil {
		return nil, fmt.Errorf("%w: a shard's search needs the collection's statistics", ErrInvalidRequest)
	}
	s, err := ix.shardSearch(ctx, req, g)
	if err != nil {
		return nil, err
	}
	var out *ShardResult
	err = ix.readShard(s, func() error {
		out, err = s.shardLegs(o)
		return err
	})
	return out, err
}

func (s *search) shardLegs(o ShardOptions) (*ShardResult, error) {
	out := &ShardResult{Scores: map[string]map[string]float64{}}
	legs := s.req.Mode.legs()
	var tri []scored
	var text, tolerant *textList
	if legs != runsVector {
		var err error
		if tri, text, tolerant, err = s.legs(); err != nil {
			return nil, err
		}
	}
	need := s.req.Offset + s.req.Limit
	var vec []scored
	if legs&runsVector != 0 {
		var err error
		if vec, err = s.vectorLeg(max(need, vectorDepth)); err != nil {
			return nil, fmt.Errorf("vector leg: %w", err)
		}
	}
	if legs&runsText != 0 && (tolerant != nil || o.Fallback) {
		skip, err := s.exactIIDs(tri, text)
		if err != nil {
			return nil, err
		}
		if o.Fallback {
			if _, tolerant, err = s.textLeg(s.fallbackTolerance(), skip); err != nil {
				return nil, fmt.Errorf("tolerant pass: %w", err)
			}
		}
		tolerant.hits = slices.DeleteFunc(tolerant.hits, func(h textHit) bool { return skip[tolerant.iid(&h)] })
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
		leg := ShardLeg{Leg: LegSubstring, Total: len(tri), Hits: make([]ShardHit, cut(len(tri)))}
		for i := range leg.Hits {
			leg.Hits[i] = ShardHit{tri[i].id, tri[i].score}
			listed[tri[i].id] = true
		}
		out.Legs = append(out.Legs, leg)
	}
	if vec != nil {
		leg := ShardLeg{Leg: LegVector, Total: len(vec), Hits: make([]ShardHit, len(vec))}
		for i, x := range vec {
			leg.Hits[i] = ShardHit{x.id, x.score}
			listed[x.id] = true
		}
		out.Legs = append(out.Legs, leg)
	}
	out.Matches = len(tri)
	if text != nil {
		// The text scores of the other legs' documents, and how many of
		// the substring leg's the text leg has, before top cuts the list.
		out.Matches += text.count()
		inText := func(id string) (float64, bool, error) {
			iid, err := s.textR.InternalID(id)
			if err != nil || iid == nil {
				return 0, false, err
			}
			p, ok := text.hitIndex(iid)
			if !ok {
				return 0, false, nil
			}
			return text.hits[p].score, true, nil
		}
		for _, x := range tri {
			sc, ok, err := inText(x.id)
			if err != nil {
				return nil, err
			}
			if ok {
				out.Matches--
				if listed[x.id] {
					scores(x.id)[LegText] = sc
				}
			}
		}
		for _, x := range vec {
			if _, done := out.Scores[x.id][LegText]; done {
				continue
			}
			sc, ok, err := inText(x.id)
			if err != nil {
				return nil, err
			}
			if ok {
				scores(x.id)[LegText] = sc
			}
		}
		n := cut(len(text.hits))
		if err := text.top(n); err != nil {
			return nil, err
		}
		leg := ShardLeg{Leg: LegText, Total: text.count(), Hits: make([]ShardHit, n)}
		for i := range n {
			id, err := text.resolve(i)
			if err != nil {
				return nil, err
			}
			leg.Hits[i] = ShardHit{id, text.hits[i].score}
			listed[id] = true
			scores(id)[LegText] = text.hits[i].score
		}
		out.Legs = append(out.Legs, leg)
	}
	// Every listed document's scores in the substring and vector legs
	// (its text score is set above).
	triScore := make(map[string]float64, len(tri))
	for _, x := range tri {
		triScore[x.id] = x.score
	}
	vecScore := make(map[string]float64, len(vec))
	for _, x := range vec {
		vecScore[x.id] = x.score
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
	if tolerant != nil {
		total := len(tolerant.hits)
		n := cut(total)
		if err := tolerant.top(n); err != nil {
			return nil, err
		}
		leg := &ShardLeg{Leg: LegFuzzy, Total: total, Hits: make([]ShardHit, n)}
		for i := range n {
			id, err := tolerant.resolve(i)
			if err != nil {
				return nil, err
			}
			leg.Hits[i] = ShardHit{id, tolerant.hits[i].score}
		}
		out.Tolerant = leg
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
		if tolerant != nil {
			for _, h := range out.Tolerant.Hits {
				hd, err := s.header(h.ID)
				if err != nil {
					return nil, err
				}
				out.Times[h.ID] = hd.Time.UnixNano()
			}
		}
	}
	return out, nil
}

// RenderOptions say how RenderShard renders hits.
type RenderOptions struct {
	Best     float64 `json:"best"`               // the page's best score, for Hit.Norm: the collection's first hit's
	Fallback bool    `json:"fallback,omitempty"` // the fallback's tolerant pass ran: its words mark fuzzy hits
}

// RenderShard makes hits of fused hits that are this shard's documents,
// as Search does for its page: stored fields, title, snippet, matchedIn,
// norm and explain. g is the collection's statistics, with which the
// snippet marks the words the search expanded to.
func (ix *Index) RenderShard(ctx context.Context, req Request, g *Global, o RenderOptions, fused []fusion.Hit) ([]Hit, error) {
	s, err := ix.shardSearch(ctx, req, g)
	if err != nil {
		return nil, err
	}
	var out []Hit
	err = ix.readShard(s, func() error {
		if s.req.Mode.legs()&runsText != 0 {
			if err := s.renderPlans(o.Fallback); err != nil {
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
// Search made them; with Explain, by running the text leg's passes again,
// whose tallies split a hit's text score by field (Explain.Text), scored
// with the collection's statistics as SearchShard scored them. Cost:
// nothing of the index without Explain; with it, the text leg once more.
func (s *search) renderPlans(fallback bool) error {
	plan := func(tol *tolerance) error {
		if s.req.Explain {
			_, _, err := s.textLeg(tol, nil)
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
	var tol *tolerance
	if s.req.Fuzzy != FuzzyOff {
		tol = &tolerance{fuzzy: s.req.Fuzzy}
	}
	if err := plan(tol); err != nil {
		return err
	}
	if fallback {
		return plan(s.fallbackTolerance())
	}
	return nil
}
