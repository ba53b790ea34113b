package query_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/twindex/twindex/query"
)

func TestSimple(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"one word", "open", `"open"`},
		{"plain words", "open file", `AND("open" "file")`},
		{"extra spaces", "  open   file  ", `AND("open" "file")`},
		{"tabs and newlines", "open\tfile\r\nnow\v\fx", `AND("open" "file" "now" "x")`},
		{"phrase", `"open file"`, `PHRASE("open file")`},
		{"phrase among terms", `read "open file" now`, `AND("read" PHRASE("open file") "now")`},
		{"phrase trimmed", `"  open file  "`, `PHRASE("open file")`},
		{"phrase inner spacing kept", "\"open \t file\"", `PHRASE("open \t file")`},
		{"single word phrase", `"open"`, `PHRASE("open")`},
		{"unbalanced quote", `find "open file`, `AND("find" PHRASE("open file"))`},
		{"unbalanced quote then spaces", `"open `, `PHRASE("open")`},
		{"quote inside word", `say"hi`, `"say\"hi"`},
		{"quote ends word", `hi" there`, `AND("hi\"" "there")`},
		{"quote inside word then phrase", `say"hi "x y"`, `AND("say\"hi" PHRASE("x y"))`},
		{"word after closing quote", `"a b"c`, `AND(PHRASE("a b") "c")`},
		{"adjacent phrases", `"a""b"`, `AND(PHRASE("a") PHRASE("b"))`},
		{"empty phrase dropped", `x "" y`, `AND("x" "y")`},
		{"dash", "mcp-server", `"mcp-server"`},
		{"colon", "key:value", `"key:value"`},
		{"plus", "C++", `"C++"`},
		{"call", "foo.bar()", `"foo.bar()"`},
		{"leading dash", "-x", `"-x"`},
		{"star", "*", `"*"`},
		{"prefix-looking", "pre*", `"pre*"`},
		{"caret", "^word", `"^word"`},
		{"parentheses", "((a OR b))", `AND("((a" "OR" "b))")`},
		{"operators are words", "AND OR NOT NEAR", `AND("AND" "OR" "NOT" "NEAR")`},
		{"near literal", "NEAR(a b, 3)", `AND("NEAR(a" "b," "3)")`},
		{"duplicates kept", "a a", `AND("a" "a")`},
		{"unicode", "naïve café", `AND("naïve" "café")`},
		{"cjk", "日本語 検索", `AND("日本語" "検索")`},
		{"ideographic space", "日本語\u3000検索", `AND("日本語" "検索")`},
		{"no-break space", "a\u00a0b", `AND("a" "b")`},
		{"emoji", "🚀 launch", `AND("🚀" "launch")`},
		{"zwj emoji", "👩\u200d💻", `"👩\u200d💻"`},
		{"rtl", "שלום עולם", `AND("שלום" "עולם")`},
		{"nul", "a\x00b", `"a\x00b"`},
		{"invalid utf8", "a\xffb c", `AND("a\xffb" "c")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := query.Simple(tt.input)
			if err != nil {
				t.Fatalf("Simple(%q): %v", tt.input, err)
			}
			if got := n.String(); got != tt.want {
				t.Errorf("Simple(%q) = %s, want %s", tt.input, got, tt.want)
			}
			checkSpans(t, tt.input, n)
		})
	}
}

func TestSimpleEmpty(t *testing.T) {
	for name, input := range map[string]string{
		"empty":             "",
		"spaces":            "   ",
		"tabs and newlines": "\t\n\r\n ",
		"empty phrase":      `""`,
		"blank phrase":      `"   "`,
		"lone quote":        `"`,
		"empty phrases":     `"" "" "`,
		"unicode spaces":    "\u3000\u00a0\u2003",
	} {
		t.Run(name, func(t *testing.T) {
			n, err := query.Simple(input)
			if !errors.Is(err, query.ErrEmpty) {
				t.Errorf("Simple(%q) = %v, %v; want ErrEmpty", input, n, err)
			}
			if n != nil {
				t.Errorf("Simple(%q) returned node %s with error", input, n)
			}
		})
	}
}

func TestSimplePositions(t *testing.T) {
	input := `ab "c d" é"f "g`
	n, err := query.Simple(input)
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ pos, len int }
	want := []span{{0, 2}, {3, 5}, {9, 4}, {14, 2}}
	leaves := query.Leaves(n)
	if len(leaves) != len(want) {
		t.Fatalf("got %d leaves, want %d", len(leaves), len(want))
	}
	for i, l := range leaves {
		var got span
		switch l := l.(type) {
		case *query.Term:
			got = span{l.Pos, l.Len}
		case *query.Phrase:
			got = span{l.Pos, l.Len}
		}
		if got != want[i] {
			t.Errorf("leaf %d (%s): span %v, want %v", i, l, got, want[i])
		}
	}
}

// checkSpans verifies the package invariant that every leaf's span lies in
// the input and contains its text.
func checkSpans(t *testing.T, input string, n query.Node) {
	t.Helper()
	for _, l := range query.Leaves(n) {
		var text string
		var pos, length int
		switch l := l.(type) {
		case *query.Term:
			text, pos, length = l.Text, l.Pos, l.Len
		case *query.Phrase:
			text, pos, length = l.Text, l.Pos, l.Len
		case *query.Prefix:
			text, pos, length = l.Text, l.Pos, l.Len
		}
		if pos < 0 || length <= 0 || pos+length > len(input) {
			t.Fatalf("leaf %s: span [%d,%d) outside input of %d bytes", l, pos, pos+length, len(input))
		}
		if strings.TrimSpace(text) == "" {
			t.Fatalf("leaf %s: blank text", l)
		}
		if !strings.Contains(input[pos:pos+length], text) {
			t.Fatalf("leaf %s: span %q does not contain text", l, input[pos:pos+length])
		}
	}
}

func TestSimpleLarge(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		leaves int
	}{
		{"100k quotes", strings.Repeat(`"`, 100_000), 0},
		{"100k quotes and one more", strings.Repeat(`"`, 100_001), 0},
		{"quoted words", strings.Repeat(`"x" `, 50_000), 50_000},
		{"deep parentheses", strings.Repeat("(", 100_000) + "a" + strings.Repeat(")", 100_000), 1},
		{"alternating quotes", strings.Repeat(`a "b `, 10_000), 15_000},
		{"one huge word", strings.Repeat("é", 500_000), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := query.Simple(tt.input)
			if tt.leaves == 0 {
				if !errors.Is(err, query.ErrEmpty) {
					t.Fatalf("got %v, want ErrEmpty", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := len(query.Leaves(n)); got != tt.leaves {
				t.Errorf("got %d leaves, want %d", got, tt.leaves)
			}
			checkSpans(t, tt.input, n)
		})
	}
}

func FuzzSimple(f *testing.F) {
	for _, s := range []string{
		"", " ", "open file", `"open file"`, `say"hi`, `"unbalanced`, `""`, `"`,
		"mcp-server key:value C++ foo.bar() -x *", "AND OR NOT NEAR(a b, 3)",
		"a\x00b", "\xff\xfe\xfd", "a\xc3", "\xe2\x80", "\u200f\u05e9\u05dc\u05d5\u05dd\u200e",
		"👩‍👩‍👧‍👦 👨🏽‍💻", "\t\n\v\f\r \u0085\u00a0\u3000",
		// Kept small: the fuzzer spends up to a minute minimizing each large
		// interesting input. TestSimpleLarge covers the big ones.
		strings.Repeat(`"`, 101),
		strings.Repeat("(", 50) + "a" + strings.Repeat(")", 50),
		strings.Repeat(`a "b `, 20),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		n, err := query.Simple(input)
		if err != nil {
			if !errors.Is(err, query.ErrEmpty) {
				t.Fatalf("Simple(%q): unexpected error %v", input, err)
			}
			if n != nil {
				t.Fatalf("Simple(%q): node with error", input)
			}
			return
		}
		if n == nil {
			t.Fatalf("Simple(%q): nil node without error", input)
		}
		if len(query.Leaves(n)) == 0 {
			t.Fatalf("Simple(%q): no leaves", input)
		}
		checkSpans(t, input, n)
		_ = n.String()
	})
}
