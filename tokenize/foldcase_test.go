package tokenize_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/twindex/twindex/tokenize"
)

// refMask is the case mask FoldCase must return, byte by byte: nil unless
// folded is text with upper-case ASCII letters lowered.
func refMask(text, folded string) []uint64 {
	if len(text) != len(folded) {
		return nil
	}
	m := make([]uint64, (len(text)+63)/64)
	for i := range len(text) {
		c := text[i]
		switch {
		case c == folded[i]:
		case 'A' <= c && c <= 'Z' && folded[i] == c+('a'-'A'):
			m[i/64] |= 1 << (i % 64)
		default:
			return nil
		}
	}
	return m
}

func checkFoldCase(t *testing.T, text string) {
	t.Helper()
	folded, offsets, upper := tokenize.FoldCase([]byte(text))
	wantFolded, wantOffsets := tokenize.FoldMap(text)
	if folded != wantFolded || !reflect.DeepEqual(offsets, wantOffsets) {
		t.Fatalf("FoldCase(%q) = %q, %v; FoldMap = %q, %v", text, folded, offsets, wantFolded, wantOffsets)
	}
	if want := refMask(text, folded); !reflect.DeepEqual(upper, want) {
		t.Fatalf("FoldCase(%q) mask = %x, want %x", text, upper, want)
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

// FuzzFoldCase checks FoldCase against FoldMap and a byte-by-byte mask.
func FuzzFoldCase(f *testing.F) {
	for _, s := range []string{"", "Hello, World", "getUserByID(XMLParser) and more", "naïve Ünïcode", "\u212a\u0130ſ", "ABCDEFGH\xffIJKLMNOPQ"} {
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
