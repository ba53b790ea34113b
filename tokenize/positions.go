package tokenize

import (
	"strings"
	"unicode/utf8"
)

// Positions returns where Analyze(input) emits each of terms: out[i]
// holds the positions of terms[i], ascending, and may be nil (a term
// asked for twice gets the same list). A term that is a stop word's
// folded spelling also gets the positions where Analyze drops that word
// (Stops). The judges of phrases and NEAR need no other term.
//
// Cost: one scan of input like Analyze's, without its tokens, and in
// English the stemmer runs only on words that could stem to one of
// terms: a word's stem keeps its first letter and is never longer (true
// of every rule and exception of Porter2), so most words are passed over
// after folding. In the other languages every word is stemmed.
func (t *Text) Positions(input []byte, terms []string) [][]int {
	return t.PositionsIn(bytesString(input), [][2]int{{0, len(input)}}, terms)
}

// SpanGap is how far apart PositionsIn numbers its spans: more than any
// phrase is long, so that no phrase runs from one span into the next.
const SpanGap = 1 << 16

// PositionsIn is Positions of the spans of input, [lo, hi) byte ranges in
// ascending order, each analyzed on its own: span k's positions are
// Analyze(input[lo:hi])'s plus k*SpanGap. Spans cut where RunWindow cuts
// give the positions of the text's own tokens, less a constant per span.
//
// Cost: Positions' of the spans' bytes.
func (t *Text) PositionsIn(input string, spans [][2]int, terms []string) [][]int {
	p := picker{index: make(map[string]int, len(terms))}
	slot := make([]int, len(terms))
	for i, term := range terms {
		k, ok := p.index[term]
		if !ok {
			k = len(p.index)
			p.index[term] = k
			if term != "" && (p.shortest[term[0]] == 0 || len(term) < p.shortest[term[0]]) {
				p.shortest[term[0]] = len(term)
			}
		}
		slot[i] = k
	}
	p.out = make([][]int, len(p.index))
	s := textScanner{pick: &p, lang: t.language()}
	for k, sp := range spans {
		p.base = k * SpanGap
		s.run(input[sp[0]:sp[1]])
	}
	out := make([][]int, len(terms))
	for i, k := range slot {
		out[i] = p.out[k]
	}
	return out
}

// picker collects the positions of a few terms for Positions.
type picker struct {
	index    map[string]int
	shortest [256]int // by first byte: the length of the shortest term, 0 for none
	out      [][]int
	base     int // added to the positions of the span being read
}

// mayBe reports whether the English term of a word, folded, could be
// one of the terms: its stem or itself.
func (p *picker) mayBe(folded []byte) bool {
	n := p.shortest[folded[0]]
	return n != 0 && n <= len(folded)
}

func (p *picker) add(term string, pos int) {
	if i, ok := p.index[term]; ok {
		p.out[i] = append(p.out[i], p.base+pos)
	}
}

// TermPrefix returns what the folded spelling of every word whose term
// is term starts with (the prefix of the text that Fold gives, where a
// token of that term starts), ok false in a language that cannot tell.
// In English a term is the folded word itself, or, for a word of a-z
// longer than three letters, its Porter2 stem. Every rule deletes a
// suffix or rewrites it into one whose last letter the word may lack
// there: an e (added: hope from hoping, ate from ational, ble from bli),
// an i (y to i: happi) or, in the exception skies, a y (sky); step 5 may
// then delete that e, leaving bl where the word has bil (possibility:
// possibl). So a stem ending in e, i, y or bl keeps all but its last
// letter as the word's first letters; one ending in le (biliti to ble)
// or ie (the exceptions dying, lying and tying: die, lie, tie) all but
// its last two; and any other stem is a prefix of its words whole ("int",
// "found"). A stem has only the letters a-z, so a term with any other
// byte is a word as written.
func (t *Text) TermPrefix(term string) (prefix string, ok bool) {
	if t.language().memo != nil {
		return "", false
	}
	for i := 0; i < len(term); i++ {
		if term[i] < 'a' || term[i] > 'z' {
			return term, true
		}
	}
	switch {
	case strings.HasSuffix(term, "le") || strings.HasSuffix(term, "ie"):
		return term[:len(term)-2], true
	case strings.HasSuffix(term, "e") || strings.HasSuffix(term, "i") || strings.HasSuffix(term, "y") || strings.HasSuffix(term, "bl"):
		return term[:len(term)-1], true
	}
	return term, true
}

// RunWindow returns the bounds of a part of text around offset at that
// holds the word run at at, at least before runs before it and at least
// after runs after it, cut between bytes that no run crosses (ASCII
// bytes other than letters, digits and the connectors) or at text's
// ends. Every run has a position of its own, so the window holds every
// token within before positions before the tokens of at's run and after
// positions after them, and PositionsIn reads them in it as in the whole
// text. text is the original or its folding by FoldCase when that kept
// every offset: they have the same such bytes.
//
// Cost: a pass over the window's bytes.
func RunWindow(text string, at, before, after int) (lo, hi int) {
	lo, hi = at, at
	for lo > 0 && !cut(text[lo-1]) {
		lo--
	}
	for hi < len(text) && !cut(text[hi]) {
		hi++
	}
	for n := 0; n < before && lo > 0; {
		for lo > 0 && cut(text[lo-1]) {
			lo--
		}
		word := false
		for lo > 0 && !cut(text[lo-1]) {
			lo--
			word = word || alnum(text[lo])
		}
		if word {
			n++
		}
	}
	for n := 0; n < after && hi < len(text); {
		for hi < len(text) && cut(text[hi]) {
			hi++
		}
		word := false
		for hi < len(text) && !cut(text[hi]) {
			word = word || alnum(text[hi])
			hi++
		}
		if word {
			n++
		}
	}
	return lo, hi
}

// MayStart reports whether a token can start at a byte cur of a text
// (the original, not folded) that follows the byte prev: false only
// inside a run of ASCII lower-case letters or of ASCII digits, where no
// part boundary falls. A token can start at a text's first byte.
func MayStart(prev, cur byte) bool {
	return !('a' <= prev && prev <= 'z' && 'a' <= cur && cur <= 'z' || '0' <= prev && prev <= '9' && '0' <= cur && cur <= '9')
}

// cut reports whether no word run holds c: an ASCII byte other than a
// letter, a digit or a connector. A run of other bytes that holds an
// ASCII letter or digit holds a run of the scanner's, hence a position.
func cut(c byte) bool {
	return c < utf8.RuneSelf && asciiClass[c]&(acLetter|acDigit) == 0 && !isConnector(c)
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	return c < utf8.RuneSelf && asciiClass[c]&(acLetter|acDigit) != 0
}
