package compact

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Index is the in-memory index. Writes (Batch, Update, Delete,
// SetInternal, DeleteInternal, Merge) are serialized; Reader and
// StatsMap never wait for them. Every method is safe for concurrent use.
type Index struct {
	queue  *bleveindex.AnalysisQueue
	mu     sync.Mutex // serializes writes
	cur    atomic.Pointer[state]
	closed atomic.Bool
	hold   bool   // writes merge no segments (HoldMerges); under mu
	pause  func() // runs in a batch's build (PauseBuilds); under mu
}

var _ bleveindex.Index = (*Index)(nil)

// state is one point in time of the index. Nothing in it changes once it
// is published.
type state struct {
	segs     []*segment
	dead     []bitset // by segment
	ndead    []int    // set bits of dead, by segment
	base     []uint64 // the first internal document number of each segment
	internal map[string][]byte
	live     uint64
}

func (st *state) end() uint64 {
	if len(st.segs) == 0 {
		return 0
	}
	last := len(st.segs) - 1
	return st.base[last] + uint64(st.segs[last].n())
}

// New returns an empty index whose writes analyze documents on q's
// workers; nil analyzes them on the writer's goroutine.
func New(q *bleveindex.AnalysisQueue) *Index {
	x := &Index{queue: q}
	x.cur.Store(&state{internal: map[string][]byte{}})
	return x
}

// Open does nothing: a new index is open.
func (x *Index) Open() error { return nil }

// Close makes later writes fail with ErrClosed; readers already open go
// on reading.
func (x *Index) Close() error {
	x.closed.Store(true)
	return nil
}

// Update indexes doc, replacing the document with its ID.
func (x *Index) Update(doc bleveindex.Document) error {
	b := bleveindex.NewBatch()
	b.Update(doc)
	return x.Batch(b)
}

// Delete removes the document with the given ID, if any.
func (x *Index) Delete(id string) error {
	b := bleveindex.NewBatch()
	b.Delete(id)
	return x.Batch(b)
}

// SetInternal sets an internal key, which readers return with GetInternal.
func (x *Index) SetInternal(key, val []byte) error {
	b := bleveindex.NewBatch()
	b.SetInternal(key, val)
	return x.Batch(b)
}

// DeleteInternal removes an internal key.
func (x *Index) DeleteInternal(key []byte) error {
	b := bleveindex.NewBatch()
	b.DeleteInternal(key)
	return x.Batch(b)
}

// Batch applies a batch whole: its documents, deletions and internal
// keys appear to readers at once. Documents are analyzed as build says.
// The batch's persisted callback, if any, is called before Batch
// returns: there is nothing to persist. Cost: O(postings of the batch)
// plus the merges it causes, O(log n) copies of each posting over the
// life of the index.
func (x *Index) Batch(b *bleveindex.Batch) error {
	if x.closed.Load() {
		return ErrClosed
	}
	docs := make([]bleveindex.Document, 0, len(b.IndexOps))
	for _, d := range b.IndexOps {
		if d != nil {
			if d.HasComposite() {
				return fmt.Errorf("%w: composite fields (document %q)", ErrUnsupported, d.ID())
			}
			docs = append(docs, d)
		}
	}
	// Documents are numbered in ID order, so that a batch indexes the
	// same way whatever order its map gives.
	slices.SortFunc(docs, func(a, b bleveindex.Document) int { return cmpString(a.ID(), b.ID()) })
	x.mu.Lock()
	pause := x.pause
	x.mu.Unlock()
	seg := x.build(docs, pause)

	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.cur.Load().clone()
	cloned := make([]bool, len(st.segs))
	for id := range b.IndexOps {
		st.remove(id, cloned)
	}
	if len(b.InternalOps) > 0 {
		st.internal = maps.Clone(st.internal)
		for k, v := range b.InternalOps {
			if v == nil {
				delete(st.internal, k)
			} else {
				st.internal[k] = slices.Clone(v)
			}
		}
	}
	if seg.n() > 0 {
		st.add(seg)
	}
	if !x.hold {
		st.compact()
	}
	x.cur.Store(st)
	if cb := b.PersistedCallback(); cb != nil {
		cb(nil)
	}
	return nil
}

// clone returns a copy of st whose slices a write may change.
func (st *state) clone() *state {
	return &state{
		segs: slices.Clone(st.segs), dead: slices.Clone(st.dead), ndead: slices.Clone(st.ndead),
		base: slices.Clone(st.base), internal: st.internal, live: st.live,
	}
}

// remove marks the live document with the given ID deleted. cloned says
// which segments' bitmaps this write has copied already.
func (st *state) remove(id string, cloned []bool) {
	for i, s := range st.segs {
		d, ok := s.byID[id]
		if !ok || st.dead[i].has(int(d)) {
			continue
		}
		if !cloned[i] {
			st.dead[i] = slices.Clone(st.dead[i])
			if len(st.dead[i]) == 0 {
				st.dead[i] = make(bitset, (s.n()+63)/64)
			}
			cloned[i] = true
		}
		st.dead[i][d/64] |= 1 << (d % 64)
		st.ndead[i]++
		st.live--
		return
	}
}

func (st *state) add(s *segment) {
	st.base = append(st.base, st.end())
	st.segs = append(st.segs, s)
	st.dead = append(st.dead, nil)
	st.ndead = append(st.ndead, 0)
	st.live += uint64(s.n())
}

// compact merges the last segment into the one before it while it holds
// at least half as many live documents, so that live sizes at least
// double from each segment to the one before it and there are O(log n)
// segments; it also rewrites a segment that is mostly deleted. Each
// posting is copied O(log n) times over the life of the index.
func (st *state) compact() {
	for i := 0; i < len(st.segs); {
		if st.ndead[i] > 0 && 2*st.ndead[i] >= st.segs[i].n() {
			n := len(st.segs)
			st.mergeRange(i, i+1)
			if len(st.segs) < n {
				continue // it had no live document left and is gone
			}
		}
		i++
	}
	for k := len(st.segs); k >= 2; k = len(st.segs) {
		if 2*st.liveIn(k-1) < st.liveIn(k-2) {
			break
		}
		st.mergeRange(k-2, k)
	}
}

func (st *state) liveIn(i int) int { return st.segs[i].n() - st.ndead[i] }

// mergeAll merges every segment into one.
func (st *state) mergeAll() {
	if len(st.segs) > 1 || len(st.segs) == 1 && st.ndead[0] > 0 {
		st.mergeRange(0, len(st.segs))
	}
}

// mergeRange replaces segments [i, j) with one of their live documents,
// or with none when they have no live documents, and renumbers.
func (st *state) mergeRange(i, j int) {
	m := merge(st.segs[i:j], st.dead[i:j])
	var repl []*segment
	if m.n() > 0 {
		repl = []*segment{m}
	}
	st.segs = slices.Replace(st.segs, i, j, repl...)
	st.dead = slices.Replace(st.dead, i, j, make([]bitset, len(repl))...)
	st.ndead = slices.Replace(st.ndead, i, j, make([]int, len(repl))...)
	st.base = st.base[:0]
	next := uint64(0)
	for _, s := range st.segs {
		st.base = append(st.base, next)
		next += uint64(s.n())
	}
}

// Merge merges all segments into one, dropping deleted documents, for an
// index that is done being written (Optimize). Cost: O(size of the
// index).
func (x *Index) Merge() error {
	if x.closed.Load() {
		return ErrClosed
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	st := x.cur.Load().clone()
	st.mergeAll()
	x.cur.Store(st)
	return nil
}

// HoldMerges stops (true) or lets again (false) the merges a write makes
// of the segments it leaves. A bulk load holds them: each of its batches
// then stays a segment, and memory never holds the postings of a merged
// segment beside those it was merged from, which a WebAssembly page's
// memory keeps for good. Writes after the hold merge as before.
func (x *Index) HoldMerges(hold bool) {
	x.mu.Lock()
	x.hold = hold
	x.mu.Unlock()
}

// PauseBuilds has the builds of later batches call pause, when not nil,
// every 64 documents they analyze and between the fields they lay out,
// when they run on the writer's goroutine (always in js/wasm, where a
// pause that sleeps lets the page's event loop run in the middle of a
// batch); nil stops it.
func (x *Index) PauseBuilds(pause func()) {
	x.mu.Lock()
	x.pause = pause
	x.mu.Unlock()
}

// Reader returns a reader of the index as it is now, unaffected by later
// writes. Closing it releases nothing but is allowed.
func (x *Index) Reader() (bleveindex.IndexReader, error) {
	yield()
	return &reader{st: x.cur.Load()}, nil
}

// StatsMap reports the number of segments and of live documents.
func (x *Index) StatsMap() map[string]interface{} {
	st := x.cur.Load()
	return map[string]interface{}{"segments": uint64(len(st.segs)), "docs": st.live}
}
