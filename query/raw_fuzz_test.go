package query_test

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/twindex/twindex/query"
)

// TestRawLarge feeds inputs on which a quadratic or deeply recursive parser
// would time out or overflow its stack.
func TestRawLarge(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		leaves int // 0: an error is expected
	}{
		{"100k open parentheses", strings.Repeat("(", 100_000), 0},
		{"100k close parentheses", strings.Repeat(")", 100_000), 0},
		{"deep parentheses", strings.Repeat("(", 100_000) + "a" + strings.Repeat(")", 100_000), 0},
		{"unterminated quote", `"` + strings.Repeat("a ", 200_000), 0},
		{"doubled quotes", `"` + strings.Repeat(`""`, 200_000) + `"`, 1},
		{"many terms", strings.Repeat("a ", 200_000), 200_000},
		{"many ORs", strings.Repeat("a OR ", 100_000) + "a", 100_001},
		{"many NOTs", strings.Repeat("a NOT ", 100_000) + "a", 100_001},
		{"many pluses", strings.Repeat("a + ", 100_000) + "a", 1},
		{"wide NEAR", "NEAR(" + strings.Repeat("a ", 100_000) + ")", 100_000},
		{"many filters", strings.Repeat("{title body}:(-body:a) AND ", 50_000) + "a", 50_001},
		{"many empty phrases", strings.Repeat(`"" `, 100_000) + "x", 1},
		{"only empty phrases", strings.Repeat(`"" `, 100_000), 0},
		{"one huge word", strings.Repeat("é", 500_000), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := query.Raw(tt.input)
			if tt.leaves == 0 {
				if err == nil {
					t.Fatalf("got %d leaves, want an error", len(query.Leaves(n)))
				}
				checkError(t, tt.input, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := len(query.Leaves(n)); got != tt.leaves {
				t.Errorf("got %d leaves, want %d", got, tt.leaves)
			}
			checkRaw(t, tt.input, n)
		})
	}
}

func FuzzRaw(f *testing.F) {
	for _, s := range []string{
		"", " ", "open file", `"open file"`, `"a""b"`, `""`, `"`, `"unterminated`, `a "b`,
		"vid*", `"video mo" *`, "^a", "one + two + thr*", "a* + b",
		"a AND b OR c NOT d", "a NOT b c", "NOT a", "a AND", "(a OR b) c", "func(x)",
		"NEAR(a b, 3)", "NEAR(", "NEAR(a b", "NEAR(a b,", "NEAR(a b, -1)", "NEAR(a b, 99999999999)",
		"title:a", "{title body}:a", "-title:(a OR b)", "title:(body:a)", "-{title body}:a", "{}:a", "foo:a",
		"mcp-server foo.bar() C++ key:value", "a\x00b", "\x00", "\xff\xfe\xfd", "a\xc3", "\xe2\x80",
		"\u200f\u05e9\u05dc\u05d5\u05dd\u200e", "👩‍👩‍👧‍👦 👨🏽‍💻", "\t\n\v\f\r \u0085\u00a0\u3000",
		"\x1a", "(((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))",
		strings.Repeat("(", 50) + "a" + strings.Repeat(")", 50),
		strings.Repeat("(", 40),
		strings.Repeat(`"`, 51),
		strings.Repeat("title:(", 20) + "a" + strings.Repeat(")", 20),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		n, err := query.Raw(input)
		if err != nil {
			if n != nil {
				t.Fatalf("Raw(%q): node %s with error %v", input, n, err)
			}
			checkError(t, input, err)
			return
		}
		if n == nil {
			t.Fatalf("Raw(%q): nil node without error", input)
		}
		checkRaw(t, input, n)
		if m, err := query.Raw(input); err != nil || m.String() != n.String() {
			t.Fatalf("Raw(%q) not deterministic: %s then %v, %v", input, n, m, err)
		}
	})
}

// checkError verifies that err is ErrEmpty or an *Error whose span lies in
// the input.
func checkError(t *testing.T, input string, err error) {
	t.Helper()
	if errors.Is(err, query.ErrEmpty) {
		if strings.TrimFunc(strings.ReplaceAll(input, `"`, ""), unicode.IsSpace) != "" {
			t.Fatalf("Raw(%q): ErrEmpty for input with content", input)
		}
		return
	}
	var qe *query.Error
	if !errors.As(err, &qe) {
		t.Fatalf("Raw(%q): error %v is neither *Error nor ErrEmpty", input, err)
	}
	if qe.Pos < 0 || qe.Pos > len(input) || qe.Len < 0 || qe.Pos+qe.Len > len(input) {
		t.Fatalf("Raw(%q): error span %d+%d outside input of %d bytes", input, qe.Pos, qe.Len, len(input))
	}
	if qe.Msg == "" || qe.Query != input {
		t.Fatalf("Raw(%q): error %#v", input, qe)
	}
	_ = qe.Caret()
}

// checkRaw verifies the package invariants on a tree from Raw: leaf spans
// lie in the input, in input order, without overlap; leaf text is not
// blank and a Term's is its bareword; columns are known, ordered and
// unique; And and Or have two or more children and are flat; a Not only
// sits in an And that has a child that is not a Not; NEAR holds leaves.
func checkRaw(t *testing.T, input string, n query.Node) {
	t.Helper()
	end := 0
	var check func(n query.Node, parent query.Node, depth int)
	check = func(n query.Node, parent query.Node, depth int) {
		if depth > 3*32+2 {
			t.Fatalf("Raw(%q): tree deeper than the nesting limit allows", input)
		}
		var children []query.Node
		switch n := n.(type) {
		case *query.Term:
			checkLeaf(t, input, n, n.Text, n.Pos, n.Len, n.Columns, &end)
			if !strings.Contains(input[n.Pos:n.Pos+n.Len], n.Text) {
				t.Fatalf("Raw(%q): term %s not in its span %q", input, n, input[n.Pos:n.Pos+n.Len])
			}
		case *query.Phrase:
			checkLeaf(t, input, n, n.Text, n.Pos, n.Len, n.Columns, &end)
		case *query.Prefix:
			checkLeaf(t, input, n, n.Text, n.Pos, n.Len, n.Columns, &end)
		case *query.And:
			children = n.Children
			if len(children) < 2 {
				t.Fatalf("Raw(%q): %s has fewer than two children", input, n)
			}
			positive := false
			for _, c := range children {
				if _, ok := c.(*query.And); ok {
					t.Fatalf("Raw(%q): %s not flat", input, n)
				}
				if _, ok := c.(*query.Not); !ok {
					positive = true
				}
			}
			if !positive {
				t.Fatalf("Raw(%q): %s has only Not children", input, n)
			}
		case *query.Or:
			children = n.Children
			if len(children) < 2 {
				t.Fatalf("Raw(%q): %s has fewer than two children", input, n)
			}
			for _, c := range children {
				if _, ok := c.(*query.Or); ok {
					t.Fatalf("Raw(%q): %s not flat", input, n)
				}
			}
		case *query.Not:
			if _, ok := parent.(*query.And); !ok {
				t.Fatalf("Raw(%q): %s outside an And", input, n)
			}
			children = []query.Node{n.Child}
		case *query.Near:
			children = n.Children
			if len(children) < 2 || n.Distance < 0 {
				t.Fatalf("Raw(%q): bad %s", input, n)
			}
			for _, c := range children {
				switch c.(type) {
				case *query.Term, *query.Phrase, *query.Prefix:
				default:
					t.Fatalf("Raw(%q): %s in NEAR", input, c)
				}
			}
		default:
			t.Fatalf("Raw(%q): unexpected node %T", input, n)
		}
		for _, c := range children {
			if c == nil {
				t.Fatalf("Raw(%q): nil child in %s", input, n)
			}
			check(c, n, depth+1)
		}
	}
	check(n, nil, 0)
	_ = n.String()
}

func checkLeaf(t *testing.T, input string, n query.Node, text string, pos, length int, cols []string, end *int) {
	t.Helper()
	if pos < *end || length <= 0 || pos+length > len(input) {
		t.Fatalf("Raw(%q): leaf %s span [%d,%d) out of order or outside input (previous ended at %d)", input, n, pos, pos+length, *end)
	}
	*end = pos + length
	if strings.TrimFunc(text, unicode.IsSpace) != text || text == "" {
		t.Fatalf("Raw(%q): leaf %s has blank or untrimmed text", input, n)
	}
	if cols != nil {
		ok := len(cols) == 1 && (cols[0] == "title" || cols[0] == "body") ||
			len(cols) == 2 && cols[0] == "title" && cols[1] == "body"
		if !ok {
			t.Fatalf("Raw(%q): leaf %s has columns %q", input, n, cols)
		}
	}
}
