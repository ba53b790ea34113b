package index

import (
	"testing"

	"github.com/twindex/twindex/tokenize"
)

func TestCaseMask(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		restorable bool
	}{
		{"empty", "", true},
		{"lower", "func main() {}", true},
		{"camel", "getUserByID(XMLParser)", true},
		{"long", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 across a word boundary of 64 bytes and more", true},
		{"unchanged non-ASCII", "naïve → ok", false},
		{"upper non-ASCII", "Ünïcode", false},
		{"Kelvin sign", "\u212a", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			folded, _, m := tokenize.FoldCase([]byte(tc.text))
			if got := m != nil; got != tc.restorable {
				t.Fatalf("FoldCase(%q) restorable = %v, want %v", tc.text, got, tc.restorable)
			}
			if m != nil {
				if got := restoreCase(folded, m); got != tc.text {
					t.Fatalf("restoreCase = %q, want %q", got, tc.text)
				}
			}
		})
	}
}

// FuzzCaseMask checks that a text restored from its folded form and case
// mask is the text itself: snippets are rendered from the restored text.
func FuzzCaseMask(f *testing.F) {
	for _, s := range []string{"", "Hello, World", "getUserByID", "naïve Ünïcode", "\u212a\u0130ſ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if folded, _, m := tokenize.FoldCase([]byte(text)); m != nil {
			if got := restoreCase(folded, m); got != text {
				t.Fatalf("restoreCase(Fold(%q)) = %q", text, got)
			}
		}
	})
}
