// Package bloom is a Bloom filter of 64-bit hashes in a byte slice, the
// form a document's record stores: New builds one, MayHold asks it.
//
// Invariants: MayHold(New(hashes, bits), h) is true for every h of
// hashes (no false negatives); a filter of no bytes is no filter and
// holds every hash; any bytes are a filter (a damaged one may answer
// wrongly, never panic). The hashes must be evenly spread in their 64
// bits: the probes are two, taken from its two halves.
package bloom

// probes is the number of bits each hash sets: two, the fewest false
// positives at two to four bits a hash.
const probes = 2

// New returns the filter of hashes with about bits bits for each: at 3,
// one hash in four that it does not hold passes. A filter of no hashes
// is one byte that holds none. Cost: O(len(hashes)).
func New(hashes []uint64, bits int) []byte {
	f := make([]byte, max(1, (len(hashes)*bits+7)/8))
	for _, h := range hashes {
		lo, hi := probe(h)
		for i := range uint32(probes) {
			at := bitOf(lo+i*hi, len(f))
			f[at/8] |= 1 << (at % 8)
		}
	}
	return f
}

// MayHold reports whether the filter f may hold h: false only when it
// does not. Cost: O(1).
func MayHold(f []byte, h uint64) bool {
	if len(f) == 0 {
		return true
	}
	lo, hi := probe(h)
	for i := range uint32(probes) {
		at := bitOf(lo+i*hi, len(f))
		if f[at/8]&(1<<(at%8)) == 0 {
			return false
		}
	}
	return true
}

// probe splits h into the start and the step of its probes (an odd
// step, so that the two differ).
func probe(h uint64) (lo, hi uint32) {
	return uint32(h), uint32(h>>32) | 1
}

// bitOf maps x onto the bits of a filter of n bytes, by multiplying
// instead of dividing.
func bitOf(x uint32, n int) uint64 {
	return uint64(x) * uint64(8*n) >> 32
}
