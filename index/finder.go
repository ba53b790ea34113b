package index

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

// finder looks for one needle in many texts. strings.Contains scans for
// the needle's first byte, often a common letter that stops the scan every
// few bytes; finder scans for its rarest byte instead and compares the
// needle around each hit.
type finder struct {
	needle string
	rare   int // index in needle of the byte scanned for
}

func newFinder(needle string) finder {
	f := finder{needle: needle}
	for i := 1; i < len(needle); i++ {
		if byteRank[needle[i]] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	return f
}

// in reports whether the needle occurs in s.
func (f finder) in(s string) bool { return f.index(s) >= 0 }

// index returns the index of the needle's first occurrence in s, or -1.
func (f finder) index(s string) int {
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
