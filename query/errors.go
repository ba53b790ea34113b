package query

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrEmpty is returned when the input holds nothing to search for: it is
// empty, all whitespace, or only quotes around nothing.
var ErrEmpty = errors.New("query: empty query")

// Error is a syntax error at a position in the query. Simple never returns
// it; Raw does.
type Error struct {
	Query string // the whole input
	Pos   int    // byte offset of the offending span
	Len   int    // byte length of the offending span; may be 0
	Msg   string // what is wrong, without position
}

// Error reports the message and the byte offset.
func (e *Error) Error() string {
	return fmt.Sprintf("query: %s at offset %d", e.Msg, e.Pos)
}

// Caret draws the query on one line and, on the next, carets under the bytes
// [Pos, Pos+Len), with at least one caret. Columns are counted in runes, so
// multibyte text lines up in a terminal that shows one cell per rune.
// Control characters such as tabs and newlines are drawn as spaces so the
// query stays on one line. Out-of-range positions are clamped, never fatal.
func (e *Error) Caret() string {
	q := e.Query
	pos := clamp(e.Pos, 0, len(q))
	end := clamp(pos+max(e.Len, 0), pos, len(q))

	var b strings.Builder
	for _, r := range q {
		if unicode.IsControl(r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	b.WriteByte('\n')
	// RuneCountInString counts every invalid byte as one rune, exactly as
	// the range loop above writes one U+FFFD per invalid byte.
	b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(q[:pos])))
	b.WriteString(strings.Repeat("^", max(utf8.RuneCountInString(q[pos:end]), 1)))
	return b.String()
}

func clamp(v, lo, hi int) int {
	return min(max(v, lo), hi)
}
