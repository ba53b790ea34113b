package index

import (
	"github.com/twindex/twindex/index/internal/find"
)

// exactRun reports whether field f (0 title, 1 body) of a document holds
// the quoted leaf's text as written, up to case, between separators, in
// a way that analyzes as the query does: then the document holds the
// leaf's words as a run, and no analysis of its text is needed. That is
// the common case of a quoted phrase ("all rights", "source code"), which
// matches thousands of documents that each would otherwise be analyzed
// whole for its positions (2.2 s for "all rights" on the yardstick's
// corpus). A false answer decides nothing: stems and an identifier's
// parts make runs too, which positions find.
//
// The same text, bounded by separators, is the same words; case changes
// words only inside one (camelCase and acronyms split), so every word of
// both the query's text and the document's must have no inner capital
// (lower, Title or UPPER case). Cost: a scan of the folded field, cached
// between searches.
func exactRun(tl *tleaf, fd *folded, f int) bool {
	text, upper := fd.title, fd.titleUpper
	if f == 1 {
		text, upper = fd.body, fd.bodyUpper
	}
	q := tl.folded
	if upper == nil || len(q) == 0 || len(tl.text) != len(q) || !wordByte(q[0]) || !wordByte(q[len(q)-1]) || !plainCase(tl.text) {
		return false
	}
	fn := find.New(q)
	for at := 0; at+len(q) <= len(text); {
		i := fn.Index(text[at:])
		if i < 0 {
			return false
		}
		i += at
		end := i + len(q)
		if (i == 0 || separator(text[i-1])) && (end == len(text) || separator(text[end])) &&
			plainCase(restoreCase(text[i:end], shiftMask(upper, i, end-i))) {
			return true
		}
		at = i + 1
	}
	return false
}

// wordByte reports whether c is an ASCII letter or digit.
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// separator reports whether c ends a word whatever surrounds it: ASCII
// space and punctuation that no identifier holds ('.', '-', '_' and '\”
// join the parts of names and contractions).
func separator(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', ',', ';', ':', '!', '?', '"', '(', ')', '[', ']', '{', '}', '<', '>', '/', '\\', '|', '=', '+', '*', '&', '^', '%', '$', '#', '@', '~', '`':
		return true
	}
	return false
}

// plainCase reports whether no ASCII word of s has a capital after its
// first letter unless all its letters are capitals: lower, Title and
// UPPER words are one word each, whatever their case.
func plainCase(s string) bool {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && ('a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z') {
			j++
		}
		if j > i+1 {
			lower, upper := 0, 0
			for _, c := range []byte(s[i+1 : j]) {
				if c <= 'Z' {
					upper++
				} else {
					lower++
				}
			}
			if upper > 0 && (lower > 0 || s[i] > 'Z') {
				return false
			}
		}
		i = max(j, i+1)
	}
	return true
}

// shiftMask returns the bits of mask for bytes [off, off+n), from bit 0.
func shiftMask(mask []uint64, off, n int) []uint64 {
	out := make([]uint64, (n+63)/64)
	for k := range n {
		if b := off + k; mask[b/64]&(1<<(b%64)) != 0 {
			out[k/64] |= 1 << (k % 64)
		}
	}
	return out
}
