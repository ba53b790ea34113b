package query_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/twindex/twindex/query"
)

func TestRaw(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		// Strings, phrases and prefixes.
		{"term", "open", `"open"`},
		{"implicit and", "open file", `AND("open" "file")`},
		{"white space", " \topen\r\n\u3000file\u00a0", `AND("open" "file")`},
		{"phrase", `"open file"`, `PHRASE("open file")`},
		{"one-word phrase", `"open"`, `PHRASE("open")`},
		{"phrase trimmed", `"  open file  "`, `PHRASE("open file")`},
		{"punctuation in phrase", `"mcp-server foo.bar() C++ key:value"`, `PHRASE("mcp-server foo.bar() C++ key:value")`},
		{"operators in phrase", `"a AND (b) NEAR(c"`, `PHRASE("a AND (b) NEAR(c")`},
		{"doubled quote", `"say ""hi"""`, `PHRASE("say \"hi\"")`},
		{"only a quote", `""""`, `PHRASE("\"")`},
		{"adjacent phrases", `"a" "b"`, `AND(PHRASE("a") PHRASE("b"))`},
		{"prefix", "vid*", `"vid"*`},
		{"prefix after space", "vid *", `"vid"*`},
		{"phrase prefix", `"video mo"*`, `"video mo"*`},
		{"phrase prefix after space", `"video mo" *`, `"video mo"*`},
		{"plus", "one + two", `PHRASE("one two")`},
		{"plus without spaces", "one+two+three", `PHRASE("one two three")`},
		{"plus phrases", `"one two" + "three"`, `PHRASE("one two three")`},
		{"plus prefix", "one + tw*", `"one tw"*`},
		{"empty dropped from plus", `abc + "" + def`, `PHRASE("abc def")`},
		{"empty dropped from and", `abc "" def`, `AND("abc" "def")`},
		{"initial", "^open", `^"open"`},
		{"initial phrase", `^"open file"`, `^PHRASE("open file")`},
		{"initial prefix", "^op*", `^"op"*`},
		{"initial after space", "^ open", `^"open"`},

		// Bareword characters.
		{"digits and underscore", "a_1 2024", `AND("a_1" "2024")`},
		{"substitute character", "a\x1ab", `"a\x1ab"`},
		{"non-ascii", "naïve café", `AND("naïve" "café")`},
		{"cjk", "日本語 検索", `AND("日本語" "検索")`},
		{"ideographic space", "日本語\u3000検索", `AND("日本語" "検索")`},
		{"emoji", "🚀 launch", `AND("🚀" "launch")`},
		{"zwj emoji", "👩\u200d💻", `"👩\u200d💻"`},
		{"rtl", "שלום עולם", `AND("שלום" "עולם")`},
		{"non-ascii punctuation", "“smart” — dash", `AND("“smart”" "—" "dash")`},
		{"invalid utf8", "a\xffb c", `AND("a\xffb" "c")`},
		{"lowercase operators", "and or not near", `AND("and" "or" "not" "near")`},
		{"operator prefixes", "ANDroid ORacle NOTE NEARly", `AND("ANDroid" "ORacle" "NOTE" "NEARly")`},
		{"NEAR alone", "NEAR", `"NEAR"`},
		{"NEAR as term", "NEAR AND x", `AND("NEAR" "x")`},
		{"quoted operators", `"AND" "OR" "NOT"`, `AND(PHRASE("AND") PHRASE("OR") PHRASE("NOT"))`},

		// Operators and precedence.
		{"and", "a AND b", `AND("a" "b")`},
		{"or", "a OR b", `OR("a" "b")`},
		{"not", "a NOT b", `AND("a" NOT("b"))`},
		{"and before or", "a AND b OR c", `OR(AND("a" "b") "c")`},
		{"or after and", "a OR b AND c", `OR("a" AND("b" "c"))`},
		{"not before and", "a NOT b AND c", `AND("a" NOT("b") "c")`},
		{"and then not", "a AND b NOT c", `AND("a" "b" NOT("c"))`},
		{"not before or", "a NOT b OR c", `OR(AND("a" NOT("b")) "c")`},
		{"or then not", "a OR b NOT c", `OR("a" AND("b" NOT("c")))`},
		{"implicit and before or", "a b OR c", `OR(AND("a" "b") "c")`},
		{"implicit and after or", "a OR b c", `OR("a" AND("b" "c"))`},
		{"implicit and binds tighter than not", "a NOT b c", `AND("a" NOT(AND("b" "c")))`},
		{"implicit and then not", "a b NOT c", `AND("a" "b" NOT("c"))`},
		{"not chain", "a NOT b NOT c", `AND("a" NOT("b") NOT("c"))`},
		{"and chain", "a AND b AND c", `AND("a" "b" "c")`},
		{"or chain", "a OR b OR c", `OR("a" "b" "c")`},
		{"explicit and implicit", "a AND b c", `AND("a" "b" "c")`},
		{"group", "(a OR b) AND c", `AND(OR("a" "b") "c")`},
		{"group right", "a AND (b OR c)", `AND("a" OR("b" "c"))`},
		{"group not", "(a OR b) NOT c", `AND(OR("a" "b") NOT("c"))`},
		{"not group", "a NOT (b OR c)", `AND("a" NOT(OR("b" "c")))`},
		{"nested not", "a NOT (b NOT c)", `AND("a" NOT(AND("b" NOT("c"))))`},
		{"redundant parentheses", "((a))", `"a"`},
		{"flattened and", "(a AND b) AND (c d)", `AND("a" "b" "c" "d")`},
		{"flattened or", "(a OR b) OR (c OR d)", `OR("a" "b" "c" "d")`},
		{"no space around parentheses", "(a)AND(b)", `AND("a" "b")`},

		// NEAR.
		{"near", "NEAR(a b)", `NEAR("a" "b", 10)`},
		{"near distance", "NEAR(a b c, 3)", `NEAR("a" "b" "c", 3)`},
		{"near zero", "NEAR(a b,0)", `NEAR("a" "b", 0)`},
		{"near leading zeros", "NEAR(a b, 007)", `NEAR("a" "b", 7)`},
		{"near spaces", "NEAR ( a  b , 2 )", `NEAR("a" "b", 2)`},
		{"near phrases", `NEAR("a b" c* "d e"*, 5)`, `NEAR(PHRASE("a b") "c"* "d e"*, 5)`},
		{"near plus", "NEAR(a + b c)", `NEAR(PHRASE("a b") "c", 10)`},
		{"near in and", "x NEAR(a b) y", `AND("x" NEAR("a" "b", 10) "y")`},
		{"near in or", "NEAR(a b) OR c", `OR(NEAR("a" "b", 10) "c")`},
		{"near negated", "x NOT NEAR(a b)", `AND("x" NOT(NEAR("a" "b", 10)))`},

		// Column filters.
		{"title", "title:word", `title:"word"`},
		{"body", "body:word", `body:"word"`},
		{"case-insensitive column", "TiTle:word", `title:"word"`},
		{"quoted column", `"title":word`, `title:"word"`},
		{"spaced filter", "title : word", `title:"word"`},
		{"column set", "{title body}:word", `{title body}:"word"`},
		{"column set order", "{body title}:word", `{title body}:"word"`},
		{"column set duplicate", "{title title}:word", `title:"word"`},
		{"minus", "-title:word", `body:"word"`},
		{"minus body", "-body:word", `title:"word"`},
		{"minus set", "-{title}:word", `body:"word"`},
		{"minus spaced", "- title : word", `body:"word"`},
		{"filter phrase", `title:"open file"`, `title:PHRASE("open file")`},
		{"filter prefix", "title:op*", `title:"op"*`},
		{"filter initial", "title:^word", `title:^"word"`},
		{"filter plus", "title:a + b", `title:PHRASE("a b")`},
		{"filter near", "title:NEAR(a b, 2)", `NEAR(title:"a" title:"b", 2)`},
		{"filter group", "title:(a OR b)", `OR(title:"a" title:"b")`},
		{"filter group not", "-title:(a NOT b)", `AND(body:"a" NOT(body:"b"))`},
		{"filter group near", "body:(NEAR(a b) OR c)", `OR(NEAR(body:"a" body:"b", 10) body:"c")`},
		{"nested filters intersect", "{title body}:(title:a OR b)", `OR(title:"a" {title body}:"b")`},
		{"nested minus", "{title body}:(-title:a)", `body:"a"`},
		{"filter binds one unit", "title:a b", `AND(title:"a" "b")`},
		{"filter second unit", "a title:b", `AND("a" title:"b")`},
		{"filters in and", "title:a AND body:b", `AND(title:"a" body:"b")`},
		{"filter after not", "a NOT title:b", `AND("a" NOT(title:"b"))`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := query.Raw(tt.input)
			if err != nil {
				t.Fatalf("Raw(%q): %v", tt.input, err)
			}
			if got := n.String(); got != tt.want {
				t.Errorf("Raw(%q) = %s, want %s", tt.input, got, tt.want)
			}
			checkRaw(t, tt.input, n)
		})
	}
}

// TestRawFTS5 holds the kinds of query the FTS5 documentation shows
// (sqlite.org/fts5.html, section 3, "Full-text Query Syntax"), grouped by
// its subsections, and vectors from SQLite's own parser tests
// (ext/fts5/test/fts5ea.test, fts5eb.test, fts5colset.test; names start
// ea, eb, colset), with the columns renamed to title and body. want is the tree FTS5 builds, in our nodes; err is the message
// where FTS5 also reports a syntax error. Three FTS5 results the tree
// cannot express become errors here; those cases say so.
func TestRawFTS5(t *testing.T) {
	tests := []struct {
		name, input, want, err string
	}{
		// 3.1 strings and 3.2 phrases.
		{name: "implicit and", input: "one two three", want: `AND("one" "two" "three")`},
		{name: "phrase", input: `"one two three"`, want: `PHRASE("one two three")`},
		{name: "plus phrase", input: "one + two + three", want: `PHRASE("one two three")`},
		{name: "plus quoted", input: `"one two" + three`, want: `PHRASE("one two three")`},
		{name: "ea 6 plus", input: "one+two", want: `PHRASE("one two")`},
		{name: "ea 14 doubled quote", input: `"abc""def"`, want: `PHRASE("abc\"def")`},
		{name: "ea 12 spaces", input: " one two three", want: `AND("one" "two" "three")`},
		{name: "ea 13 control white space", input: "\tone\ntwo\rthree", want: `AND("one" "two" "three")`},
		{name: "eb 2 empty dropped", input: `abc ""`, want: `"abc"`},
		{name: "eb 10 empty in plus", input: `abc + "" + def`, want: `PHRASE("abc def")`},
		{name: "eb 11 empty in and", input: `abc "" def`, want: `AND("abc" "def")`},
		{name: "eb 12 plus before or", input: "r+e OR w", want: `OR(PHRASE("r e") "w")`},
		// FTS5 keeps the empty phrase and matches nothing.
		{name: "eb 4 empty in or", input: `abc OR ""`, err: "empty phrase"},

		// 3.3 prefix queries.
		{name: "prefix", input: "one*", want: `"one"*`},
		{name: "phrase prefix", input: `"one two thr" * `, want: `"one two thr"*`},
		{name: "plus prefix", input: "one + two + thr*", want: `"one two thr"*`},
		{name: "ea 4 phrase prefix", input: `"abc def ghi" *`, want: `"abc def ghi"*`},
		// FTS5 accepts a prefix inside a phrase; our Prefix cannot hold one.
		{name: "prefix inside phrase", input: "one* + two", err: "a prefix '*' may only end a phrase: no '+' after it"},

		// 3.4 initial token queries.
		{name: "initial", input: "^one", want: `^"one"`},
		{name: "initial phrase", input: `^"one two"`, want: `^PHRASE("one two")`},
		{name: "initial in column", input: "body : ^two", want: `body:^"two"`},
		{name: "initial and term", input: "^one two", want: `AND(^"one" "two")`},

		// 3.5 NEAR queries.
		{name: "near", input: "NEAR(one two three, 10)", want: `NEAR("one" "two" "three", 10)`},
		{name: "near phrases", input: `NEAR("one two" "three four", 10)`, want: `NEAR(PHRASE("one two") PHRASE("three four"), 10)`},
		{name: "near prefix", input: `NEAR("one two" thr* , 5)`, want: `NEAR(PHRASE("one two") "thr"*, 5)`},
		{name: "ea 9 near default", input: "NEAR(one two)", want: `NEAR("one" "two", 10)`},
		{name: "ea 10 near phrase prefix", input: `NEAR("one three"* two, 5)`, want: `NEAR("one three"* "two", 5)`},
		{name: "ea 5 near is case-sensitive", input: "NEaR (a b)", err: "expected AND, OR or NOT before '(': there is no implicit AND next to parentheses"},

		// 3.6 column filters.
		{name: "column", input: "title : one", want: `title:"one"`},
		{name: "column set", input: "{title body} : one", want: `{title body}:"one"`},
		{name: "column near", input: `title : NEAR("one two" "three four", 10)`, want: `NEAR(title:PHRASE("one two") title:PHRASE("three four"), 10)`},
		{name: "column set near", input: `{title body} : NEAR("one two" "three four", 10)`, want: `NEAR({title body}:PHRASE("one two") {title body}:PHRASE("three four"), 10)`},
		{name: "minus column", input: "- title : one", want: `body:"one"`},
		{name: "minus column near", input: `- title : NEAR("one two" "three four", 10)`, want: `NEAR(body:PHRASE("one two") body:PHRASE("three four"), 10)`},
		{name: "minus set", input: "- {title} : one", want: `body:"one"`},
		{name: "column group", input: "title : (one OR two)", want: `OR(title:"one" title:"two")`},
		{name: "column set group", input: "{title body} : (one AND body : two)", want: `AND({title body}:"one" body:"two")`},
		{name: "colset 1.7 quoted column", input: `-"body" : one`, want: `title:"one"`},
		{name: "colset 1.9 minus no space", input: "-body : one", want: `title:"one"`},
		{name: "colset 2.4 nested sets", input: "{body} : ( {body title} : ( one OR two ) )", want: `OR(body:"one" body:"two")`},
		{name: "ea 2.2 filtered and", input: `body : NEAR(one two) title:"hello world"`, want: `AND(NEAR(body:"one" body:"two", 10) title:PHRASE("hello world"))`},
		{name: "ea 3.7 no such column", input: "nosuch: a nosuch2: b", err: `unknown column "nosuch": the columns are title and body`},
		{name: "ea 3.8 second no such column", input: "title: a nosuch2: b", err: `unknown column "nosuch2": the columns are title and body`},
		// FTS5 matches nothing for these.
		{name: "colset 1.6 every column excluded", input: "- {body title} : one", err: "column filter excludes every column"},
		{name: "colset 2.6 empty intersection", input: "{title} : ( {body} : one )", err: "column filter has no column in common with the filter around it"},

		// 3.7 boolean operators.
		{name: "and or", input: "one AND two OR three", want: `OR(AND("one" "two") "three")`},
		{name: "or and", input: "one OR two AND three", want: `OR("one" AND("two" "three"))`},
		{name: "not and", input: "one NOT two AND three", want: `AND("one" NOT("two") "three")`},
		{name: "or not", input: "one OR two NOT three", want: `OR("one" AND("two" NOT("three")))`},
		{name: "group not", input: "(one OR two) NOT three", want: `AND(OR("one" "two") NOT("three"))`},
		{name: "and not", input: "one AND two NOT three", want: `AND("one" "two" NOT("three"))`},
		{name: "not or", input: "one NOT two OR three", want: `OR(AND("one" NOT("two")) "three")`},
		{name: "implicit and phrase", input: `three "one two"`, want: `AND("three" PHRASE("one two"))`},
		{name: "implicit and near", input: "NEAR(one two) three", want: `AND(NEAR("one" "two", 10) "three")`},
		{name: "implicit and under or", input: "one OR two three", want: `OR("one" AND("two" "three"))`},
		{name: "implicit and under not", input: "one NOT two three", want: `AND("one" NOT(AND("two" "three")))`},
		{name: "implicit and after group", input: "(one OR two) three", err: "expected AND, OR or NOT after ')': there is no implicit AND next to parentheses"},
		{name: "function-like", input: "func(one two)", err: "expected AND, OR or NOT before '(': there is no implicit AND next to parentheses"},
		{name: "ea 3.1 lone AND", input: "AND", err: "expected a term, a phrase or '(' before AND"},
		{name: "ea 3.2 trailing AND", input: "abc def AND", err: "expected a term, a phrase or '(' after AND"},
		{name: "ea 3.3 OR AND", input: "abc OR AND", err: "expected a term, a phrase or '(' after OR"},
		{name: "ea 3.6 extra paren", input: "(a OR b) NOT c)", err: "unbalanced ')'"},
		{name: "ea 3.9 lone NOT", input: "NOT", err: "expected a term, a phrase or '(' before NOT: NOT is binary, as in a NOT b"},
		{name: "ea 3.10 unterminated", input: `a AND "abc`, err: `unterminated phrase: missing closing "`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := query.Raw(tt.input)
			if tt.err != "" {
				var qe *query.Error
				if !errors.As(err, &qe) {
					t.Fatalf("Raw(%q) = %v, %v; want error %q", tt.input, n, err, tt.err)
				}
				if qe.Msg != tt.err {
					t.Errorf("Raw(%q) error %q, want %q", tt.input, qe.Msg, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Raw(%q): %v", tt.input, err)
			}
			if got := n.String(); got != tt.want {
				t.Errorf("Raw(%q) = %s, want %s", tt.input, got, tt.want)
			}
			checkRaw(t, tt.input, n)
		})
	}
}

func TestRawErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		msg   string
		caret string // the line under the input
	}{
		// Operands.
		{"leading AND", "AND a", "expected a term, a phrase or '(' before AND", "^^^"},
		{"leading OR", "OR a", "expected a term, a phrase or '(' before OR", "^^"},
		{"leading NOT", "NOT a", "expected a term, a phrase or '(' before NOT: NOT is binary, as in a NOT b", "^^^"},
		{"NOT first in group", "x AND (NOT a)", "expected a term, a phrase or '(' before NOT: NOT is binary, as in a NOT b", "       ^^^"},
		{"AND NOT", "a AND NOT b", "expected a term, a phrase or '(' after AND", "      ^^^"},
		{"OR NOT", "a OR NOT b", "expected a term, a phrase or '(' after OR", "     ^^^"},
		{"trailing AND", "a AND", "expected a term, a phrase or '(' after AND", "     ^"},
		{"trailing OR", "a OR ", "expected a term, a phrase or '(' after OR", "     ^"},
		{"trailing NOT", "a NOT", "expected a term, a phrase or '(' after NOT", "     ^"},
		{"AND AND", "a AND AND b", "expected a term, a phrase or '(' after AND", "      ^^^"},
		{"leading star", "* a", "expected a term, a phrase or '('", "^"},
		{"leading plus", "+a", "expected a term, a phrase or '('", "^"},
		{"star after group", "(a)*", "expected AND, OR, NOT or the end of the query, found '*'", "   ^"},
		{"star after NEAR", "NEAR(a b)*", "expected AND, OR, NOT or the end of the query, found '*'", "         ^"},
		{"double star", "a * *", "expected AND, OR, NOT or the end of the query, found '*'", "    ^"},
		{"comma", "a ,b", "expected AND, OR, NOT or the end of the query, found ','", "  ^"},
		{"comma in group", "(a ,b)", "expected AND, OR, NOT or ')', found ','", "   ^"},
		{"close brace", "a}", "expected AND, OR, NOT or the end of the query, found '}'", " ^"},
		{"caret before filter", "^title:x", "expected AND, OR, NOT or the end of the query, found ':'", "      ^"},

		// Parentheses.
		{"unbalanced close", "a )", "unbalanced ')'", "  ^"},
		{"lone close", ")", "unbalanced ')'", "^"},
		{"close after AND", "a AND )", "unbalanced ')'", "      ^"},
		{"extra close", "(a OR b) NOT c)", "unbalanced ')'", "              ^"},
		{"unbalanced open", "(a", "unbalanced '(': missing ')'", "^"},
		{"unbalanced outer open", "x AND ((a)", "unbalanced '(': missing ')'", "      ^"},
		{"empty parentheses", "a AND ()", "empty parentheses", "      ^^"},
		{"blank parentheses", "( )", "empty parentheses", "^^^"},
		{"group after term", "a (b)", "expected AND, OR or NOT before '(': there is no implicit AND next to parentheses", "  ^"},
		{"function call", "func(x)", "expected AND, OR or NOT before '(': there is no implicit AND next to parentheses", "    ^"},
		{"filtered group after term", "a title:(b)", "expected AND, OR or NOT before '(': there is no implicit AND next to parentheses", "        ^"},
		{"term after group", "(a) b", "expected AND, OR or NOT after ')': there is no implicit AND next to parentheses", "    ^"},
		{"term after filtered group", "title:(a) b", "expected AND, OR or NOT after ')': there is no implicit AND next to parentheses", "          ^"},
		{"too deep", strings.Repeat("(", 40) + "a" + strings.Repeat(")", 40), "too deeply nested: at most 32 levels of parentheses", strings.Repeat(" ", 32) + "^"},

		// Strings.
		{"unterminated", `a "open file`, `unterminated phrase: missing closing "`, "  ^^^^^^^^^^"},
		{"unterminated after doubled quote", `"a""`, `unterminated phrase: missing closing "`, "^^^^"},
		{"empty phrase beside AND", `"" AND a`, "empty phrase", "^^"},
		{"blank phrase beside OR", `a OR "  "`, "empty phrase", "     ^^^^"},
		{"empty phrase in group", `("")`, "empty phrase", " ^^"},
		{"empty phrase prefix", `""*`, "empty phrase", "^^"},
		{"empty initial", `^""`, "empty phrase", "^^^"},
		{"period", "foo.bar", `unexpected ".": only letters, digits, _ and non-ASCII characters may appear outside "quotes"`, "   ^"},
		{"apostrophe", "don't", `unexpected "'": only letters, digits, _ and non-ASCII characters may appear outside "quotes"`, "   ^"},
		{"slash", "a/b", `unexpected "/": only letters, digits, _ and non-ASCII characters may appear outside "quotes"`, " ^"},
		{"after multibyte", "café#", `unexpected "#": only letters, digits, _ and non-ASCII characters may appear outside "quotes"`, "    ^"},
		{"plus at end", "a +", "expected a term or a phrase after '+' (quote text that contains '+')", "   ^"},
		{"C++", "C++", "expected a term or a phrase after '+' (quote text that contains '+')", "  ^"},
		{"plus operator", "a + AND", "expected a term or a phrase after '+' (quote text that contains '+')", "    ^^^"},
		{"star before plus", "a* + b", "a prefix '*' may only end a phrase: no '+' after it", "   ^"},
		{"caret alone", "a ^", "expected a term or a phrase after '^'", "   ^"},
		{"caret group", "^(a)", "expected a term or a phrase after '^'", " ^"},

		// Column filters.
		{"unknown column", "foo:x", `unknown column "foo": the columns are title and body`, "^^^"},
		{"url", "http://example.com", `unknown column "http": the columns are title and body`, "^^^^"},
		{"unknown in set", "{title foo}:x", `unknown column "foo": the columns are title and body`, "       ^^^"},
		{"unknown quoted", `"a b":x`, `unknown column "a b": the columns are title and body`, "^^^^^"},
		{"hyphenated word", "mcp-server", "'-' must start a column filter such as -title:word; quote text that contains '-'", "   ^"},
		{"minus without colon", "a -title b", "'-' must start a column filter such as -title:word; quote text that contains '-'", "  ^"},
		{"minus alone", "a -", "expected a column name or '{' after '-'", "   ^"},
		{"empty set", "{}:x", "expected a column name after '{'", " ^"},
		{"unclosed set", "{title body", "expected a column name or '}'", "           ^"},
		{"set without colon", "{title} x", "expected ':' after the column filter", "        ^"},
		{"nothing after filter", "title:", "expected a term, a phrase or '(' after the column filter", "      ^"},
		{"operator after filter", "title: OR x", "expected a term, a phrase or '(' after the column filter", "       ^^"},
		{"every column excluded", "a -{title body}:x", "column filter excludes every column", "  ^^^^^^^^^^^^^^"},
		{"nested filters disjoint", "title:(a OR body:b)", "column filter has no column in common with the filter around it", "            ^^^^^"},

		// NEAR.
		{"near unterminated", "NEAR(a b", "unterminated NEAR: missing ')'", "^^^^^"},
		{"near open only", "x NEAR(", "unterminated NEAR: missing ')'", "  ^^^^^"},
		{"near after distance", "NEAR(a b, 3", "unterminated NEAR: missing ')'", "^^^^^"},
		{"near empty", "NEAR()", "NEAR needs at least two terms", "^^^^^^"},
		{"near one", "NEAR(a)", "NEAR needs at least two terms", "^^^^^^^"},
		{"near one with distance", "NEAR(a, 3)", "NEAR needs at least two terms", "^^^^^^^^^^"},
		{"near word distance", "NEAR(a b, x)", "NEAR distance must be a non-negative integer", "          ^"},
		{"near negative distance", "NEAR(a b, -1)", "NEAR distance must be a non-negative integer", "          ^"},
		{"near missing distance", "NEAR(a b,)", "NEAR distance must be a non-negative integer", "         ^"},
		{"near distance at end", "NEAR(a b,", "NEAR distance must be a non-negative integer", "         ^"},
		{"near fraction", "NEAR(a b, 1.5)", `unexpected ".": only letters, digits, _ and non-ASCII characters may appear outside "quotes"`, "           ^"},
		{"near huge distance", "NEAR(a b, 99999999999)", "NEAR distance must be at most 2147483647", "          ^^^^^^^^^^^"},
		{"near two distances", "NEAR(a b, 3 4)", "expected ')' after the NEAR distance", "            ^"},
		{"near operator", "NEAR(a OR b)", "expected a term, a phrase, ',' or ')' inside NEAR", "       ^^"},
		{"near filter", "NEAR(title:a b)", "expected a term, a phrase, ',' or ')' inside NEAR", "          ^"},
		{"near caret", "NEAR(^a b)", "expected a term, a phrase, ',' or ')' inside NEAR", "     ^"},
		{"near group", "NEAR(a (b))", "expected a term, a phrase, ',' or ')' inside NEAR", "       ^"},
		{"near empty phrase", `NEAR(a "" b)`, "empty phrase", "       ^^"},
		{"near extra close", "NEAR(a b))", "unbalanced ')'", "         ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := query.Raw(tt.input)
			var qe *query.Error
			if !errors.As(err, &qe) {
				t.Fatalf("Raw(%q) = %v, %v; want *Error", tt.input, n, err)
			}
			if n != nil {
				t.Errorf("Raw(%q) returned node %s with error", tt.input, n)
			}
			if qe.Msg != tt.msg {
				t.Errorf("Raw(%q) message\n got %s\nwant %s", tt.input, qe.Msg, tt.msg)
			}
			if qe.Query != tt.input {
				t.Errorf("Error.Query = %q, want %q", qe.Query, tt.input)
			}
			if want := tt.input + "\n" + tt.caret; qe.Caret() != want {
				t.Errorf("Raw(%q) caret\n%s\nwant\n%s", tt.input, qe.Caret(), want)
			}
			checkError(t, tt.input, err)
		})
	}
}

func TestRawErrorControlCharacters(t *testing.T) {
	_, err := query.Raw("a\tb\x00c")
	var qe *query.Error
	if !errors.As(err, &qe) {
		t.Fatalf("got %v, want *Error", err)
	}
	if qe.Pos != 3 || qe.Len != 1 {
		t.Errorf("span %d+%d, want 3+1", qe.Pos, qe.Len)
	}
	if want := "a b c\n   ^"; qe.Caret() != want {
		t.Errorf("caret\n%s\nwant\n%s", qe.Caret(), want)
	}
	if want := `query: unexpected "\x00": only letters, digits, _ and non-ASCII characters may appear outside "quotes" at offset 3`; err.Error() != want {
		t.Errorf("Error() = %s\nwant %s", err, want)
	}
}

func TestRawEmpty(t *testing.T) {
	for name, input := range map[string]string{
		"empty":          "",
		"spaces":         "   ",
		"control spaces": "\t\n\r\v\f",
		"unicode spaces": "\u3000\u00a0\u2003\u0085",
		"empty phrase":   `""`,
		"blank phrase":   `"  "`,
		"empty phrases":  `"" ""  "	"`,
	} {
		t.Run(name, func(t *testing.T) {
			n, err := query.Raw(input)
			if !errors.Is(err, query.ErrEmpty) || n != nil {
				t.Errorf("Raw(%q) = %v, %v; want ErrEmpty", input, n, err)
			}
		})
	}
}

func TestRawSpans(t *testing.T) {
	type span struct {
		pos, len int
		cols     string
		initial  bool
	}
	tests := []struct {
		input string
		want  []span
	}{
		{`ab "c d" e*`, []span{{0, 2, "", false}, {3, 5, "", false}, {9, 2, "", false}}},
		{`"c d" *`, []span{{0, 7, "", false}}},
		{`title:^ab body:"x"*`, []span{{6, 3, "title", true}, {15, 4, "body", false}}},
		{`one + "two" + thr*`, []span{{0, 18, "", false}}},
		{`^ "a""b"`, []span{{0, 8, "", true}}},
		{`-title:NEAR(a "b c", 3)`, []span{{12, 1, "body", false}, {14, 5, "body", false}}},
		{`{title body}:(x OR y)`, []span{{14, 1, "title body", false}, {19, 1, "title body", false}}},
		{`日本 語*`, []span{{0, 6, "", false}, {7, 4, "", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			n, err := query.Raw(tt.input)
			if err != nil {
				t.Fatal(err)
			}
			checkRaw(t, tt.input, n)
			leaves := query.Leaves(n)
			if len(leaves) != len(tt.want) {
				t.Fatalf("got %d leaves, want %d", len(leaves), len(tt.want))
			}
			for i, l := range leaves {
				var got span
				var cols []string
				switch l := l.(type) {
				case *query.Term:
					got, cols = span{l.Pos, l.Len, "", l.Initial}, l.Columns
				case *query.Phrase:
					got, cols = span{l.Pos, l.Len, "", l.Initial}, l.Columns
				case *query.Prefix:
					got, cols = span{l.Pos, l.Len, "", l.Initial}, l.Columns
				}
				got.cols = strings.Join(cols, " ")
				if got != tt.want[i] {
					t.Errorf("leaf %d %s: got %+v, want %+v", i, l, got, tt.want[i])
				}
			}
		})
	}
}

// Leaves under one filter must not share a Columns slice, so that a caller
// editing one leaf cannot change another.
func TestRawColumnsNotShared(t *testing.T) {
	n, err := query.Raw("title:(a OR b)")
	if err != nil {
		t.Fatal(err)
	}
	leaves := query.Leaves(n)
	leaves[0].(*query.Term).Columns[0] = "changed"
	if got := leaves[1].(*query.Term).Columns[0]; got != "title" {
		t.Errorf("second leaf's column = %q after editing the first", got)
	}
}

func TestRawDepth(t *testing.T) {
	nest := func(d int) string { return strings.Repeat("(", d) + "a" + strings.Repeat(")", d) }
	if n, err := query.Raw(nest(32)); err != nil || n.String() != `"a"` {
		t.Errorf("32 levels: %v, %v", n, err)
	}
	_, err := query.Raw(nest(33))
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Pos != 32 || qe.Msg != "too deeply nested: at most 32 levels of parentheses" {
		t.Errorf("33 levels: %v", err)
	}
	// Depth counts open groups, not groups seen: many shallow groups pass.
	if _, err := query.Raw(strings.Repeat("(a) AND ", 1000) + "(a)"); err != nil {
		t.Errorf("1000 shallow groups: %v", err)
	}
}
