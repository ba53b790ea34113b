package tokenize_test

import (
	"reflect"
	"testing"

	"github.com/twindex/twindex/tokenize"
)

func TestFold(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"empty", "", ""},
		{"ascii lower", "already lower", "already lower"},
		{"ascii upper", "MiXeD Case 42", "mixed case 42"},
		{"acute", "café", "cafe"},
		{"ring and umlaut", "Ångström", "angstrom"},
		{"tilde", "Ñandú", "nandu"},
		{"sharp s kept", "Straße", "straße"},
		{"capital sharp s", "ẞ", "ß"},
		{"decomposed", "e\u0301", "e"},
		{"stacked marks", "a\u0301\u0302\u0303", "a"},
		{"greek tonos", "Ελληνικά", "ελληνικα"},
		{"cyrillic", "ПРИВЕТ", "привет"},
		{"cyrillic short i", "й", "и"},
		{"hangul kept whole", "한국어", "한국어"},
		{"han unchanged", "東京", "東京"},
		{"invalid bytes", "a\xff\xfeb", "a\ufffd\ufffdb"},
		{"nul kept", "a\x00B", "a\x00b"},
		{"emoji kept", "👩‍💻", "👩‍💻"},
		{"dotted capital i", "İ", "i"},
		{"kelvin sign", "\u212a", "k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tokenize.Fold(tt.input); got != tt.want {
				t.Errorf("Fold(%q) = %q, want %q", tt.input, got, tt.want)
			}
			checkFold(t, tt.input)
		})
	}
}

func TestFoldMap(t *testing.T) {
	tests := []struct {
		name        string
		input       string
		wantFolded  string
		wantOffsets []int
	}{
		{"ascii", "AbC", "abc", nil},
		{"same length non-ascii", "ПР", "пр", nil},
		{"shorter", "éa", "ea", []int{0, 2, 3}},
		{"dropped mark", "e\u0301x", "ex", []int{0, 3, 4}},
		{"invalid byte grows", "a\xff", "a\ufffd", []int{0, 1, 1, 1, 2}},
		{"kelvin shrinks", "x\u212a", "xk", []int{0, 1, 4}},
		{"prefix before change", "пé", "пe", []int{0, 0, 2, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			folded, offsets := tokenize.FoldMap(tt.input)
			if folded != tt.wantFolded || !reflect.DeepEqual(offsets, tt.wantOffsets) {
				t.Errorf("FoldMap(%q) = %q, %v; want %q, %v", tt.input, folded, offsets, tt.wantFolded, tt.wantOffsets)
			}
			checkFold(t, tt.input)
		})
	}
}

func TestFoldASCIIUnchangedNoAlloc(t *testing.T) {
	s := "already folded ascii text"
	if n := testing.AllocsPerRun(100, func() { _ = tokenize.Fold(s) }); n != 0 {
		t.Errorf("Fold of folded ASCII allocates %v times", n)
	}
}
