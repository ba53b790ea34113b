package find

import (
	"math/bits"
	"strings"

	"golang.org/x/sys/cpu"
)

// hasAVX2 reports whether pairScan can run here.
var hasAVX2 = cpu.X86.HasAVX2

// pairRank is the rank of the rarest byte that New does not scan for
// alone: with AVX2, any but "z", "q" and "j" and the bytes ranked below
// them. On the Go tree's lowered files a scan for "k" of "package p",
// "y" of "type t", "b" of "buffer" or "x" of "xml" ran at 4-5.7 GB/s,
// the two bytes' at 7-8.2; for "j" of "json" 8.8 against 7.2, for "z"
// or "q" the same.
var pairRank = func() uint8 {
	if hasAVX2 {
		return byteRank['j'] + 1
	}
	return commonRank
}()

// pairScan looks for the places p of s, from from on, where s[p+lo] is a
// and s[p+hi] is b (lo < hi), in steps of 32 places with AVX2: the step
// at k covers k to k+31, and is taken while k+hi+32 <= len(s). It returns
// the first step's k that holds such a place, with a mask of them (bit j
// for place k+j); or, with mask 0, the k of the first step it could not
// take, from which the places are the caller's. Implemented in
// pair_amd64.s.
//
//go:noescape
func pairScan(s string, from, lo, hi int, a, b byte) (k int, mask uint32)

// indexPair is Index comparing the needle's bytes lo and hi at 32 places
// per step (pairScan, two steps a loop), and the needle at the places
// where both match; on a processor without AVX2, indexPairWords. It
// scans a text in the cache at ten times indexPairWords' speed
// (BenchmarkIndexPair), the Go tree's lowered files one at a time, out of
// memory, at 1.9-2.3x (7-8.8 GB/s on this project's machine), and at
// 1.4-2.1x where it stops every few dozen bytes ("er", "the").
func (f Finder) indexPair(s string) int {
	if !hasAVX2 {
		return f.indexPairWords(s)
	}
	n, lo, hi := len(f.needle), f.lo, f.hi
	i := 0
	for {
		k, m := pairScan(s, i, lo, hi, f.needle[lo], f.needle[hi])
		if m == 0 {
			i = k
			break
		}
		for ; m != 0; m &= m - 1 {
			at := k + bits.TrailingZeros32(m)
			if at+n <= len(s) && s[at:at+n] == f.needle {
				return at
			}
		}
		i = k + 32
	}
	if j := strings.Index(s[i:], f.needle); j >= 0 {
		return i + j
	}
	return -1
}
