package tokenize

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// FoldCase returns what FoldMap returns for text, and upper, a bit per
// byte of text marking its upper-case ASCII letters, when folding did
// nothing but lower them (folded and upper then restore text); nil
// otherwise. A search process folds every document it
// verifies once, so this is the hot path of a cold search: runs of ASCII
// are folded eight bytes at a time, in the one pass that also makes the
// mask. text is read, never kept.
//
// Cost: one pass over text; two allocations for ASCII text.
func FoldCase(text []byte) (folded string, offsets []int, upper []uint64) {
	b := make([]byte, 0, len(text))
	upper = make([]uint64, (len(text)+63)/64)
	restorable := true
	for i := 0; i < len(text); {
		if i+8 <= len(text) {
			w := binary.LittleEndian.Uint64(text[i:])
			if w&highBits == 0 {
				// Bytes under 0x80 never carry into their neighbours:
				// a high bit of w+0x3f.. is a byte >= 'A', of
				// w+0x25.. a byte > 'Z'.
				up := (w + 0x3f3f3f3f3f3f3f3f) &^ (w + 0x2525252525252525) & highBits
				b = binary.LittleEndian.AppendUint64(b, w|up>>2)
				if up != 0 {
					// Gathers byte k's high bit into bit k; after a
					// multi-byte rune the eight bits may span two words.
					m := (up >> 7) * 0x0102040810204080 >> 56
					upper[i/64] |= m << (i % 64)
					if i%64 > 56 {
						upper[i/64+1] |= m >> (64 - i%64)
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
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
				upper[i/64] |= 1 << (i % 64)
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
		if restorable && string(b[start:]) != string(text[i:i+size]) {
			restorable = false
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
	}
	if offsets != nil {
		offsets = append(offsets, len(text))
	}
	if !restorable {
		upper = nil
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), offsets, upper
}

// highBits is the high bit of each byte of a word.
const highBits = 0x8080808080808080
