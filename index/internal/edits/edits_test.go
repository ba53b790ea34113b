package edits_test

import (
	"fmt"
	"testing"

	"github.com/twindex/twindex/index/internal/edits"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		limit int
		want  int
	}{
		{"equal", "reader", "reader", 2, 0},
		{"both empty", "", "", 0, 0},
		{"from empty", "", "abc", 3, 3},
		{"to empty", "abc", "", 3, 3},
		{"insertion", "readr", "reader", 2, 1},
		{"deletion", "reader", "rader", 2, 1},
		{"substitution", "reader", "reaker", 2, 1},
		{"transposition", "configuration", "cnofiguration", 2, 1},
		{"two transpositions", "configuration", "cnofgiuration", 2, 2},
		{"no part edited twice", "ca", "abc", 3, 3},
		{"runes, not bytes", "мор", "мир", 1, 1},
		{"runes transposed", "日本", "本日", 1, 1},
		{"beyond the limit", "reader", "writer", 2, 3},
		{"lengths too far apart", "a", "abcd", 2, 3},
		{"limit zero", "ab", "ac", 0, 1},
		{"limit zero, equal", "ab", "ab", 0, 0},
		{"stops early, still limit+1", "aaaaaaaa", "bbbbbbbb", 1, 2},
		{"longer than the rows on the stack", "abcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456798", 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := edits.Distance([]rune(tt.a), tt.b, tt.limit); got != tt.want {
				t.Fatalf("Distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
			}
		})
	}
}

// A term of fewer than 32 runes is measured with no allocation: a fuzzy
// walk measures every term it reaches.
func TestDistanceAllocates(t *testing.T) {
	a := []rune("readre")
	if n := testing.AllocsPerRun(100, func() { edits.Distance(a, "reader", 2) }); n != 0 {
		t.Fatalf("Distance allocated %v times a call, want 0", n)
	}
}

func TestAuto(t *testing.T) {
	tests := []struct{ n, want int }{{0, 0}, {1, 0}, {2, 0}, {3, 1}, {5, 1}, {6, 2}, {40, 2}}
	for _, tt := range tests {
		if got := edits.Auto(tt.n); got != tt.want {
			t.Errorf("Auto(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// reference is the optimal string alignment distance by the textbook
// dynamic programme over the whole matrix, with no limit.
func reference(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// Distance agrees with the reference, capped at limit+1, for any words
// (invalid UTF-8 counts a rune per bad byte, in both) and limits 0..4.
func FuzzDistance(f *testing.F) {
	f.Add("configuration", "cnofgiuration", uint8(2))
	f.Add("ca", "abc", uint8(3))
	f.Add("мор", "мир", uint8(1))
	f.Add("aaaaaaaa", "bbbbbbbb", uint8(1))
	f.Add("ab\xffc", "b\xffac", uint8(4))
	f.Add("abcdefghijklmnopqrstuvwxyz012345", "bacdefghijklmnopqrstuvwxyz0123456", uint8(2))
	f.Fuzz(func(t *testing.T, a, b string, lim uint8) {
		if len(a) > 64 || len(b) > 64 {
			return // the reference is quadratic
		}
		limit := int(lim % 5)
		want := min(reference([]rune(a), []rune(b)), limit+1)
		if got := edits.Distance([]rune(a), b, limit); got != want {
			t.Fatalf("Distance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		}
	})
}

func ExampleDistance() {
	word := []rune("cnofiguration")
	for _, term := range []string{"configuration", "figuration", "configure"} {
		fmt.Println(term, edits.Distance(word, term, 2))
	}
	// Output:
	// configuration 1
	// figuration 3
	// configure 3
}

func ExampleAuto() {
	for _, w := range []string{"до", "мор", "reader"} {
		fmt.Println(w, edits.Auto(len([]rune(w))))
	}
	// Output:
	// до 0
	// мор 1
	// reader 2
}
