package tokenize

import (
	"encoding/binary"
	mathbits "math/bits"
	"slices"
	"unicode/utf8"
	"unsafe"
)

// FoldCase returns what FoldMap returns for text, and two masks of a bit
// per folded byte: upper marks those that are upper-case ASCII letters in
// text, lowered; changed marks those that a rune folding changed made,
// and those on either side of a rune it dropped (the last byte before it,
// the first after). changed is nil when
// folding did nothing but lower ASCII letters: folded and upper then
// restore text. Where changed has no bit, folded is text lowered, byte
// for byte. A search process folds every document it verifies once, so
// this is the hot path of a cold search: runs of ASCII are folded eight
// bytes at a time, in the one pass that also makes the mask. text is
// read, never kept.
//
// Cost: one pass over text; two allocations for ASCII text.
func FoldCase(text []byte) (folded string, offsets []int, upper, changed []uint64) {
	b := make([]byte, len(text))
	upper = make([]uint64, (len(text)+63)/64)
	// The text's first run of ASCII is lowered in place; where it ends,
	// the loop below appends.
	i := lowerRun(b, text, upper)
	b = b[:i]
	for i < len(text) {
		if i+8 <= len(text) {
			w := binary.LittleEndian.Uint64(text[i:])
			if w&highBits == 0 {
				o := len(b)
				b = binary.LittleEndian.AppendUint64(b, lowerASCII(w))
				if m := upperBits(w); m != 0 {
					// After a multi-byte rune the eight bits may span
					// two words.
					upper[o/64] |= m << (o % 64)
					if o%64 > 56 {
						upper[o/64+1] |= m >> (64 - o%64)
					}
				}
				if offsets != nil {
					for k := range 8 {
						offsets = append(offsets, i+k)
					}
				}
				i += 8
				continue
			}
		}
		if c := text[i]; c < utf8.RuneSelf {
			o := len(b)
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
				upper[o/64] |= 1 << (o % 64)
			}
			b = append(b, c)
			if offsets != nil {
				offsets = append(offsets, i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if size == 1 {
			r = utf8.RuneError
		}
		start := len(b)
		if f := foldRune(r); f != dropRune {
			b = utf8.AppendRune(b, f)
		}
		switch {
		case len(b) == start:
			// The bytes before and after it; the one after, if none
			// comes, is cleared below (a text of dropped runes alone has
			// a changed mask with no bits).
			if start > 0 {
				changed = setBit(changed, start-1)
			}
			changed = setBit(changed, start)
		case string(b[start:]) != string(text[i:i+size]):
			for k := start; k < len(b); k++ {
				changed = setBit(changed, k)
			}
		}
		if offsets == nil && len(b)-start != size {
			offsets = identityRuneOffsets(unsafe.String(unsafe.SliceData(text), i), len(b)+len(text)-i+1)
		}
		if offsets != nil {
			for range len(b) - start {
				offsets = append(offsets, i)
			}
		}
		i += size
		// A rune folded longer: the rest of text, ASCII byte for byte,
		// must still find its bits.
		if len(b) > i {
			upper = grow(upper, (len(b)+len(text)-i+63)/64)
		}
	}
	if offsets != nil {
		offsets = append(offsets, len(text))
	}
	words := (len(b) + 63) / 64
	upper = upper[:words]
	if changed != nil {
		changed = append(changed, make([]uint64, max(0, words-len(changed)))...)[:words]
		if n := len(b) % 64; n != 0 {
			changed[words-1] &= 1<<n - 1
		}
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), offsets, upper, changed
}

// RaiseCase undoes FoldCase's lowering in b, which holds the folded bytes
// from off on: it raises the letters that upper (FoldCase's mask) marks.
// Where FoldCase's changed mask is nil, that restores the text.
//
// Cost: a step per upper-case letter of b.
func RaiseCase(b []byte, upper []uint64, off int) {
	end := off + len(b)
	for w := off / 64; w < len(upper) && w*64 < end; w++ {
		bits := upper[w]
		for ; bits != 0; bits &= bits - 1 {
			if i := w*64 + mathbits.TrailingZeros64(bits); i >= off && i < end {
				b[i-off] -= 'a' - 'A'
			}
		}
	}
}

// AppendFold appends Fold(text) to dst and returns it, and whether text
// is ASCII: FoldCase's folded text alone, for a reader that keeps neither
// maps nor masks (a search verifying candidates it will not show). Into a
// buffer used again, it allocates nothing.
//
// Cost: one pass over text, ASCII sixteen bytes at a time into room made
// once; from the first other byte on, as Fold folds it.
func AppendFold(dst, text []byte) (folded []byte, ascii bool) {
	o := len(dst)
	dst = slices.Grow(dst, len(text))[:o+len(text)]
	out := dst[o:]
	i := lowerRun(out, text, nil)
	for ; i+8 <= len(text); i += 8 {
		w := binary.LittleEndian.Uint64(text[i : i+8])
		if w&highBits != 0 {
			break
		}
		binary.LittleEndian.PutUint64(out[i:i+8], lowerASCII(w))
	}
	for ; i < len(text) && text[i] < utf8.RuneSelf; i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	if i == len(text) {
		return dst, true
	}
	return appendFoldRest(dst[:o+i], text[i:]), false
}

// lowerRun lowers text's first run of ASCII into out, as long as text,
// sixteen bytes a step while they are all ASCII, and returns how many it
// lowered: a multiple of sixteen. With upper not nil (FoldCase's mask of
// upper-case letters, zeroed), it marks there the letters it lowered.
func lowerRun(out, text []byte, upper []uint64) int {
	i := 0
	for ; i+16 <= len(text); i += 16 {
		w0, w1 := binary.LittleEndian.Uint64(text[i:i+8]), binary.LittleEndian.Uint64(text[i+8:i+16])
		if (w0|w1)&highBits != 0 {
			break
		}
		binary.LittleEndian.PutUint64(out[i:i+8], lowerASCII(w0))
		binary.LittleEndian.PutUint64(out[i+8:i+16], lowerASCII(w1))
		if upper != nil {
			if up := upperBits(w0) | upperBits(w1)<<8; up != 0 {
				// i is a multiple of 16: its sixteen bits stay in one word.
				upper[i/64] |= up << (i % 64)
			}
		}
	}
	return i
}

// caseBits sets the high bit of each of eight ASCII bytes that is in
// A-Z. Bytes under 0x80 never carry into their neighbours: a high bit of
// w+0x3f.. is a byte >= 'A', of w+0x25.. a byte > 'Z'.
func caseBits(w uint64) uint64 {
	return (w + 0x3f3f3f3f3f3f3f3f) &^ (w + 0x2525252525252525) & highBits
}

// upperBits gathers into bits 0-7 which of eight ASCII bytes are in A-Z:
// byte k's case bit into bit k.
func upperBits(w uint64) uint64 { return (caseBits(w) >> 7) * 0x0102040810204080 >> 56 }

// lowerASCII lowers the letters of eight ASCII bytes.
func lowerASCII(w uint64) uint64 { return w | caseBits(w)>>2 }

// appendFoldRest is AppendFold past its run of ASCII: a fold whose length
// may differ from text's.
func appendFoldRest(dst, text []byte) []byte {
	for i := 0; i < len(text); {
		if i+8 <= len(text) {
			w := binary.LittleEndian.Uint64(text[i:])
			if w&highBits == 0 {
				dst = binary.LittleEndian.AppendUint64(dst, lowerASCII(w))
				i += 8
				continue
			}
		}
		// Up to eight bytes and the rest of the rune they end in: a rune
		// decodes from its own bytes, so the piece folds as the whole.
		j := min(i+8, len(text))
		for j < len(text) && !utf8.RuneStart(text[j]) {
			j++
		}
		dst, _ = appendFold(dst, unsafe.String(&text[i], j-i), -1)
		i = j
	}
	return dst
}

// setBit sets bit k of mask, which it grows as needed. Kept out of line,
// as grow is, so that FoldCase's ASCII loop keeps its registers.
//
//go:noinline
func setBit(mask []uint64, k int) []uint64 {
	mask = grow(mask, k/64+1)
	mask[k/64] |= 1 << (k % 64)
	return mask
}

// grow returns mask with at least n words.
//
//go:noinline
func grow(mask []uint64, n int) []uint64 {
	if n > len(mask) {
		mask = append(mask, make([]uint64, n-len(mask))...)
	}
	return mask
}

// highBits is the high bit of each byte of a word.
const highBits = 0x8080808080808080
