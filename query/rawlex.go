package query

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // bareword other than AND, OR, NOT
	tQuoted         // "..." with "" unescaped; text is untrimmed
	tAnd
	tOr
	tNot
	tLParen
	tRParen
	tLBrace
	tRBrace
	tColon
	tComma
	tPlus
	tStar
	tCaret
	tMinus
	tBad // a lexical error; msg says which
)

// token is one lexeme of raw syntax. input[pos:end] is its source span.
type token struct {
	kind     tokKind
	pos, end int
	text     string // tWord: the bareword; tQuoted: the unescaped content
	msg      string // tBad only
}

// lexer splits raw syntax into tokens on demand, so that the leftmost
// error wins whether it is lexical or syntactic.
type lexer struct {
	in  string
	off int
}

// isBarewordByte reports whether the ASCII byte c may appear in a bareword.
// As in FTS5: letters, digits, '_' and the substitute character 0x1A.
func isBarewordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == 0x1a
}

// isBareword reports whether the rune at in[i:] belongs to a bareword, and
// its size. Every non-ASCII rune does, except Unicode white space; an
// invalid byte counts as a one-byte non-ASCII rune.
func isBareword(in string, i int) (bool, int) {
	if c := in[i]; c < utf8.RuneSelf {
		return isBarewordByte(c), 1
	}
	r, size := utf8.DecodeRuneInString(in[i:])
	return !unicode.IsSpace(r), size
}

var punct = [...]tokKind{
	'(': tLParen, ')': tRParen, '{': tLBrace, '}': tRBrace, ':': tColon,
	',': tComma, '+': tPlus, '*': tStar, '^': tCaret, '-': tMinus,
}

func (l *lexer) next() token {
	in := l.in
	for l.off < len(in) {
		r, size := utf8.DecodeRuneInString(in[l.off:])
		if !unicode.IsSpace(r) {
			break
		}
		l.off += size
	}
	start := l.off
	if start == len(in) {
		return token{kind: tEOF, pos: start, end: start}
	}
	c := in[start]
	switch {
	case c == '"':
		return l.quoted()
	case int(c) < len(punct) && punct[c] != tEOF:
		l.off++
		return token{kind: punct[c], pos: start, end: l.off}
	}
	for l.off < len(in) {
		ok, size := isBareword(in, l.off)
		if !ok {
			break
		}
		l.off += size
	}
	if l.off == start {
		l.off++ // only ASCII bytes can fail isBareword without being space
		return token{kind: tBad, pos: start, end: l.off,
			msg: "unexpected " + strconv.Quote(string(rune(c))) +
				`: only letters, digits, _ and non-ASCII characters may appear outside "quotes"`}
	}
	t := token{kind: tWord, pos: start, end: l.off, text: in[start:l.off]}
	switch t.text {
	case "AND":
		t.kind = tAnd
	case "OR":
		t.kind = tOr
	case "NOT":
		t.kind = tNot
	}
	return t
}

// quoted reads a string that starts at the current offset, a double quote.
// A doubled quote inside it stands for one quote.
func (l *lexer) quoted() token {
	in, start := l.in, l.off
	var b strings.Builder
	i := start + 1
	for {
		j := strings.IndexByte(in[i:], '"')
		if j < 0 {
			l.off = len(in)
			return token{kind: tBad, pos: start, end: len(in),
				msg: `unterminated phrase: missing closing "`}
		}
		j += i
		if j+1 < len(in) && in[j+1] == '"' {
			b.WriteString(in[i : j+1])
			i = j + 2
			continue
		}
		l.off = j + 1
		text := in[i:j]
		if b.Len() > 0 {
			b.WriteString(text)
			text = b.String()
		}
		return token{kind: tQuoted, pos: start, end: l.off, text: text}
	}
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the query"
	case tWord:
		return "term " + strconv.Quote(t.text)
	case tQuoted:
		return "a phrase"
	case tAnd:
		return "AND"
	case tOr:
		return "OR"
	case tNot:
		return "NOT"
	}
	return "'" + string(rune(opChar(t.kind))) + "'"
}

func opChar(k tokKind) byte {
	for c, kk := range punct {
		if kk == k && k != tEOF {
			return byte(c)
		}
	}
	return '?'
}
