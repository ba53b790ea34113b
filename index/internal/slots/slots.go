// Package slots numbers the documents one pass of the text leg touches
// (0, 1, 2, ... in the order they are added) by their index-internal ID,
// and keeps the IDs, so that the pass keeps its per-document state in
// slices indexed by slot rather than in maps keyed by ID.
//
// A Table is used by one goroutine. Release returns its dense part to a
// pool that all Tables share (safe for concurrent use); the Table must
// not be used after.
package slots

import (
	"encoding/binary"
	"sync"
)

// maxDense bounds the doc numbers a table indexes directly: the table
// costs 4 bytes per document of the index.
const maxDense = 1 << 24

// A Table maps internal IDs to slots. Scorch's internal IDs are doc
// numbers (8 bytes, big-endian), so for scorch a pooled table indexed by
// doc number replaces a map keyed by strings, the costliest step per
// posting; other backends' IDs are map keys.
type Table struct {
	docNumbers bool
	dense      []int32          // doc number -> slot+1, 0 for none; docNumbers only
	m          map[string]int32 // the other IDs
	arena      []byte           // the internal IDs, concatenated in slot order
	ends       []int32          // ends[k]: where slot k's ID ends in arena
	ids        string           // arena, frozen by Freeze
}

var densePool = sync.Pool{New: func() any { return new([]int32) }}

// New returns an empty table for about hint IDs, which it keys in a map.
func New(hint int) *Table {
	return &Table{arena: make([]byte, 0, hint*8), ends: make([]int32, 0, hint)}
}

// NewDocNumbers returns an empty table for about hint IDs that are doc
// numbers, as scorch's are: 8-byte big-endian IDs below 1<<24 index a
// pooled slice, any other ID a map.
func NewDocNumbers(hint int) *Table {
	t := New(hint)
	t.docNumbers = true
	t.dense = *densePool.Get().(*[]int32)
	return t
}

// docNumber returns the doc number of a scorch internal ID, false when
// the table does not index it.
func (t *Table) docNumber(iid []byte) (int, bool) {
	if !t.docNumbers || len(iid) != 8 {
		return 0, false
	}
	n := binary.BigEndian.Uint64(iid)
	return int(n), n < maxDense
}

// Get returns the slot of an internal ID, false when it has none. Cost:
// O(1).
func (t *Table) Get(iid []byte) (int32, bool) {
	if n, ok := t.docNumber(iid); ok {
		if n < len(t.dense) && t.dense[n] > 0 {
			return t.dense[n] - 1, true
		}
		return 0, false
	}
	k, ok := t.m[string(iid)]
	return k, ok
}

// Add gives an internal ID that has none the next slot and returns it.
// Cost: O(len(iid)) amortized; the first doc number above the table's
// size grows it to that number.
func (t *Table) Add(iid []byte) int32 {
	k := int32(len(t.ends))
	t.arena = append(t.arena, iid...)
	t.ends = append(t.ends, int32(len(t.arena)))
	if n, ok := t.docNumber(iid); ok {
		if n >= len(t.dense) {
			t.dense = append(t.dense, make([]int32, max(n+1, 2*len(t.dense))-len(t.dense))...)
		}
		t.dense[n] = k + 1
		return k
	}
	if t.m == nil {
		t.m = map[string]int32{}
	}
	t.m[string(iid)] = k
	return k
}

// Len returns the number of slots.
func (t *Table) Len() int { return len(t.ends) }

// Freeze makes the IDs readable with ID; no slot is added after it.
// Cost: a copy of the IDs, the first time.
func (t *Table) Freeze() {
	if len(t.ids) != len(t.arena) {
		t.ids = string(t.arena)
	}
}

// ID returns slot k's internal ID, after Freeze. Cost: O(1).
func (t *Table) ID(k int32) string {
	start := int32(0)
	if k > 0 {
		start = t.ends[k-1]
	}
	return t.ids[start:t.ends[k]]
}

// Release clears the dense table and returns it to the pool; the table
// must not be used after. Cost: O(slots).
func (t *Table) Release() {
	if t.dense == nil {
		return
	}
	start := int32(0)
	for _, end := range t.ends {
		if n, ok := t.docNumber(t.arena[start:end]); ok {
			t.dense[n] = 0
		}
		start = end
	}
	// The pool gets a pointer of its own: t may still be read.
	dense := t.dense
	t.dense = nil
	densePool.Put(&dense)
}
