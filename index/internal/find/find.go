// Package find finds and counts a needle in texts, faster than the
// strings package where the engine's texts make that possible: a Finder
// scans for the needle's rarest byte rather than its first, or, when that
// byte is common (with AVX2 on amd64, unless it is among the rarest; in
// js/wasm, always), for two of its bytes at many places at once (32 with
// AVX2, pair_amd64.s, else eight), and Count counts short needles eight
// bytes at a time in js/wasm.
//
// Every function gives the strings package's answer (strings.Index,
// strings.Count); only the speed differs. Words numbers a needle's
// occurrences by the words they fall in, for distances in words. A Finder
// and a Words are immutable values, safe for concurrent use.
package find

import (
	"math/bits"
	"runtime"
	"strings"
)

// byteRank estimates how common a byte is in folded prose and source
// code: higher is more common. Bytes not listed (punctuation, digits,
// non-ASCII bytes) rank low, as they are rarer than most letters.
var byteRank = func() (r [256]uint8) {
	// Most common last, roughly as in English text and source code.
	const order = "zqjxkvwybghmpfducloainsrte "
	for i := range len(order) {
		r[order[i]] = uint8(10 + i)
	}
	for _, c := range "(),.\t\n_=" {
		r[c] = 20
	}
	return r
}()

// commonRank is the rank of the rarest byte that is too common to scan
// for alone: a needle of such bytes only ("a int", "not int or") stops a
// scan for any of them every few bytes.
var commonRank = byteRank['g']

// A Finder looks for one needle in many texts. strings.Contains scans for
// the needle's first byte, often a common letter that stops the scan every
// few bytes; a Finder scans for its rarest byte instead and compares the
// needle around each hit. When even that byte is common (with AVX2, when
// it is not among the rarest: pairRank), or in js/wasm, it compares two
// of the needle's bytes at many places at once (indexPair: 32 with AVX2,
// else eight), and the needle where both match: a place where both bytes
// are common is rare.
type Finder struct {
	needle string
	rare   int // index in needle of the byte scanned for
	// lo < hi are the indexes of the two bytes compared when the
	// rarest byte is common; hi is 0 otherwise.
	lo, hi int
}

// New returns a Finder of needle. Cost: O(len(needle)).
func New(needle string) Finder {
	f := Finder{needle: needle}
	for i := 1; i < len(needle); i++ {
		if byteRank[needle[i]] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	// In js/wasm IndexByte is a loop of four bytes a step (memchr), and
	// the two bytes' words are the faster for a rare byte too; with AVX2
	// the two bytes' scan is, for all but the rarest bytes (pairRank).
	if len(needle) < 2 || runtime.GOARCH != "wasm" && byteRank[needle[f.rare]] < pairRank {
		return f
	}
	// The rarest byte of another value, the farthest from the first
	// of equal rank: bytes apart are the less likely to go together.
	other := -1
	for i := range len(needle) {
		c := needle[i]
		if c == needle[f.rare] {
			continue
		}
		if other < 0 || byteRank[c] < byteRank[needle[other]] ||
			byteRank[c] == byteRank[needle[other]] && abs(i-f.rare) > abs(other-f.rare) {
			other = i
		}
	}
	if other >= 0 {
		f.lo, f.hi = min(f.rare, other), max(f.rare, other)
	}
	return f
}

func abs(x int) int { return max(x, -x) }

// Needle returns the needle f looks for.
func (f Finder) Needle() string { return f.needle }

// In reports whether the needle occurs in s. Cost: as Index.
func (f Finder) In(s string) bool { return f.Index(s) >= 0 }

// Index returns the index of the needle's first occurrence in s, or -1,
// as strings.Index does. Cost: a pass over s for the needle's rarest byte
// (or its two bytes) and a comparison of the needle at each of its
// occurrences, so O(len(s)*len(needle)) at worst.
func (f Finder) Index(s string) int {
	n, r := len(f.needle), f.rare
	if n == 0 {
		return 0
	}
	if n == 1 || len(s) < 64 {
		return strings.Index(s, f.needle)
	}
	if f.hi > 0 {
		return f.indexPair(s)
	}
	c := f.needle[r]
	for i := r; i <= len(s)-n+r; {
		j := strings.IndexByte(s[i:len(s)-n+r+1], c)
		if j < 0 {
			return -1
		}
		start := i + j - r
		if s[start:start+n] == f.needle {
			return start
		}
		i += j + 1
	}
	return -1
}

// indexPairWords is Index comparing the needle's bytes lo and hi at
// sixteen places per step, eight to a word (zeroBytes), and the needle at
// the places where both match: indexPair where the processor has no
// vector instructions for it.
func (f Finder) indexPairWords(s string) int {
	n, lo, hi := len(f.needle), f.lo, f.hi
	a, b := uint64(f.needle[lo])*ones, uint64(f.needle[hi])*ones
	i := 0
	// The step at i reads s up to i+hi+16 and places up to i+15.
	for ; i+max(hi+16, n+15) <= len(s); i += 16 {
		m0 := zeroBytes(load8(s, i+lo)^a) & zeroBytes(load8(s, i+hi)^b)
		m1 := zeroBytes(load8(s, i+8+lo)^a) & zeroBytes(load8(s, i+8+hi)^b)
		if m0|m1 == 0 {
			continue
		}
		for h, m := range [2]uint64{m0, m1} {
			for ; m != 0; m &= m - 1 {
				k := i + 8*h + bits.TrailingZeros64(m)>>3
				if s[k:k+n] == f.needle {
					return k
				}
			}
		}
	}
	if j := strings.Index(s[i:], f.needle); j >= 0 {
		return i + j
	}
	return -1
}
