package tokenize

import (
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"
)

// dropRune is what foldRune returns for a rune that folds to nothing
// (a nonspacing mark).
const dropRune = -1

// foldTableSize covers every rune with a one- or two-byte UTF-8 encoding:
// Latin, Greek, Cyrillic, Hebrew, Arabic and their combining marks, which is
// where nearly all folding happens.
const foldTableSize = 0x800

var foldTable = func() *[foldTableSize]rune {
	var t [foldTableSize]rune
	for r := rune(0); r < foldTableSize; r++ {
		t[r] = foldRuneSlow(r)
	}
	return &t
}()

// foldRune returns the folded form of r, or dropRune.
func foldRune(r rune) rune {
	if r < foldTableSize {
		if r >= 0 {
			return foldTable[r]
		}
		return utf8.RuneError
	}
	if isCJKIdeographRange(r) {
		return r
	}
	return foldRuneSlow(r)
}

// isCJKIdeographRange reports the big blocks that neither case-fold nor
// decompose, so the hot CJK path skips the table lookups.
func isCJKIdeographRange(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0xAC00 && r <= 0xD7A3)
}

// foldRuneSlow lowercases r and strips its diacritics. A rune whose
// canonical decomposition is not "one base rune + nonspacing marks" (Hangul
// syllables, for instance) is kept whole so that every input rune maps to at
// most one output rune and offsets can be mapped back.
func foldRuneSlow(r rune) rune {
	if r == utf8.RuneError || !utf8.ValidRune(r) {
		return utf8.RuneError
	}
	r = unicode.ToLower(r)
	if unicode.Is(unicode.Mn, r) {
		return dropRune
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	d := norm.NFD.Properties(buf[:n]).Decomposition()
	if len(d) == 0 {
		return r
	}
	base, size := utf8.DecodeRune(d)
	if unicode.Is(unicode.Mn, base) {
		return r
	}
	for rest := d[size:]; len(rest) > 0; {
		m, sz := utf8.DecodeRune(rest)
		if !unicode.Is(unicode.Mn, m) {
			return r
		}
		rest = rest[sz:]
	}
	return unicode.ToLower(base)
}

// Fold returns s lowercased (unicode.ToLower) with diacritics removed
// (canonical decomposition, nonspacing marks dropped), rune by rune: every
// input rune yields at most one output rune, and each invalid UTF-8 byte
// yields U+FFFD. Both analyzers fold with it, so a query folded with Fold
// compares equal to indexed text. The sharp s (ß) is kept as is: expanding it
// to "ss" would break the one-rune-per-rune mapping.
//
// Pure ASCII input costs one pass and at most one allocation; already
// folded ASCII is returned unchanged.
func Fold(s string) string {
	i, upper := asciiPrefix(s)
	if i == len(s) {
		if !upper {
			return s
		}
		b := make([]byte, len(s))
		for j := 0; j < len(s); j++ {
			c := s[j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[j] = c
		}
		// b is never written again, so the string may share it.
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	out, _ := appendFold(make([]byte, 0, len(s)+4), s, -1)
	return unsafe.String(unsafe.SliceData(out), len(out))
}

// asciiPrefix returns the length of the ASCII prefix of s and whether it
// holds an upper-case letter.
func asciiPrefix(s string) (int, bool) {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return i, upper
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	return len(s), upper
}

// FoldLen returns len(Fold(s)) without building the folded text.
func FoldLen(s string) int {
	n, _ := asciiPrefix(s)
	for i := n; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 {
			r = utf8.RuneError
		}
		i += size
		if f := foldRune(r); f != dropRune {
			n += utf8.RuneLen(f)
		}
	}
	return n
}

// appendFold appends Fold(s) to dst. With limit >= 0 it stops and reports
// false as soon as the folded text would exceed limit bytes, so huge tokens
// cost no more than limit bytes of output.
func appendFold(dst []byte, s string, limit int) ([]byte, bool) {
	base := len(dst)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if size == 1 {
				r = utf8.RuneError
			}
			i += size
			if f := foldRune(r); f != dropRune {
				dst = utf8.AppendRune(dst, f)
			}
		}
		if limit >= 0 && len(dst)-base > limit {
			return dst[:base], false
		}
	}
	return dst, true
}

// FoldMap returns Fold(s) and, when folding changed byte lengths, offsets
// with offsets[i] = the byte offset in s of the rune that produced folded
// byte i, len(offsets) == len(folded)+1 and offsets[len(folded)] == len(s).
// When every rune folded to the same number of bytes (always so for ASCII)
// offsets is nil and offsets in folded are offsets in s.
func FoldMap(s string) (folded string, offsets []int) {
	if i, _ := asciiPrefix(s); i == len(s) {
		return Fold(s), nil
	}
	b := make([]byte, 0, len(s)+4)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if size == 1 && r >= utf8.RuneSelf {
			r = utf8.RuneError
		}
		start := len(b)
		if f := foldRune(r); f != dropRune {
			b = utf8.AppendRune(b, f)
		}
		if offsets == nil && len(b)-start != size {
			offsets = identityRuneOffsets(s[:i], len(b)+len(s)-i+1)
		}
		if offsets != nil {
			for range len(b) - start {
				offsets = append(offsets, i)
			}
		}
		i += size
	}
	if offsets != nil {
		offsets = append(offsets, len(s))
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), offsets
}

// identityRuneOffsets returns the offsets of a prefix that folded without
// changing length: each byte maps to the start of its rune.
func identityRuneOffsets(prefix string, capacity int) []int {
	offsets := make([]int, 0, max(capacity, len(prefix)+1))
	for i := 0; i < len(prefix); {
		_, size := utf8.DecodeRuneInString(prefix[i:])
		for range size {
			offsets = append(offsets, i)
		}
		i += size
	}
	return offsets
}
