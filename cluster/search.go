//go:build !js

package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/sharded"
)

// searchArgs are the arguments of the calls a search makes to a shard.
type searchArgs struct {
	Req    index.Request             `json:"req"`
	G      *collection.Stats         `json:"g,omitempty"`
	O      collection.ShardOptions   `json:"o"`
	Render *collection.RenderOptions `json:"render,omitempty"`
	Hits   []fusion.Hit              `json:"hits,omitempty"`
}

// searchHandlers answer a search's calls on one shard.
func searchHandlers(h map[string]handler) {
	decode := func(args json.RawMessage) (*searchArgs, error) {
		var a searchArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, fmt.Errorf("bad search call: %w", err)
		}
		return &a, nil
	}
	h["gather"] = func(ctx context.Context, sh *shard, args json.RawMessage) (any, error) {
		a, err := decode(args)
		if err != nil {
			return nil, err
		}
		return sh.ix.Gather(ctx, a.Req, a.G, a.O)
	}
	h["search"] = func(ctx context.Context, sh *shard, args json.RawMessage) (any, error) {
		a, err := decode(args)
		if err != nil {
			return nil, err
		}
		return sh.ix.SearchShard(ctx, a.Req, a.G, a.O)
	}
	h["render"] = func(ctx context.Context, sh *shard, args json.RawMessage) (any, error) {
		a, err := decode(args)
		if err != nil || a.Render == nil {
			return nil, errors.Join(err, errors.New("bad render call"))
		}
		return sh.ix.RenderShard(ctx, a.Req, a.G, *a.Render, a.Hits)
	}
}

// shards is the collection as one search sees it (sharded.Collection): each
// shard is asked on the replica that answered its first call, so that
// one search reads one copy of it.
type shards struct {
	n      *Node
	minSeq uint64

	mu   sync.Mutex
	pins []string // by shard, the node that answers it; "" until the first answer
}

func (s *shards) Len() int { return s.n.shards }

// call asks every shard at once, each on its pinned replica, and returns
// the answers; a shard that did not answer wraps sharded.ErrUnavailable.
func askAll[T any](ctx context.Context, s *shards, op string, args func(shard int) *searchArgs) ([]T, []error) {
	s.mu.Lock()
	pins := append([]string(nil), s.pins...)
	s.mu.Unlock()
	rs := fanOut[T](ctx, s.n, call{Op: op, MinSeq: s.minSeq}, pins, func(i int) any { return args(i) })
	out, errs := make([]T, len(rs)), make([]error, len(rs))
	s.mu.Lock()
	for i, r := range rs {
		out[i], errs[i] = r.val, r.err
		if errors.Is(r.err, ErrUnavailable) {
			errs[i] = fmt.Errorf("%w: %w", sharded.ErrUnavailable, r.err)
		}
		if r.err == nil && s.pins[i] == "" {
			s.pins[i] = r.node
		}
	}
	s.mu.Unlock()
	return out, errs
}

func (s *shards) Gather(ctx context.Context, req index.Request, g *collection.Stats, o collection.ShardOptions) ([]*collection.Stats, []error) {
	return askAll[*collection.Stats](ctx, s, "gather", func(int) *searchArgs { return &searchArgs{Req: req, G: g, O: o} })
}

func (s *shards) Search(ctx context.Context, req index.Request, g *collection.Stats, o collection.ShardOptions) ([]*collection.ShardResult, []error) {
	return askAll[*collection.ShardResult](ctx, s, "search", func(int) *searchArgs { return &searchArgs{Req: req, G: g, O: o} })
}

func (s *shards) Render(ctx context.Context, req index.Request, g *collection.Stats, o collection.RenderOptions, hits map[int][]fusion.Hit) (map[int][]index.Hit, error) {
	type result struct {
		shard int
		hits  []index.Hit
		err   error
	}
	done := make(chan result, len(hits))
	for sh, hs := range hits {
		go func() {
			s.mu.Lock()
			pin := s.pins[sh]
			s.mu.Unlock()
			args, err := json.Marshal(&searchArgs{Req: req, G: g, Render: &o, Hits: hs})
			r := result{shard: sh, err: err}
			if err == nil {
				_, r.err = s.n.callShard(ctx, sh, pin, call{Op: "render", MinSeq: s.minSeq, Args: args}, &r.hits)
			}
			done <- r
		}()
	}
	out := map[int][]index.Hit{}
	var errs []error
	for range hits {
		r := <-done
		out[r.shard] = r.hits
		if r.err != nil {
			errs = append(errs, fmt.Errorf("shard %d: %w", r.shard, r.err))
		}
	}
	return out, errors.Join(errs...)
}

// Search runs req on the whole cluster: sharded.Search over one
// replica of every shard, so the result is the one an index of all the
// documents would give, or names the shards no replica answered
// (Result.Partial). A replica that fails between the calls of one search
// (its node stopped) makes the search start over once on the others.
// With req.MinSeq (a write's Applied.Seq), each shard answers once its
// replica has applied the stream that far: the search reads that write
// and every one before it.
func (n *Node) Search(ctx context.Context, req index.Request) (*index.Result, error) {
	var res *index.Result
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		s := &shards{n: n, minSeq: req.MinSeq, pins: make([]string, n.shards)}
		res, err = sharded.Search(ctx, s, req, n.opts.Index)
		if err == nil || !errors.Is(err, ErrUnavailable) {
			break
		}
	}
	return res, err
}
