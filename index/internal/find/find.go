// Package find finds and counts a needle in texts, faster than the
// strings package where the engine's texts make that possible: a Finder
// scans for the needle's rarest byte rather than its first, and Count
// counts short needles eight bytes at a time in js/wasm.
//
// Every function gives the strings package's answer (strings.Index,
// strings.Count); only the speed differs. Words numbers a needle's
// occurrences by the words they fall in, for distances in words. A Finder
// and a Words are immutable values, safe for concurrent use.
package find

import (
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

// A Finder looks for one needle in many texts. strings.Contains scans for
// the needle's first byte, often a common letter that stops the scan every
// few bytes; a Finder scans for its rarest byte instead and compares the
// needle around each hit.
type Finder struct {
	needle string
	rare   int // index in needle of the byte scanned for
}

// New returns a Finder of needle. Cost: O(len(needle)).
func New(needle string) Finder {
	f := Finder{needle: needle}
	for i := 1; i < len(needle); i++ {
		if byteRank[needle[i]] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	return f
}

// Needle returns the needle f looks for.
func (f Finder) Needle() string { return f.needle }

// In reports whether the needle occurs in s. Cost: as Index.
func (f Finder) In(s string) bool { return f.Index(s) >= 0 }

// Index returns the index of the needle's first occurrence in s, or -1,
// as strings.Index does. Cost: a pass over s for the needle's rarest byte
// and a comparison of the needle at each of its occurrences, so
// O(len(s)*len(needle)) at worst.
func (f Finder) Index(s string) int {
	n, r := len(f.needle), f.rare
	if n == 0 {
		return 0
	}
	if n == 1 || len(s) < 64 {
		return strings.Index(s, f.needle)
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
