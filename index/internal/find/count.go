package find

import (
	"math/bits"
	"runtime"
	"strings"
	"unsafe"
)

// Count returns strings.Count(s, needle). In js/wasm, which has no
// vector instructions for it, a needle of one byte, or of two different
// bytes, is counted eight bytes at a time instead: the substring leg
// counts such a needle in every document's folded text when a query
// has nothing longer (DESIGN.md has the figures, measured in wasm under
// node). Native strings.Count is faster than either. Cost: O(len(s)).
func Count(s, needle string) int {
	if runtime.GOARCH == "wasm" {
		switch {
		case len(needle) == 1:
			return countByte(s, needle[0])
		case len(needle) == 2 && needle[0] != needle[1]:
			// Two equal bytes overlap ("aaa" holds "aa" once for
			// strings.Count, twice for countPair).
			return countPair(s, needle[0], needle[1])
		}
	}
	return strings.Count(s, needle)
}

const (
	ones  = 0x0101010101010101
	low7s = 0x7f7f7f7f7f7f7f7f
)

// zeroBytes returns x with the high bit set in each byte of x that is
// zero and every other bit clear. Unlike the shorter (x-ones)&^x&highs,
// it has no false positives, so its bits can be counted.
func zeroBytes(x uint64) uint64 {
	return ^((x&low7s + low7s) | x | low7s)
}

// load8 reads the eight bytes of s at i as a little-endian word; the
// caller ensures i+8 <= len(s).
func load8(s string, i int) uint64 {
	b := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// countByte returns the number of bytes c in s.
func countByte(s string, c byte) int {
	n, i := 0, 0
	m := uint64(c) * ones
	for ; i+8 <= len(s); i += 8 {
		n += bits.OnesCount64(zeroBytes(load8(s, i) ^ m))
	}
	for ; i < len(s); i++ {
		if s[i] == c {
			n++
		}
	}
	return n
}

// countPair returns the number of places where byte a is followed by
// byte b in s.
func countPair(s string, a, b byte) int {
	n, i := 0, 0
	ma, mb := uint64(a)*ones, uint64(b)*ones
	for ; i+9 <= len(s); i += 8 {
		n += bits.OnesCount64(zeroBytes(load8(s, i)^ma) & zeroBytes(load8(s, i+1)^mb))
	}
	for ; i+1 < len(s); i++ {
		if s[i] == a && s[i+1] == b {
			n++
		}
	}
	return n
}
