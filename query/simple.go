package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Simple parses input in simple mode, the mode for people typing into a
// search box. It never reports a syntax error; its only error is ErrEmpty.
//
// The rules:
//
//   - Whitespace (Unicode White_Space) separates terms.
//   - A double quote at the start of a word opens a phrase that runs to the
//     next double quote or the end of the input. There is no escaping.
//     Empty or all-whitespace phrases are dropped.
//   - Anywhere else a double quote is literal: say"hi is one term.
//   - Everything else is literal: AND, OR, NOT and NEAR are ordinary words,
//     and punctuation stays in the term (mcp-server, key:value, C++, -x, *).
//
// One leaf is returned as itself; several are wrapped in an *And, in input
// order, duplicates kept. Every Text is a byte-exact substring of input and
// may hold whatever bytes input held, invalid UTF-8 included.
// Simple runs in time linear in len(input).
func Simple(input string) (Node, error) {
	var leaves []Node
	for i := 0; i < len(input); {
		r, size := utf8.DecodeRuneInString(input[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r == '"':
			start := i
			body := input[i+1:]
			end := len(input)
			if j := strings.IndexByte(body, '"'); j >= 0 {
				body = body[:j]
				end = i + 1 + j + 1
			}
			if text := strings.TrimFunc(body, unicode.IsSpace); text != "" {
				leaves = append(leaves, &Phrase{Text: text, Pos: start, Len: end - start})
			}
			i = end
		default:
			start := i
			for i < len(input) {
				r, size := utf8.DecodeRuneInString(input[i:])
				if unicode.IsSpace(r) {
					break
				}
				i += size
			}
			leaves = append(leaves, &Term{Text: input[start:i], Pos: start, Len: i - start})
		}
	}
	switch len(leaves) {
	case 0:
		return nil, ErrEmpty
	case 1:
		return leaves[0], nil
	}
	return &And{Children: leaves}, nil
}
