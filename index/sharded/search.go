// Package sharded searches a collection that several indexes hold, one
// shard each, and returns what index.Search on one index of all their
// documents returns: the same hits in the same order with the same
// scores, the same totals, snippets and explain. It is the coordinator's
// side of the shard protocol whose other side is *index.Index's Gather,
// SearchShard and RenderShard; package cluster runs it over machines,
// and the tests over indexes in one process.
//
// Invariants: the shards score with the collection's statistics, which
// Search gathers first, so a document's leg scores do not depend on the
// shard holding it; a fused page is returned only when every document
// that could rank on it has been listed (else the shards are asked for
// more), so the page is exact, not approximate.
//
// Concurrency: Search may be called from many goroutines at once; each
// call is one coordinator whose state is its own.
package sharded

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/index/collection"
)

// Collection is a collection held by several indexes, one shard each, as
// Search reads it. Each method asks every shard once, all at once,
// and returns the answers by shard; a shard that could not answer has a
// nil answer and an error wrapping ErrUnavailable. An implementation
// asks the same copy of a shard throughout one search.
type Collection interface {
	Len() int
	Gather(ctx context.Context, req index.Request, g *collection.Stats, o collection.ShardOptions) ([]*collection.Stats, []error)
	Search(ctx context.Context, req index.Request, g *collection.Stats, o collection.ShardOptions) ([]*collection.ShardResult, []error)
	// Render renders each shard's hits of a page (RenderShard), by shard.
	Render(ctx context.Context, req index.Request, g *collection.Stats, o collection.RenderOptions, hits map[int][]fusion.Hit) (map[int][]index.Hit, error)
}

// ErrUnavailable is returned, wrapped, by a Collection for a shard that
// did not answer: Search leaves it out and says so
// (Result.Partial).
var ErrUnavailable = errors.New("sharded: shard unavailable")

// firstDepth is how many hits per leg a shard lists on the first try,
// for a page that needs the first need: usually enough for one try. A
// variable for the tests, which make every search deepen.
var firstDepth = func(need int) int { return max(2*need, 50) }

// Search runs req on a collection held by shards and returns what
// index.Search on one index of all their documents returns: the same hits in
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
// refused (index.ErrInvalidRequest): links and parents cross shards. Rerank is
// the caller's.
//
// Cost: two to four calls to every shard (statistics, legs, and more
// statistics passes when a word stands for its completions or its
// neighbours), one more per deepening, as many again for feedback (a
// query of five words or more, whose statistics then carry the term
// counts of its 10 best documents' first 16 KiB of title and body) and
// for the fallback, one to each shard on the page.
func Search(ctx context.Context, sh Collection, req index.Request, opts *index.Options) (*index.Result, error) {
	req, err := req.Normalized()
	if err != nil {
		return nil, err
	}
	if req.Expand != nil {
		return nil, fmt.Errorf("%w: expand is not available on a search of shards (links cross shards)", index.ErrInvalidRequest)
	}
	if req.Under != "" {
		return nil, fmt.Errorf("%w: under is not available on a search of shards (a document's parent may be on another shard)", index.ErrInvalidRequest)
	}
	if req.Mode.Runs(index.LegVector) && len(req.Vector) == 0 {
		return nil, fmt.Errorf("%w: mode %s on a search of shards needs Request.Vector", index.ErrInvalidRequest, req.Mode)
	}
	// The query's errors, with their positions, before any shard is asked.
	if err := req.CheckQuery(); err != nil && !(err == index.ErrEmptyQuery && req.Mode == index.ModeVector) {
		return nil, err
	}
	o := opts.WithDefaults()
	c := &coordinator{sh: sh, req: req, opts: o, out: map[int]bool{}, need: req.Offset + req.Limit}
	return c.run(ctx)
}

// coordinator is the state of one Search call.
type coordinator struct {
	sh   Collection
	req  index.Request
	opts index.Options
	need int
	out  map[int]bool // shards left out
	res  index.Result
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
func (c *coordinator) gather(ctx context.Context, o collection.ShardOptions) (*collection.Stats, error) {
	var g *collection.Stats
	for pass := 0; ; pass++ {
		parts, errs := c.sh.Gather(ctx, c.req, g, o)
		if err := c.keep(errs); err != nil {
			return nil, err
		}
		next := &collection.Stats{}
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

func (c *coordinator) run(ctx context.Context) (*index.Result, error) {
	g, err := c.gather(ctx, collection.ShardOptions{})
	if err != nil {
		return nil, err
	}
	fused, total, parts, err := c.fuse(ctx, g, collection.ShardOptions{})
	if err != nil {
		return nil, err
	}
	res := &c.res
	res.Mode = c.req.Mode
	if !parts.vector && c.req.Mode.Runs(index.LegVector) {
		res.Mode = c.req.Mode.WithoutVector()
		res.Warnings = append(res.Warnings, "no document has a vector, searched by keywords only")
	}
	var fo collection.ShardOptions
	if parts.feedback && len(parts.best) > 0 {
		// Feedback, from the collection's best text hits: their text is
		// read on their shards (collection.Stats.Feedback), and the text leg runs
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
	fallback, unknownOnly := c.req.FallbackFor(total, parts.substring, parts.unknown)
	if fallback {
		fo.Fallback, fo.Unknown = true, unknownOnly
		if g, err = c.gather(ctx, fo); err != nil {
			return nil, err
		}
		if fused, total, parts, err = c.fuse(ctx, g, fo); err != nil {
			return nil, err
		}
	}
	res.Tolerant = fallback || c.req.Fuzzy != index.FuzzyOff && c.req.Mode.Runs(index.LegText)
	if b := c.req.Boost; b != nil && c.req.Order == index.OrderScore {
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
	rendered, err := c.sh.Render(ctx, c.req, g, collection.RenderOptions{Best: best, Fallback: fo.Fallback, Unknown: fo.Unknown, Feedback: fo.Feedback}, byShard)
	if err != nil {
		return nil, err
	}
	res.Hits = make([]index.Hit, 0, len(page))
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
	shardOf   map[string]int          // each listed document's shard
	attrs     map[string]fusion.Attrs // for Boost
	vector    bool                    // some shard ran the vector leg
	unknown   bool                    // some word of the query is in no document (collection.ShardResult.Unknown)
	substring int                     // the substring leg's matches, the shards' summed
	// feedback: the query gets feedback (collection.ShardResult.Feedback), from
	// best, the text leg's first hits.
	feedback bool
	best     []collection.ShardHit
}

// fuse asks the shards for their legs, deeper until the first c.need
// fused hits are certain (all of them for another order than by score),
// and returns them, in order, with the number of matching documents.
func (c *coordinator) fuse(ctx context.Context, g *collection.Stats, o collection.ShardOptions) ([]fusion.Hit, int, *fusedParts, error) {
	depth := firstDepth(c.need)
	// Another order than by score needs every hit; so does a boost, which
	// Search applies to every hit of the substring and vector legs.
	all := c.req.Order != index.OrderScore || c.req.Boost != nil
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

func sortByTime(hits []fusion.Hit, times map[string]int64, order index.Order) {
	slices.SortFunc(hits, func(a, b fusion.Hit) int {
		c := cmp.Compare(times[a.ID], times[b.ID])
		if order == index.OrderDateDesc {
			c = -c
		}
		if c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
