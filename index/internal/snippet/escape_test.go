package snippet

import (
	"html"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEscaped holds writeEscaped to html.EscapeString: every byte alone
// and beside another, and random mixes of text and escaped characters.
func TestEscaped(t *testing.T) {
	check := func(s string) {
		t.Helper()
		var b strings.Builder
		writeEscaped(&b, s)
		if got, want := b.String(), html.EscapeString(s); got != want {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	}
	for c := range 256 {
		for _, d := range []byte("a&'<>\"\xff") {
			check(string([]byte{byte(c)}))
			check(string([]byte{byte(c), d}))
			check(string([]byte{d, byte(c)}))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	parts := []string{"&", "'", "<", ">", `"`, "a", "é", "&amp;", " ", "\n", "\x00"}
	for range 1000 {
		var b strings.Builder
		for range r.IntN(20) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		check(b.String())
	}
}
