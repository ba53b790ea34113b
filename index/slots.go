package index

import (
	"encoding/binary"
	"sync"
)

// maxDense bounds the doc numbers a slot table indexes directly: the
// table costs 4 bytes per document of the index.
const maxDense = 1 << 24

// slots numbers the documents one text-leg pass touches (0, 1, 2, ...)
// by bleve internal ID, and keeps their IDs. scorch's internal IDs are
// doc numbers (8 bytes, big-endian), so for scorch a pooled table indexed
// by doc number replaces a map keyed by strings, the costliest step per
// posting; other backends' IDs are map keys.
//
// A slots is used by one goroutine; release returns its table to the pool.
type slots struct {
	docNumbers bool
	dense      []int32          // doc number -> slot+1, 0 for none; docNumbers only
	m          map[string]int32 // the other IDs
	arena      []byte           // the internal IDs, concatenated in slot order
	ends       []int32          // ends[k]: where slot k's ID ends in arena
	ids        string           // arena, frozen by freeze
}

var densePool = sync.Pool{New: func() any { return new([]int32) }}

func newSlots(docNumbers bool, hint int) *slots {
	s := &slots{docNumbers: docNumbers, arena: make([]byte, 0, hint*8), ends: make([]int32, 0, hint)}
	if docNumbers {
		s.dense = *densePool.Get().(*[]int32)
	}
	return s
}

// docNumber returns the doc number of a scorch internal ID, false when
// the table does not index it.
func (s *slots) docNumber(iid []byte) (int, bool) {
	if !s.docNumbers || len(iid) != 8 {
		return 0, false
	}
	n := binary.BigEndian.Uint64(iid)
	return int(n), n < maxDense
}

// get returns the slot of an internal ID.
func (s *slots) get(iid []byte) (int32, bool) {
	if n, ok := s.docNumber(iid); ok {
		if n < len(s.dense) && s.dense[n] > 0 {
			return s.dense[n] - 1, true
		}
		return 0, false
	}
	k, ok := s.m[string(iid)]
	return k, ok
}

// add gives an internal ID that has none the next slot.
func (s *slots) add(iid []byte) int32 {
	k := int32(len(s.ends))
	s.arena = append(s.arena, iid...)
	s.ends = append(s.ends, int32(len(s.arena)))
	if n, ok := s.docNumber(iid); ok {
		if n >= len(s.dense) {
			s.dense = append(s.dense, make([]int32, max(n+1, 2*len(s.dense))-len(s.dense))...)
		}
		s.dense[n] = k + 1
		return k
	}
	if s.m == nil {
		s.m = map[string]int32{}
	}
	s.m[string(iid)] = k
	return k
}

// len is the number of slots.
func (s *slots) len() int { return len(s.ends) }

// freeze makes the IDs readable with id; no slot is added after it.
func (s *slots) freeze() { s.ids = string(s.arena) }

// id returns slot k's internal ID, after freeze.
func (s *slots) id(k int32) string {
	start := int32(0)
	if k > 0 {
		start = s.ends[k-1]
	}
	return s.ids[start:s.ends[k]]
}

// release clears the dense table and returns it to the pool; the slots
// must not be used after.
func (s *slots) release() {
	if s.dense == nil {
		return
	}
	start := int32(0)
	for _, end := range s.ends {
		if n, ok := s.docNumber(s.arena[start:end]); ok {
			s.dense[n] = 0
		}
		start = end
	}
	// The pool gets a pointer of its own: s may still be read.
	dense := s.dense
	s.dense = nil
	densePool.Put(&dense)
}
