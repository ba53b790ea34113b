package vector

import (
	"cmp"
	"math"
	"math/rand"
	"slices"
	"sync"
)

// hnsw is a Hierarchical Navigable Small World graph (Malkov and Yashunin,
// "Efficient and robust approximate nearest neighbor search using
// Hierarchical Navigable Small World graphs", 2016) over the slots of a
// Set. Distance is the negated dot product of normalized vectors, which
// orders like cosine distance.
//
// It is ours rather than github.com/coder/hnsw because that package's
// v0.6.1 search keeps its result heap with Max() reading the last slice
// element of a binary min-heap, which measured recall@10 of 0.04 on random
// and 0.36 on clustered 5k x 64 data, and its Delete can panic
// (coder/hnsw#10, #13).
//
// Nodes are never removed: a tombstoned slot (Set.ids[s] == "") still
// routes searches but is never a result; the Set compacts and rebuilds the
// graph when tombstones dominate.
//
// Concurrency: insert must be called under the Set's write lock; search
// under at least its read lock. Searches share nothing mutable but the
// visit-set pool.
type hnsw struct {
	v        *Set
	m, m0    int // neighbors kept on upper layers, on layer 0
	efc      int
	levelMul float64
	rng      *rand.Rand

	entry uint32
	top   int // entry's level; -1 while empty

	// bottom is layer 0, flat for locality: slot s owns
	// bottom[s*(m0+1):(s+1)*(m0+1)], a count then up to m0 neighbors.
	bottom []uint32
	// upper[s][l-1] lists s's neighbors on layer l; nil below level 1.
	upper [][][]uint32

	visits sync.Pool // *visitSet, one per concurrent search
}

// cand is a graph node with its distance to the current query.
type cand struct {
	slot uint32
	dist float32
}

func newHNSW(v *Set, o Options) *hnsw {
	return &hnsw{
		v:        v,
		m:        o.M,
		m0:       2 * o.M,
		efc:      max(o.EfConstruction, o.M),
		levelMul: 1 / math.Log(float64(max(o.M, 2))),
		rng:      rand.New(rand.NewSource(o.Seed)),
		top:      -1,
	}
}

// insert links slot s, whose vector is already stored, into the graph.
// Cost: O(efc * m0 * dim * levels) distance work.
func (g *hnsw) insert(s uint32) {
	if need := (int(s) + 1) * (g.m0 + 1); len(g.bottom) < need {
		g.bottom = append(g.bottom, make([]uint32, need-len(g.bottom))...)
	}
	for len(g.upper) <= int(s) {
		g.upper = append(g.upper, nil)
	}
	level := min(int(-math.Log(1-g.rng.Float64())*g.levelMul), 16)
	if level > 0 {
		g.upper[s] = make([][]uint32, level)
	}
	if g.top < 0 {
		g.entry, g.top = s, level
		return
	}
	q := g.v.at(s)
	ep := cand{g.entry, -dot(q, g.v.at(g.entry))}
	for l := g.top; l > level; l-- {
		ep = g.greedy(q, ep, l)
	}
	vs := g.visitSet()
	defer g.visits.Put(vs)
	eps := []cand{ep}
	for l := min(level, g.top); l >= 0; l-- {
		found := g.searchLayer(q, eps, g.efc, l, vs, false)
		limit := g.m
		if l == 0 {
			limit = g.m0
		}
		picked := g.diverse(found, g.m)
		ids := make([]uint32, len(picked))
		for i, c := range picked {
			ids[i] = c.slot
			g.link(c.slot, s, c.dist, l, limit)
		}
		g.setNeighbors(s, l, ids)
		eps = found
	}
	if level > g.top {
		g.entry, g.top = s, level
	}
}

// search returns up to ef live nodes near q, unordered. Cost: roughly
// O(ef * m0 * dim * log n).
func (g *hnsw) search(q []float32, ef int) []cand {
	if g.top < 0 {
		return nil
	}
	ep := cand{g.entry, -dot(q, g.v.at(g.entry))}
	for l := g.top; l > 0; l-- {
		ep = g.greedy(q, ep, l)
	}
	vs := g.visitSet()
	defer g.visits.Put(vs)
	return g.searchLayer(q, []cand{ep}, ef, 0, vs, true)
}

// greedy walks layer l from ep to the nearest node it can reach.
func (g *hnsw) greedy(q []float32, ep cand, l int) cand {
	for moved := true; moved; {
		moved = false
		for _, n := range g.neighbors(ep.slot, l) {
			if d := -dot(q, g.v.at(n)); d < ep.dist {
				ep, moved = cand{n, d}, true
			}
		}
	}
	return ep
}

// searchLayer is the beam search of layer l from eps, keeping the ef
// nearest nodes found. With liveOnly, tombstones are walked through but not
// kept.
func (g *hnsw) searchLayer(q []float32, eps []cand, ef, l int, vs *visitSet, liveOnly bool) []cand {
	vs.reset(len(g.v.ids))
	near := candHeap{}           // frontier, nearest on top
	found := candHeap{far: true} // kept, farthest on top
	for _, e := range eps {
		vs.visit(e.slot)
		near.push(e)
		if !liveOnly || g.v.ids[e.slot] != "" {
			found.push(e)
		}
	}
	for near.len() > 0 {
		c := near.pop()
		if found.len() >= ef && c.dist > found.top().dist {
			break
		}
		for _, n := range g.neighbors(c.slot, l) {
			if vs.visit(n) {
				continue
			}
			d := -dot(q, g.v.at(n))
			if found.len() >= ef && d >= found.top().dist {
				continue
			}
			near.push(cand{n, d})
			if !liveOnly || g.v.ids[n] != "" {
				found.push(cand{n, d})
				if found.len() > ef {
					found.pop()
				}
			}
		}
	}
	return found.c
}

// diverse picks up to m of cands by the paper's heuristic (algorithm 4): a
// candidate is kept only if it is nearer the base than any kept one, which
// spreads links across directions and keeps clusters connected.
func (g *hnsw) diverse(cands []cand, m int) []cand {
	sortCands(cands)
	if len(cands) <= m {
		return cands
	}
	kept := make([]cand, 0, m)
	for _, c := range cands {
		if len(kept) == m {
			break
		}
		cv := g.v.at(c.slot)
		ok := true
		for _, k := range kept {
			if -dot(cv, g.v.at(k.slot)) < c.dist {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, c)
		}
	}
	return kept
}

// link adds to as a neighbor of from on layer l, re-selecting from's
// neighbors when that exceeds limit.
func (g *hnsw) link(from, to uint32, d float32, l, limit int) {
	nb := g.neighbors(from, l)
	if len(nb) < limit {
		g.setNeighbors(from, l, append(nb, to))
		return
	}
	fv := g.v.at(from)
	cands := make([]cand, 0, len(nb)+1)
	for _, n := range nb {
		cands = append(cands, cand{n, -dot(fv, g.v.at(n))})
	}
	cands = append(cands, cand{to, d})
	picked := g.diverse(cands, limit)
	ids := make([]uint32, len(picked))
	for i, c := range picked {
		ids[i] = c.slot
	}
	g.setNeighbors(from, l, ids)
}

// neighbors returns s's neighbors on layer l. The layer-0 slice aliases
// the graph; callers must not keep it across a setNeighbors of s.
func (g *hnsw) neighbors(s uint32, l int) []uint32 {
	if l == 0 {
		off := int(s) * (g.m0 + 1)
		return g.bottom[off+1 : off+1+int(g.bottom[off])]
	}
	return g.upper[s][l-1]
}

func (g *hnsw) setNeighbors(s uint32, l int, ids []uint32) {
	if l == 0 {
		off := int(s) * (g.m0 + 1)
		g.bottom[off] = uint32(copy(g.bottom[off+1:off+1+g.m0], ids))
		return
	}
	g.upper[s][l-1] = append(g.upper[s][l-1][:0], ids...)
}

func (g *hnsw) visitSet() *visitSet {
	if vs, ok := g.visits.Get().(*visitSet); ok {
		return vs
	}
	return &visitSet{}
}

// visitSet marks visited slots by stamping them with a generation, so a
// search clears it in O(1) instead of O(n).
type visitSet struct {
	stamp []uint32
	gen   uint32
}

func (vs *visitSet) reset(n int) {
	if len(vs.stamp) < n {
		vs.stamp = make([]uint32, n+n/4)
		vs.gen = 0
	}
	vs.gen++
	if vs.gen == 0 {
		clear(vs.stamp)
		vs.gen = 1
	}
}

// visit marks s and reports whether it was already marked.
func (vs *visitSet) visit(s uint32) bool {
	if vs.stamp[s] == vs.gen {
		return true
	}
	vs.stamp[s] = vs.gen
	return false
}

// candHeap is a binary heap of candidates, nearest on top, or farthest
// with far.
type candHeap struct {
	c   []cand
	far bool
}

func (h *candHeap) len() int  { return len(h.c) }
func (h *candHeap) top() cand { return h.c[0] }

func (h *candHeap) before(i, j int) bool {
	return (h.c[i].dist < h.c[j].dist) != h.far
}

func (h *candHeap) push(c cand) {
	h.c = append(h.c, c)
	for i := len(h.c) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.before(i, p) {
			break
		}
		h.c[i], h.c[p] = h.c[p], h.c[i]
		i = p
	}
}

func (h *candHeap) pop() cand {
	c := h.c[0]
	last := len(h.c) - 1
	h.c[0] = h.c[last]
	h.c = h.c[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.before(l, m) {
			m = l
		}
		if r < last && h.before(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h.c[i], h.c[m] = h.c[m], h.c[i]
		i = m
	}
	return c
}

// sortCands orders c nearest first, ties by slot for determinism.
func sortCands(c []cand) {
	slices.SortFunc(c, func(a, b cand) int {
		if a.dist != b.dist {
			return cmp.Compare(a.dist, b.dist)
		}
		return cmp.Compare(a.slot, b.slot)
	})
}
