//go:build js

package tokenize

import "math/bits"

// gramTable maps ASCII trigrams, by their 21 bits, to their index in a
// gramCounter: an open-addressing table at most half full, sized to the
// document (64 slots for a short one) and grown to the largest the pool's
// counter has met. Native builds index an 8 MiB table by all 2^21
// trigrams (gramtable.go), which costs 25-50% less CPU time there; in the
// browser, whose memory never shrinks, those 8 MiB were a fifth of the
// page's, and in wasm under node the two took the same time on the demo
// corpus.
type gramTable struct {
	// slots holds a key+1 (0 for empty) in its high 32 bits and the
	// index in the low; a count uses the first 1<<(64-shift).
	slots []uint64
	shift uint
	used  []int32 // the slots taken
}

// size readies the table for n windows.
func (t *gramTable) size(n int) {
	size := 1 << max(6, bits.Len(uint(2*min(n, 1<<21)-1)))
	if len(t.slots) < size {
		t.slots = make([]uint64, size)
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

func (t *gramTable) find(key uint32) (int32, bool) {
	k := uint64(key+1) << 32
	mask := 1<<(64-t.shift) - 1
	for i := int((uint64(key+1) * 0x9e3779b97f4a7c15) >> t.shift); ; i = (i + 1) & mask {
		switch s := t.slots[i]; s &^ (1<<32 - 1) {
		case k:
			return int32(uint32(s)), true
		case 0:
			return 0, false
		}
	}
}

// insert adds a key that is not in the table.
func (t *gramTable) insert(key uint32, idx int32) {
	mask := 1<<(64-t.shift) - 1
	i := int((uint64(key+1) * 0x9e3779b97f4a7c15) >> t.shift)
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = uint64(key+1)<<32 | uint64(uint32(idx))
	t.used = append(t.used, int32(i))
}

// empty removes every key.
func (t *gramTable) empty([]uint32) {
	for _, i := range t.used {
		t.slots[i] = 0
	}
	t.used = t.used[:0]
}
