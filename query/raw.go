package query

import (
	"strconv"
	"strings"
	"unicode"
)

// knownColumns are the columns a column filter may name, in the order
// filters list them.
var knownColumns = [...]string{"title", "body"}

const (
	allColumns = 1<<len(knownColumns) - 1

	// maxDepth bounds nested parentheses so that adversarial input cannot
	// exhaust the stack, here or in the recursive walks of the tree.
	maxDepth = 32

	// defaultNear is the NEAR distance when none is given, as in FTS5.
	defaultNear = 10
)

// Raw parses input in raw mode, the query syntax of SQLite FTS5, for people
// who know it. It reports malformed input as an *Error with the byte span of
// the offending part, and input with nothing to search for as ErrEmpty.
//
// The grammar, loosest binding first:
//
//	query  = and { "OR" and }
//	and    = not { "AND" not }
//	not    = seq { "NOT" seq }            a NOT b  is  AND(a NOT(b))
//	seq    = group | unit { unit }        implicit AND binds tightest
//	group  = [ cols ":" ] "(" query ")"
//	unit   = [ cols ":" ] ( [ "^" ] phrase | "NEAR" "(" phrase { phrase } [ "," digits ] ")" )
//	cols   = [ "-" ] ( name | "{" name { name } "}" )
//	phrase = string [ "*" ] { "+" string [ "*" ] }
//	string = bareword | '"' { any byte, "" for a quote } '"'
//
// Tokens may be separated by white space (Unicode White_Space), which is
// otherwise ignored: "one two" * is a phrase prefix, title : x a filter.
//
// A bareword is a run of ASCII letters, digits, '_', the substitute
// character 0x1A, and any non-ASCII character other than white space
// (invalid UTF-8 included). Any other ASCII character ends it: white space
// and ( ) { } : , + * ^ - " are syntax, and the rest (. ' / @ # and so on,
// control characters, NUL) is an error unless it is inside quotes. The
// barewords AND, OR and NOT are operators; in any other case they are
// terms. NEAR is an operator only when "(" follows it.
//
// The tree follows FTS5's meaning:
//
//   - A bareword is a *Term and a quoted string a *Phrase; one with a
//     trailing "*" is a *Prefix. Strings joined with "+" form one phrase,
//     their texts joined with a space: one + two is PHRASE("one two"). Only
//     the last string of such a phrase may carry the "*".
//   - NOT binds tighter than AND and AND tighter than OR, but adjacent units
//     form an implicit AND tighter than all three: one NOT two three is
//     AND(one NOT(AND(two three))). As in FTS5 there is no implicit AND next
//     to a parenthesized group: (a OR b) c is an error.
//   - NOT is binary. A leading NOT, or NOT right after OR or AND, is an
//     error, so a *Not always sits in an *And beside what it subtracts from.
//   - Nested *And and *Or nodes of the same kind are flattened.
//   - NEAR's distance defaults to 10. NEAR takes at least two phrases and
//     no operators, filters or "^".
//   - A column filter restricts every leaf beneath it. The known columns
//     are title and body, matched case-insensitively and stored in lower
//     case in that order; "-" selects every column except those named.
//     Nested filters intersect, and an empty intersection is an error.
//   - "^" sets Initial: the phrase must start its column.
//
// Leaf spans: a leaf's Pos is that of its "^" or its first string, and its
// span runs to the end of its last string or "*", so it excludes any column
// filter. A Term's Text is the bareword, byte for byte. A Phrase's or
// Prefix's Text is the quoted content with "" made one quote, trimmed of
// white space, and parts joined with "+" joined with one space.
//
// Empty or blank quoted strings are dropped, as FTS5 drops them, from a
// phrase joined with "+" and from an implicit AND: abc "" is "abc". Input
// holding nothing but white space and empty quotes returns ErrEmpty. An
// empty string anywhere else (beside AND, OR or NOT, inside NEAR, after
// "^" or before "*") is an error.
//
// Where Raw departs from FTS5, it is on input the tree cannot express or
// that FTS5 reads differently: white space is Unicode White_Space, not
// ASCII only (FTS5 reads a U+3000 inside a bareword as part of it); a "*"
// before a "+" is an error (FTS5 allows a prefix inside a phrase); an empty
// string that cannot be dropped, a filter that excludes every column, and
// nested filters with no column in common are errors (FTS5 matches
// nothing); parentheses nest at most 32 deep; NEAR's distance is at most
// 2^31-1.
//
// Raw runs in time linear in len(input).
func Raw(input string) (Node, error) {
	if blank(input) {
		return nil, ErrEmpty
	}
	p := &parser{in: input, lex: lexer{in: input}}
	n, err := p.query(0, "")
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.trailing(t, -1)
	}
	return n, nil
}

// blank reports whether input holds only white space and empty or blank
// quoted strings.
func blank(input string) bool {
	l := lexer{in: input}
	for {
		t := l.next()
		switch {
		case t.kind == tEOF:
			return true
		case t.kind != tQuoted || strings.TrimFunc(t.text, unicode.IsSpace) != "":
			return false
		}
	}
}

type parser struct {
	in    string
	lex   lexer
	ahead []token // lexed but not consumed; at most two
	depth int
}

func (p *parser) peekN(i int) token {
	for len(p.ahead) <= i {
		p.ahead = append(p.ahead, p.lex.next())
	}
	return p.ahead[i]
}

func (p *parser) peek() token { return p.peekN(0) }

func (p *parser) next() token {
	t := p.peek()
	p.ahead = p.ahead[:copy(p.ahead, p.ahead[1:])]
	return t
}

func (p *parser) errAt(pos, end int, msg string) *Error {
	return &Error{Query: p.in, Pos: pos, Len: end - pos, Msg: msg}
}

func (p *parser) errTok(t token, msg string) *Error {
	if t.kind == tBad {
		msg = t.msg
	}
	return p.errAt(t.pos, t.end, msg)
}

// startsUnit reports whether t can begin an operand.
func startsUnit(t token) bool {
	switch t.kind {
	case tWord, tQuoted, tLParen, tLBrace, tMinus, tCaret:
		return true
	}
	return false
}

// query parses an OR list. cols is the column filter in force (a bit set
// over knownColumns, 0 for none); after names what precedes, for messages.
func (p *parser) query(cols uint8, after string) (Node, *Error) {
	var children []Node
	for {
		n, err := p.and(cols, after)
		if err != nil {
			return nil, err
		}
		children = appendOr(children, n)
		if p.peek().kind != tOr {
			break
		}
		p.next()
		after = "OR"
	}
	if len(children) == 1 {
		return children[0], nil
	}
	return &Or{Children: children}, nil
}

func (p *parser) and(cols uint8, after string) (Node, *Error) {
	var children []Node
	for {
		n, err := p.not(cols, after)
		if err != nil {
			return nil, err
		}
		children = appendAnd(children, n)
		if p.peek().kind != tAnd {
			break
		}
		p.next()
		after = "AND"
	}
	if len(children) == 1 {
		return children[0], nil
	}
	return &And{Children: children}, nil
}

func (p *parser) not(cols uint8, after string) (Node, *Error) {
	n, err := p.seq(cols, after)
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tNot {
		return n, nil
	}
	children := appendAnd(nil, n)
	for p.peek().kind == tNot {
		p.next()
		m, err := p.seq(cols, "NOT")
		if err != nil {
			return nil, err
		}
		children = append(children, &Not{Child: m})
	}
	return &And{Children: children}, nil
}

// seq parses a parenthesized group alone, or a run of units joined by
// implicit AND.
func (p *parser) seq(cols uint8, after string) (Node, *Error) {
	n, grouped, err := p.unit(cols, after, true)
	if err != nil {
		return nil, err
	}
	if grouped {
		if t := p.peek(); startsUnit(t) {
			return nil, p.errTok(t, "expected AND, OR or NOT after ')': there is no implicit AND next to parentheses")
		}
		return n, nil
	}
	// FTS5 drops empty phrases from an implicit AND; a run of nothing else
	// is an error.
	first := n
	var children []Node
	for {
		if !isEmpty(n) {
			children = appendAnd(children, n)
		}
		if !startsUnit(p.peek()) {
			break
		}
		if n, _, err = p.unit(cols, "", false); err != nil {
			return nil, err
		}
	}
	switch len(children) {
	case 0:
		return nil, emptyError(p, first)
	case 1:
		return children[0], nil
	}
	return &And{Children: children}, nil
}

// unit parses one operand; grouped reports that it was parenthesized.
// allowGroup is false where a group would need an implicit AND.
func (p *parser) unit(cols uint8, after string, allowGroup bool) (n Node, grouped bool, err *Error) {
	t := p.peek()
	isFilter := t.kind == tMinus || t.kind == tLBrace ||
		(t.kind == tWord || t.kind == tQuoted) && p.peekN(1).kind == tColon
	if isFilter {
		if cols, err = p.filter(cols); err != nil {
			return nil, false, err
		}
		after = "the column filter"
		t = p.peek()
	}
	switch t.kind {
	case tLParen:
		if !allowGroup {
			return nil, false, p.errTok(t, "expected AND, OR or NOT before '(': there is no implicit AND next to parentheses")
		}
		n, err = p.group(cols)
		return n, true, err
	case tCaret:
		p.next()
		if u := p.peek(); u.kind != tWord && u.kind != tQuoted {
			return nil, false, p.errTok(u, "expected a term or a phrase after '^'")
		}
		n, err = p.phrase(cols, t.pos, true)
		if err == nil && isEmpty(n) {
			err = emptyError(p, n)
		}
		return n, false, err
	case tWord:
		if t.text == "NEAR" && p.peekN(1).kind == tLParen {
			n, err = p.near(cols)
			return n, false, err
		}
		fallthrough
	case tQuoted:
		n, err = p.phrase(cols, t.pos, false)
		return n, false, err
	}
	return nil, false, p.operandError(t, after)
}

func (p *parser) operandError(t token, after string) *Error {
	const want = "expected a term, a phrase or '('"
	switch {
	case t.kind == tRParen && p.depth == 0:
		return p.errTok(t, "unbalanced ')'")
	case t.kind == tNot && (after == "" || after == "'('"):
		return p.errTok(t, want+" before NOT: NOT is binary, as in a NOT b")
	case (t.kind == tAnd || t.kind == tOr) && (after == "" || after == "'('"):
		return p.errTok(t, want+" before "+describe(t))
	case after != "":
		return p.errTok(t, want+" after "+after)
	}
	return p.errTok(t, want)
}

// trailing reports a token that cannot follow a complete operand. open is
// the offset of the enclosing '(', or -1 at the top level.
func (p *parser) trailing(t token, open int) *Error {
	switch {
	case t.kind == tRParen && open < 0:
		return p.errTok(t, "unbalanced ')'")
	case t.kind == tEOF && open >= 0:
		return p.errAt(open, open+1, "unbalanced '(': missing ')'")
	case open >= 0:
		return p.errTok(t, "expected AND, OR, NOT or ')', found "+describe(t))
	}
	return p.errTok(t, "expected AND, OR, NOT or the end of the query, found "+describe(t))
}

func (p *parser) group(cols uint8) (Node, *Error) {
	open := p.next()
	if p.depth == maxDepth {
		return nil, p.errTok(open, "too deeply nested: at most "+strconv.Itoa(maxDepth)+" levels of parentheses")
	}
	if t := p.peek(); t.kind == tRParen {
		return nil, p.errAt(open.pos, t.end, "empty parentheses")
	}
	p.depth++
	n, err := p.query(cols, "'('")
	p.depth--
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tRParen {
		return nil, p.trailing(t, open.pos)
	}
	p.next()
	return n, nil
}

// filter parses a column filter and its colon and returns the filter now
// in force: the new one intersected with cols.
func (p *parser) filter(cols uint8) (uint8, *Error) {
	start := p.peek().pos
	minus := p.peek().kind == tMinus
	if minus {
		p.next()
	}
	var names []token
	switch t := p.next(); t.kind {
	case tWord, tQuoted:
		names = append(names, t)
	case tLBrace:
		for u := p.peek(); u.kind == tWord || u.kind == tQuoted; u = p.peek() {
			names = append(names, p.next())
		}
		switch u := p.next(); {
		case len(names) == 0:
			return 0, p.errTok(u, "expected a column name after '{'")
		case u.kind != tRBrace:
			return 0, p.errTok(u, "expected a column name or '}'")
		}
	default:
		return 0, p.errTok(t, "expected a column name or '{' after '-'")
	}
	colon := p.next()
	if colon.kind != tColon {
		if minus {
			// Most often a hyphenated word such as mcp-server.
			return 0, p.errAt(start, start+1, `'-' must start a column filter such as -title:word; quote text that contains '-'`)
		}
		return 0, p.errTok(colon, "expected ':' after the column filter")
	}
	var mask uint8
	for _, t := range names {
		bit := columnBit(t.text)
		if bit == 0 {
			return 0, p.errTok(t, "unknown column "+strconv.Quote(t.text)+": the columns are "+strings.Join(knownColumns[:], " and "))
		}
		mask |= bit
	}
	if minus {
		mask = allColumns &^ mask
	}
	if mask == 0 {
		return 0, p.errAt(start, colon.end, "column filter excludes every column")
	}
	if cols != 0 {
		if mask &= cols; mask == 0 {
			return 0, p.errAt(start, colon.end, "column filter has no column in common with the filter around it")
		}
	}
	return mask, nil
}

func columnBit(name string) uint8 {
	for i, c := range knownColumns {
		if strings.EqualFold(name, c) {
			return 1 << i
		}
	}
	return 0
}

func columnNames(mask uint8) []string {
	if mask == 0 {
		return nil
	}
	var out []string
	for i, c := range knownColumns {
		if mask&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	return out
}

// phrase parses strings joined by '+', each with an optional '*'. The
// current token is a tWord or tQuoted; start is where the leaf's span
// begins (its '^', if any). As in FTS5, empty quoted strings are dropped
// from the phrase; if nothing is left the result is a *Phrase with empty
// Text, which the caller drops or reports (see isEmpty).
func (p *parser) phrase(cols uint8, start int, initial bool) (Node, *Error) {
	var parts []string
	quoted, star := false, false
	end := start
	for {
		t := p.next()
		text := t.text
		end = t.end
		if t.kind == tQuoted {
			quoted = true
			text = strings.TrimFunc(text, unicode.IsSpace)
		}
		if s := p.peek(); s.kind == tStar {
			if text == "" {
				return nil, p.errTok(t, "empty phrase")
			}
			p.next()
			star, end = true, s.end
		}
		if text != "" {
			parts = append(parts, text)
		}
		plus := p.peek()
		if plus.kind != tPlus {
			break
		}
		if star {
			return nil, p.errTok(plus, "a prefix '*' may only end a phrase: no '+' after it")
		}
		p.next()
		if u := p.peek(); u.kind != tWord && u.kind != tQuoted {
			return nil, p.errTok(u, "expected a term or a phrase after '+' (quote text that contains '+')")
		}
	}
	c := columnNames(cols)
	text := strings.Join(parts, " ")
	switch {
	case star:
		return &Prefix{Text: text, Pos: start, Len: end - start, Columns: c, Initial: initial}, nil
	case quoted || len(parts) > 1:
		return &Phrase{Text: text, Pos: start, Len: end - start, Columns: c, Initial: initial}, nil
	}
	return &Term{Text: text, Pos: start, Len: end - start, Columns: c, Initial: initial}, nil
}

// isEmpty reports whether n is the empty phrase that phrase returns for
// quotes around nothing.
func isEmpty(n Node) bool {
	ph, ok := n.(*Phrase)
	return ok && ph.Text == ""
}

func emptyError(p *parser, n Node) *Error {
	ph := n.(*Phrase)
	return p.errAt(ph.Pos, ph.Pos+ph.Len, "empty phrase")
}

// near parses NEAR(...); the current token is the word NEAR.
func (p *parser) near(cols uint8) (Node, *Error) {
	kw := p.next()
	open := p.next()
	n := &Near{Distance: defaultNear}
	for t := p.peek(); t.kind == tWord || t.kind == tQuoted; t = p.peek() {
		c, err := p.phrase(cols, t.pos, false)
		if err != nil {
			return nil, err
		}
		if isEmpty(c) {
			return nil, emptyError(p, c)
		}
		n.Children = append(n.Children, c)
	}
	const want = "expected a term, a phrase, ',' or ')' inside NEAR"
	if t := p.peek(); t.kind == tComma {
		p.next()
		d := p.next()
		if d.kind != tWord || strings.Trim(d.text, "0123456789") != "" {
			return nil, p.errTok(d, "NEAR distance must be a non-negative integer")
		}
		v, err := strconv.ParseInt(d.text, 10, 32)
		if err != nil {
			return nil, p.errTok(d, "NEAR distance must be at most "+strconv.Itoa(1<<31-1))
		}
		n.Distance = int(v)
		if u := p.peek(); u.kind != tRParen && u.kind != tEOF {
			return nil, p.errTok(u, "expected ')' after the NEAR distance")
		}
	}
	t := p.next()
	switch t.kind {
	case tRParen:
	case tEOF:
		return nil, p.errAt(kw.pos, open.end, "unterminated NEAR: missing ')'")
	default:
		return nil, p.errTok(t, want)
	}
	if len(n.Children) < 2 {
		return nil, p.errAt(kw.pos, t.end, "NEAR needs at least two terms")
	}
	return n, nil
}

// appendAnd appends n to children, or n's children if n is an *And.
func appendAnd(children []Node, n Node) []Node {
	if a, ok := n.(*And); ok {
		return append(children, a.Children...)
	}
	return append(children, n)
}

// appendOr appends n to children, or n's children if n is an *Or.
func appendOr(children []Node, n Node) []Node {
	if o, ok := n.(*Or); ok {
		return append(children, o.Children...)
	}
	return append(children, n)
}
