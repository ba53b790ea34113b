package backend

import (
	"context"
	"encoding/binary"
	"sync"
	"sync/atomic"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// Whole remembers, for the latest index state searches read (a scorch
// snapshot, or a compact index's version), one posting list read whole:
// a field with one term that every document holds (the engine's length
// field, whose frequency and norm carry a document's write and length).
// A broad substring search reads it for thousands of candidates, by Next
// or Advance through the list (a third of a one- or two-character search
// on the yardstick's corpus; 7% of the browser demo's keystrokes, on the
// compact backend in wasm); held by doc number, it costs an array
// lookup. It belongs to one state, like IDs, and is read when a search
// asks for it with enough candidates to read most of the list anyway. A
// nil Whole keeps nothing. Safe for concurrent use.
type Whole struct {
	field, term string
	latest      atomic.Pointer[wholeCache]
}

// NewWhole returns the cache of term's postings in field.
func NewWhole(field, term string) *Whole { return &Whole{field: field, term: term} }

// wholeCache is one state's list, read once.
type wholeCache struct {
	state stateRef
	mu    sync.Mutex
	read  bool
	list  *Postings // nil when read but not held (no doc numbers)
}

// Postings is a posting list by doc number.
type Postings struct {
	freq []uint64
	norm []float64
	has  []bool
}

// At returns the frequency and norm of the posting of internal ID iid,
// ok false when the list has none.
func (p *Postings) At(iid bleveindex.IndexInternalID) (freq uint64, norm float64, ok bool) {
	if len(iid) != 8 {
		return 0, 0, false
	}
	n := binary.BigEndian.Uint64(iid)
	if n >= uint64(len(p.has)) || !p.has[n] {
		return 0, 0, false
	}
	return p.freq[n], p.norm[n], true
}

// Of returns r's list by doc number when r reads a state that stateOf
// knows and the list was read for it, or when want (the postings about
// to be read through it) is at least an eighth of its documents, and it
// is then read; nil otherwise, and the caller reads the postings it
// needs. A read that fails is not kept.
func (w *Whole) Of(ctx context.Context, r bleveindex.IndexReader, want int) (*Postings, error) {
	ref, ok := stateOf(r)
	if !ok || w == nil {
		return nil, nil
	}
	c := w.latest.Load()
	if c == nil || c.state != ref {
		fresh := &wholeCache{state: ref}
		if w.latest.CompareAndSwap(c, fresh) {
			c = fresh
		} else if c = w.latest.Load(); c == nil || c.state != ref {
			return nil, nil // a search of another state has the cache
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read {
		return c.list, nil
	}
	count, err := r.DocCount()
	if err != nil || uint64(want)*8 < count {
		return nil, err
	}
	list, err := w.readAll(ctx, r, count)
	if err != nil {
		return nil, err
	}
	c.list, c.read = list, true
	return list, nil
}

// stateRef identifies the state a reader reads without keeping it
// alive: a scorch snapshot or a compact index's version.
type stateRef struct {
	snap    snapshotRef
	version compact.Version
}

// stateOf returns the state r reads, ok false when r is neither a scorch
// snapshot nor a compact reader.
func stateOf(r bleveindex.IndexReader) (stateRef, bool) {
	if v, ok := compact.VersionOf(r); ok {
		return stateRef{version: v}, true
	}
	snap, ok := snapshotOf(r)
	return stateRef{snap: snap}, ok
}

// readAll reads the whole list through r, which holds count documents.
func (w *Whole) readAll(ctx context.Context, r bleveindex.IndexReader, count uint64) (*Postings, error) {
	tfr, err := r.TermFieldReader(ctx, []byte(w.term), w.field, true, true, false)
	if err != nil {
		return nil, err
	}
	defer tfr.Close()
	p := &Postings{has: make([]bool, 0, count), freq: make([]uint64, 0, count), norm: make([]float64, 0, count)}
	var tfd bleveindex.TermFieldDoc
	for {
		d, err := tfr.Next(tfd.Reset())
		if err != nil {
			return nil, err
		}
		if d == nil {
			return p, nil
		}
		if len(d.ID) != 8 {
			return nil, nil // not doc numbers: nothing to index by
		}
		n := binary.BigEndian.Uint64(d.ID)
		for uint64(len(p.has)) <= n {
			p.has, p.freq, p.norm = append(p.has, false), append(p.freq, 0), append(p.norm, 0)
		}
		p.has[n], p.freq[n], p.norm[n] = true, d.Freq, d.Norm
	}
}
