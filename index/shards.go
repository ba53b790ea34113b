package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twindex/twindex/fusion"
)

// Shards is a collection held by several indexes, one shard each, as
// SearchShards reads it. Each method asks every shard once, all at once,
// and returns the answers by shard; a shard that could not answer has a
// nil answer and an error wrapping ErrUnavailable. An implementation
// asks the same copy of a shard throughout one search.
type Shards interface {
	Len() int
	Gather(ctx context.Context, req Request, g *Global, o ShardOptions) ([]*Global, []error)
	Search(ctx context.Context, req Request, g *Global, o ShardOptions) ([]*ShardResult, []error)
	// Render renders each shard's hits of a page (RenderShard), by shard.
	Render(ctx context.Context, req Request, g *Global, o RenderOptions, hits map[int][]fusion.Hit) (map[int][]Hit, error)
}

// ErrUnavailable is returned, wrapped, by a Shards implementation for a
// shard that did not answer: SearchShards leaves it out and says so
// (Result.Partial).
var ErrUnavailable = errors.New("index: shard unavailable")

// firstDepth is how many hits per leg a shard lists on the first try,
// for a page that needs the first need: usually enough for one try. A
// variable for the tests, which make every search deepen.
var firstDepth = func(need int) int { return max(2*need, 50) }

// SearchShards runs req on a collection held by shards and returns what
// Search on one index of all their documents returns: the same hits in
// the same order with the same scores, the same totals, snippets and
// explain, opts being every shard's index options (nil: defaults). It
// gathers the collection's statistics (Gather), has every shard score its
// legs with them and list its first hits (SearchShard), and fuses the
// legs with RRF as Search does; when a shard's list is too short to be
// sure of the fused page (a document it did not list could still rank
// on it), it asks again for four times as many. Then the shards render
// the page's hits (RenderShard).
//
// A shard that does not answer is left out: Result.Partial names it and
// a warning says so. Not offered: DidYouMean (a suggestion is spelled
// as a document holding the word spells it, which differs by shard).
// Not exact across shards: the vector leg with HNSW (each shard's graph
// is approximate on its own). Expand and Under are
// refused (ErrInvalidRequest): links and parents cross shards. Rerank is
// the caller's.
//
// Cost: two to four calls to every shard (statistics, legs, and more
// statistics passes when a word stands for its completions or its
// neighbours), one more per deepening, as many again for feedback (a
// query of five words or more, whose statistics then carry the term
// counts of its 10 best documents' first 16 KiB of title and body) and
// for the fallback, one to each shard on the page.
func SearchShards(ctx context.Context, sh Shards, req Request, opts *Options) (*Result, error) {
	req, err := req.normalized()
	if err != nil {
		return nil, err
	}
	if req.Expand != nil {
		return nil, fmt.Errorf("%w: expand is not available on a search of shards (links cross shards)", ErrInvalidRequest)
	}
	if req.Under != "" {
		return nil, fmt.Errorf("%w: under is not available on a search of shards (a document's parent may be on another shard)", ErrInvalidRequest)
	}
	if req.Mode.legs()&runsVector != 0 && len(req.Vector) == 0 {
		return nil, fmt.Errorf("%w: mode %s on a search of shards needs Request.Vector", ErrInvalidRequest, req.Mode)
	}
	// The query's errors, with their positions, before any shard is asked.
	if _, err := parse(&req); err != nil && !(err == ErrEmptyQuery && req.Mode == ModeVector) {
		return nil, err
	}
	o := opts.withDefaults()
	c := &coordinator{sh: sh, req: req, opts: o, out: map[int]bool{}, need: req.Offset + req.Limit}
	return c.run(ctx)
}

// coordinator is the state of one SearchShards call.
type coordinator struct {
	sh   Shards
	req  Request
	opts Options
	need int
	out  map[int]bool // shards left out
	res  Result
}

// keep records the shards that failed and returns the first error that
// is not a shard's absence.
func (c *coordinator) keep(errs []error) error {
	for i, err := range errs {
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		if !c.out[i] {
			c.out[i] = true
			c.res.Warnings = append(c.res.Warnings, fmt.Sprintf("shard %d did not answer: its documents are missing from this result (%v)", i, err))
		}
	}
	return nil
}

// gather collects the collection's statistics for req, pass after pass,
// from the shards that answer.
func (c *coordinator) gather(ctx context.Context, o ShardOptions) (*Global, error) {
	var g *Global
	for pass := 0; ; pass++ {
		parts, errs := c.sh.Gather(ctx, c.req, g, o)
		if err := c.keep(errs); err != nil {
			return nil, err
		}
		next := &Global{}
		keys := -1
		for i, p := range parts {
			if c.out[i] || p == nil {
				continue
			}
			// Every shard asks the same questions of the same statistics;
			// a shard that asks others would make partial sums.
			if keys >= 0 && p.Keys() != keys {
				return nil, fmt.Errorf("search: shards gathered different statistics (%d and %d keys)", keys, p.Keys())
			}
			keys = p.Keys()
			next.Add(p)
		}
		if g == nil {
			g = next
		} else if keys > 0 {
			g.Add(next)
		}
		if pass > 0 && keys <= 0 {
			return g, nil
		}
		if pass == 4 {
			return nil, errors.New("search: the shards' statistics did not settle in five passes")
		}
	}
}

func (c *coordinator) run(ctx context.Context) (*Result, error) {
	g, err := c.gather(ctx, ShardOptions{})
	if err != nil {
		return nil, err
	}
	fused, total, parts, err := c.fuse(ctx, g, ShardOptions{})
	if err != nil {
		return nil, err
	}
	res := &c.res
	res.Mode = c.req.Mode
	if !parts.vector && c.req.Mode.legs()&runsVector != 0 {
		res.Mode = c.req.Mode.without(runsVector)
		res.Warnings = append(res.Warnings, "no document has a vector, searched by keywords only")
	}
	var fo ShardOptions
	if parts.feedback && len(parts.best) > 0 {
		// Feedback, from the collection's best text hits: their text is
		// read on their shards (Global.Feedback), and the text leg runs
		// again with the terms they add.
		fo.Feedback = parts.best
		if g, err = c.gather(ctx, fo); err != nil {
			return nil, err
		}
		if fused, total, parts, err = c.fuse(ctx, g, fo); err != nil {
			return nil, err
		}
	}
	// The fallback, decided as Search decides it, from the collection's
	// total and words; its tolerant pass ranks the text leg again.
	fb := fallbackTolerance(&c.req, requestTolerance(&c.req), total, parts.unknown)
	if fb != nil {
		fo.Fallback, fo.Unknown = true, fb.unknown
		if g, err = c.gather(ctx, fo); err != nil {
			return nil, err
		}
		if fused, total, parts, err = c.fuse(ctx, g, fo); err != nil {
			return nil, err
		}
	}
	res.Tolerant = fb != nil || requestTolerance(&c.req) != nil && c.req.Mode.legs()&runsText != 0
	if b := c.req.Boost; b != nil && c.req.Order == OrderScore {
		fb := *b
		if fb.Now.IsZero() {
			fb.Now = time.Now()
		}
		if len(c.req.Projects) > 0 {
			fb.Project = ""
		}
		if fused, err = fusion.ApplyBoost(fused, fb, func(id string) (fusion.Attrs, error) { return parts.attrs[id], nil }); err != nil {
			return nil, err
		}
	}
	best := 0.0
	if len(fused) > 0 {
		best = fused[0].Score
	}
	page, _ := fusion.Page(fused, c.req.Offset, c.req.Limit)
	res.Total = total
	if end := c.req.Offset + c.req.Limit; end < total {
		res.NextOffset = &end
	}
	byShard := map[int][]fusion.Hit{}
	for _, f := range page {
		s := parts.shardOf[f.ID]
		byShard[s] = append(byShard[s], f)
	}
	rendered, err := c.sh.Render(ctx, c.req, g, RenderOptions{Best: best, Fallback: fo.Fallback, Unknown: fo.Unknown, Feedback: fo.Feedback}, byShard)
	if err != nil {
		return nil, err
	}
	res.Hits = make([]Hit, 0, len(page))
	next := map[int]int{}
	for _, f := range page {
		s := parts.shardOf[f.ID]
		hs := rendered[s]
		if next[s] >= len(hs) {
			return nil, fmt.Errorf("search: shard %d rendered %d hits of %d", s, len(hs), len(byShard[s]))
		}
		res.Hits = append(res.Hits, hs[next[s]])
		next[s]++
	}
	for s := range c.out {
		res.Partial = append(res.Partial, s)
	}
	slices.Sort(res.Partial)
	return res, nil
}

// fused is what fuse learned besides the fused hits.
type fusedParts struct {
	shardOf map[string]int          // each listed document's shard
	attrs   map[string]fusion.Attrs // for Boost
	vector  bool                    // some shard ran the vector leg
	unknown bool                    // some word of the query is in no document (ShardResult.Unknown)
	// feedback: the query gets feedback (ShardResult.Feedback), from
	// best, the text leg's first hits.
	feedback bool
	best     []ShardHit
}

// fuse asks the shards for their legs, deeper until the first c.need
// fused hits are certain (all of them for another order than by score),
// and returns them, in order, with the number of matching documents.
func (c *coordinator) fuse(ctx context.Context, g *Global, o ShardOptions) ([]fusion.Hit, int, *fusedParts, error) {
	depth := firstDepth(c.need)
	// Another order than by score needs every hit; so does a boost, which
	// Search applies to every hit of the substring and vector legs.
	all := c.req.Order != OrderScore || c.req.Boost != nil
	for {
		o.Depth, o.All = depth, all
		parts, errs := c.sh.Search(ctx, c.req, g, o)
		if err := c.keep(errs); err != nil {
			return nil, 0, nil, err
		}
		m := newMerge(c, parts)
		hits, total, ok := m.top()
		if ok {
			return hits, total, m.parts, nil
		}
		if m.longest <= depth {
			return nil, 0, nil, errors.New("search: shards listed every hit and the fused page is still uncertain")
		}
		depth *= 4
	}
}

func sortByTime(hits []fusion.Hit, times map[string]int64, order Order) {
	slices.SortFunc(hits, func(a, b fusion.Hit) int {
		c := cmp.Compare(times[a.ID], times[b.ID])
		if order == OrderDateDesc {
			c = -c
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
