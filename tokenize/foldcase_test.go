package tokenize_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/twindex/twindex/tokenize"
)

// refMasks are the masks FoldCase must return, rune by rune: upper
// marks the folded bytes that are upper-case ASCII letters lowered;
// changed (nil when no rune changed) the bytes of runes that folding
// changed, and the bytes on either side of a rune it dropped (the first
// byte of the rune after it).
func refMasks(text string) (upper, changed []uint64) {
	folded, _ := tokenize.FoldMap(text)
	words := (len(folded) + 63) / 64
	upper = make([]uint64, words)
	set := func(m []uint64, k int) {
		if k >= 0 && k < len(folded) {
			m[k/64] |= 1 << (k % 64)
		}
	}
	var ch []uint64
	mark := func(k int) {
		if ch == nil {
			ch = make([]uint64, words)
		}
		set(ch, k)
	}
	o := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		orig := text[i : i+size]
		f, _ := tokenize.FoldMap(orig)
		switch {
		case f == "":
			mark(o - 1)
			mark(o)
		case f != orig && !(size == 1 && 'A' <= r && r <= 'Z' && f[0] == byte(r)+'a'-'A'):
			for k := range len(f) {
				mark(o + k)
			}
		}
		if size == 1 && 'A' <= r && r <= 'Z' {
			set(upper, o)
		}
		o += len(f)
		i += size
	}
	return upper, ch
}

func checkFoldCase(t *testing.T, text string) {
	t.Helper()
	folded, offsets, upper, changed := tokenize.FoldCase([]byte(text))
	wantFolded, wantOffsets := tokenize.FoldMap(text)
	if folded != wantFolded || !reflect.DeepEqual(offsets, wantOffsets) {
		t.Fatalf("FoldCase(%q) = %q, %v; FoldMap = %q, %v", text, folded, offsets, wantFolded, wantOffsets)
	}
	wantUpper, wantChanged := refMasks(text)
	if !reflect.DeepEqual(upper, wantUpper) || (changed == nil) != (wantChanged == nil) || changed != nil && !slices.Equal(changed, wantChanged) {
		t.Fatalf("FoldCase(%q) masks = %x, %x; want %x, %x", text, upper, changed, wantUpper, wantChanged)
	}
	ascii := !strings.ContainsFunc(text, func(r rune) bool { return r >= utf8.RuneSelf })
	if got, isASCII := tokenize.AppendFold([]byte("kept"), []byte(text)); string(got) != "kept"+wantFolded || isASCII != ascii {
		t.Fatalf("AppendFold(%q) = %q, %v; want %q, %v", text, got[4:], isASCII, wantFolded, ascii)
	}
	if changed == nil {
		// RaiseCase restores the text, whole and from any byte on.
		b := []byte(folded)
		tokenize.RaiseCase(b, upper, 0)
		if string(b) != text {
			t.Fatalf("RaiseCase of FoldCase(%q) = %q", text, b)
		}
		for lo := range len(folded) {
			hi := min(len(folded), lo+1+lo%70)
			b := []byte(folded[lo:hi])
			tokenize.RaiseCase(b, upper, lo)
			if string(b) != text[lo:hi] {
				t.Fatalf("RaiseCase of FoldCase(%q)[%d:%d] = %q, want %q", text, lo, hi, b, text[lo:hi])
			}
		}
	}
}

func TestFoldCase(t *testing.T) {
	long := strings.Repeat("getUserByID(XMLParser) ", 9)
	for _, tc := range []struct{ name, text string }{
		{"empty", ""},
		{"short lower", "func"},
		{"short upper", "ABC"},
		{"eight", "ReadFile"},
		{"every ASCII byte", asciiBytes()},
		{"words across 64 bytes", long},
		{"non-ASCII kept", long + "© 2024 " + long},
		{"non-ASCII folded", long + "Ünïcode" + long},
		{"folded shorter mid-word", "ABCDEFGHé" + long},
		{"invalid byte", long + "\xff" + long},
		{"Kelvin sign", "ABCDEFGH\u212aIJKLMNOP"},
		{"Cyrillic", "ПРИВЕТ, World of Words"},
		{"a combining mark dropped", "ABCDEFGHIe\u0301 all rights"},
		{"dropped at the start", "\u0301All"},
		{"dropped alone", "\u0301"},
		{"dropped before a wide rune", "ABCDEFGHe\u0301世界 and more text"},
		{"folded longer", "ABCDEFGH\u023aIJKLMNOPQRSTUVWXYZ"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkFoldCase(t, tc.text) })
	}
}

func asciiBytes() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

// FuzzFoldCase checks FoldCase against FoldMap and a byte-by-byte mask,
// AppendFold against FoldMap, and RaiseCase against the text.
func FuzzFoldCase(f *testing.F) {
	for _, s := range []string{"", "Hello, World", "getUserByID(XMLParser) and more", "naïve Ünïcode", "\u212a\u0130ſ", "ABCDEFGH\xffIJKLMNOPQ",
		strings.Repeat("AbCdEfGhIjKlMnOp", 9) + "Zé" + strings.Repeat("QRSTuvwxYZ", 9)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) { checkFoldCase(t, text) })
}

func BenchmarkFoldCase(b *testing.B) {
	text := []byte(strings.Repeat("func (f *File) ReadAt(b []byte, off int64) (n int, err error) {\n", 200))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		tokenize.FoldCase(text)
	}
}

func BenchmarkAppendFold(b *testing.B) {
	text := []byte(strings.Repeat("func (f *File) ReadAt(b []byte, off int64) (n int, err error) {\n", 200))
	b.SetBytes(int64(len(text)))
	var buf []byte
	for b.Loop() {
		buf, _ = tokenize.AppendFold(buf[:0], text)
	}
}
