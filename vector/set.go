package vector

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Set is an in-memory set of vectors of one dimension, keyed by ID,
// searched by cosine similarity. A Set may be used from many goroutines;
// the package doc says which calls exclude which.
type Set struct {
	mu    sync.RWMutex
	dim   int
	opts  Options
	chunk int // slots per chunk

	// chunks hold the vectors, slot s at chunks[s/chunk][(s%chunk)*dim:].
	// A chunk never moves once allocated, so the graph and scans can hold
	// subslices of it; appending a chunk never copies the old ones.
	chunks [][]float32
	ids    []string          // by slot; "" marks a tombstone
	slot   map[string]uint32 // live ID -> slot
	dead   int               // tombstones among ids

	graph *hnsw // nil until the set outgrows ExactMax
}

// Options configures a Set. The zero value means defaults.
type Options struct {
	// ExactMax is the largest set searched by exact scan; a larger set
	// builds an HNSW graph. 0 means 20,000, where an exact scan of 384-dim
	// vectors takes a few milliseconds; negative means always exact.
	ExactMax int

	// M is the number of graph neighbors kept per node (2*M on the bottom
	// layer). More raises recall, memory and build time. 0 means 16.
	M int

	// EfConstruction is the candidate list size while inserting into the
	// graph. More raises recall and build time. 0 means 100.
	EfConstruction int

	// EfSearch is the candidate list size while searching the graph; a
	// search uses max(EfSearch, k). More raises recall and latency.
	// 0 means 128.
	EfSearch int

	// Seed seeds the graph's level generator, for reproducible graphs.
	Seed int64
}

// Hit is one result of Set.Search.
type Hit struct {
	ID    string
	Score float64 // cosine similarity in [-1, 1]
}

// New returns an empty set of dim-dimensional vectors. opts may be nil
// for defaults. It returns an error wrapping ErrInvalidDim for a dim below
// 1.
func New(dim int, opts *Options) (*Set, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("%w: %d, want > 0", ErrInvalidDim, dim)
	}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.ExactMax == 0 {
		o.ExactMax = 20000
	}
	if o.M <= 0 {
		o.M = 16
	}
	if o.EfConstruction <= 0 {
		o.EfConstruction = 100
	}
	if o.EfSearch <= 0 {
		o.EfSearch = 128
	}
	// 64KB chunks: a few documents in a browser cost little, and a scan
	// still runs long stretches of contiguous memory.
	chunk := max(16, (1<<14)/dim)
	return &Set{dim: dim, opts: o, chunk: chunk, slot: make(map[string]uint32)}, nil
}

// Dim returns the dimension of the vectors.
func (v *Set) Dim() int { return v.dim }

// Len returns the number of vectors in the set.
func (v *Set) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return len(v.slot)
}

// Put stores vec as id's vector, replacing any previous one. vec is copied
// and normalized. It returns ErrEmptyID for an empty ID, and an error
// wrapping ErrInvalidVector for a vector of the wrong dimension, a zero
// vector, or one with NaN or infinite components.
//
// Cost: O(dim) up to ExactMax, an HNSW insert
// (O(EfConstruction*M*dim*log n)) above it; the Put that crosses ExactMax
// builds the graph (n inserts), and a replacement may compact as Delete
// does.
func (v *Set) Put(id string, vec []float32) error {
	if id == "" {
		return ErrEmptyID
	}
	norm, err := v.check(vec)
	if err != nil {
		return fmt.Errorf("id %q: %w", id, err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if old, ok := v.slot[id]; ok {
		v.ids[old] = ""
		v.dead++
	}
	s := v.alloc(id)
	dst := v.at(s)
	for i, x := range vec {
		dst[i] = float32(float64(x) / norm)
	}
	switch {
	case v.graph != nil:
		v.graph.insert(s)
	case v.opts.ExactMax >= 0 && len(v.slot) > v.opts.ExactMax:
		v.buildGraph()
	}
	v.maybeCompact()
	return nil
}

// Delete removes id's vector and reports whether there was one.
//
// Cost: O(1), plus a compaction when tombstones come to outnumber live
// vectors, which reinserts every live vector (amortized O(1) inserts per
// removal).
func (v *Set) Delete(id string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	s, ok := v.slot[id]
	if !ok {
		return false
	}
	delete(v.slot, id)
	v.ids[s] = ""
	v.dead++
	v.maybeCompact()
	return true
}

// Search returns the k vectors most similar to query, best first, ties by
// ID. keep, if not nil, is asked about candidate IDs and a vector is
// returned only if it says true; it may be called for more IDs than k, and
// not at all for vectors that could not rank.
//
// Up to ExactMax vectors the result is exact. Above it the graph is
// searched with max(EfSearch, k) candidates, over-fetching when keep
// rejects many; when too few survive, the search falls back to an exact
// scan, so a selective keep is never answered with fewer than k hits that
// exist. The query must have the set's dimension and be nonzero and
// finite, or the error wraps ErrInvalidVector.
//
// Cost: O(n*dim) up to ExactMax; above it roughly
// O(max(EfSearch, k)*M*dim*log n), more while keep rejects candidates, and
// at worst the exact scan's.
func (v *Set) Search(query []float32, k int, keep func(id string) bool) ([]Hit, error) {
	norm, err := v.check(query)
	if err != nil {
		return nil, fmt.Errorf("query: %w", err)
	}
	if k <= 0 {
		return nil, nil
	}
	q := make([]float32, len(query))
	for i, x := range query {
		q[i] = float32(float64(x) / norm)
	}
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.graph != nil && len(v.slot) > v.opts.ExactMax {
		if hits, ok := v.searchGraph(q, k, keep); ok {
			return hits, nil
		}
	}
	return v.scan(q, k, keep), nil
}

// check returns vec's L2 norm, or why vec cannot be stored or searched.
func (v *Set) check(vec []float32) (float64, error) {
	if len(vec) != v.dim {
		return 0, fmt.Errorf("%w: dimension %d, want %d", ErrInvalidVector, len(vec), v.dim)
	}
	var sum float64
	for i, x := range vec {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("%w: component %d is %v", ErrInvalidVector, i, x)
		}
		sum += f * f
	}
	if sum == 0 {
		return 0, fmt.Errorf("%w: zero vector has no direction", ErrInvalidVector)
	}
	return math.Sqrt(sum), nil
}

// alloc appends a slot for id and returns it.
func (v *Set) alloc(id string) uint32 {
	s := len(v.ids)
	if s/v.chunk == len(v.chunks) {
		v.chunks = append(v.chunks, make([]float32, v.chunk*v.dim))
	}
	v.ids = append(v.ids, id)
	v.slot[id] = uint32(s)
	return uint32(s)
}

// at returns slot s's vector, capped so an append cannot reach the next.
func (v *Set) at(s uint32) []float32 {
	c := v.chunks[int(s)/v.chunk]
	off := (int(s) % v.chunk) * v.dim
	return c[off : off+v.dim : off+v.dim]
}

// buildGraph indexes every live slot in a new graph.
func (v *Set) buildGraph() {
	v.graph = newHNSW(v, v.opts)
	for s, id := range v.ids {
		if id != "" {
			v.graph.insert(uint32(s))
		}
	}
}

// maybeCompact drops tombstones once they outnumber live vectors, so that
// scans and the graph stay proportional to the live set; the doubling rule
// makes the rebuild cost amortized O(1) inserts per removal.
func (v *Set) maybeCompact() {
	if v.dead <= len(v.slot) {
		return
	}
	oldChunks, oldIDs := v.chunks, v.ids
	v.chunks, v.ids, v.dead = nil, make([]string, 0, len(v.slot)), 0
	v.slot = make(map[string]uint32, len(v.slot))
	for s, id := range oldIDs {
		if id == "" {
			continue
		}
		c := oldChunks[s/v.chunk]
		off := (s % v.chunk) * v.dim
		copy(v.at(v.alloc(id)), c[off:off+v.dim])
	}
	v.graph = nil
	if v.opts.ExactMax >= 0 && len(v.slot) > v.opts.ExactMax {
		v.buildGraph()
	}
}

// scan is the exact search: every live vector is scored, keep is asked
// only about vectors that would enter the current top k.
func (v *Set) scan(q []float32, k int, keep func(string) bool) []Hit {
	top := topK{k: k}
	n := len(v.ids)
	for c, chunk := range v.chunks {
		base := c * v.chunk
		end := min(v.chunk, n-base)
		for i := 0; i < end; i++ {
			id := v.ids[base+i]
			if id == "" {
				continue
			}
			score := dot(q, chunk[i*v.dim:(i+1)*v.dim])
			if !top.admits(score, id) || (keep != nil && !keep(id)) {
				continue
			}
			top.push(score, id)
		}
	}
	return top.sorted()
}

// searchGraph answers from the graph, over-fetching while keep rejects
// candidates. It reports false when the graph could not supply k survivors
// before the fetch grew past a tenth of the set, where a scan is cheaper.
func (v *Set) searchGraph(q []float32, k int, keep func(string) bool) ([]Hit, bool) {
	live := len(v.slot)
	fetch := max(v.opts.EfSearch, k)
	for {
		cands := v.graph.search(q, fetch)
		top := topK{k: k}
		survivors := 0
		for _, c := range cands {
			id := v.ids[c.slot]
			if keep != nil && !keep(id) {
				continue
			}
			survivors++
			top.push(-c.dist, id)
		}
		if survivors >= min(k, live) {
			return top.sorted(), true
		}
		// Grow by the observed survival rate, at least fourfold.
		next := fetch * 4
		if survivors > 0 {
			next = max(next, 2*fetch*k/survivors)
		}
		if next > live/10 || len(cands) < fetch {
			return nil, false
		}
		fetch = next
	}
}

// topK keeps the k best (score, id) pairs: a min-heap with the worst at
// the root, worst meaning lower score, then larger ID.
type topK struct {
	k    int
	hits []Hit
}

func worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

// admits reports whether (score, id) would enter the heap.
func (t *topK) admits(score float32, id string) bool {
	return len(t.hits) < t.k || worse(t.hits[0], Hit{ID: id, Score: float64(score)})
}

func (t *topK) push(score float32, id string) {
	h := Hit{ID: id, Score: float64(score)}
	if len(t.hits) < t.k {
		t.hits = append(t.hits, h)
		for i := len(t.hits) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(t.hits[i], t.hits[p]) {
				break
			}
			t.hits[i], t.hits[p] = t.hits[p], t.hits[i]
			i = p
		}
		return
	}
	if !worse(t.hits[0], h) {
		return
	}
	t.hits[0] = h
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(t.hits) && worse(t.hits[l], t.hits[m]) {
			m = l
		}
		if r < len(t.hits) && worse(t.hits[r], t.hits[m]) {
			m = r
		}
		if m == i {
			break
		}
		t.hits[i], t.hits[m] = t.hits[m], t.hits[i]
		i = m
	}
}

// sorted returns the hits best first; the heap is spent.
func (t *topK) sorted() []Hit {
	slices.SortFunc(t.hits, func(a, b Hit) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return t.hits
}

// dot is the inner product of two equal-length vectors, unrolled eight
// wide with four accumulators so the loop is bound by loads, not by the
// latency of one dependent add chain.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= len(a); i += 8 {
		aa, bb := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += aa[0]*bb[0] + aa[4]*bb[4]
		s1 += aa[1]*bb[1] + aa[5]*bb[5]
		s2 += aa[2]*bb[2] + aa[6]*bb[6]
		s3 += aa[3]*bb[3] + aa[7]*bb[7]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
