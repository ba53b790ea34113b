package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// MaxTermLen is the longest term, in bytes of folded text, that the Text
// analyzer emits. A longer word, compound or part is skipped; it still
// takes its position, so the positions of the tokens after it do not move.
const MaxTermLen = 256

// Text is the analyzer for prose and source code. It splits on anything
// that is not a letter or digit, splits compounds (camelCase, PascalCase,
// acronyms, snake_case, kebab-case, dotted.names, letter/digit boundaries)
// and emits both the whole compound and its parts, folds case and
// diacritics with Fold, drops stop words, stems words with Snowball, and
// turns runs of CJK characters into unigrams plus overlapping bigrams.
// Stop words and stemmer are those of its language (NewTextLang): English
// by default, with a small list of stop words that spares the words that
// mean something in code.
//
// In English, stemming applies to every term longer than three bytes made
// only of the letters a-z after folding: plain words, parts, and compounds
// without separators or digits (getUserById becomes the term of the word
// "getuserbyid", so both spellings match). Compounds with separators or
// digits (bufio.scanner, utf8) and other scripts are not stemmed. In the
// other languages it applies to the words of three letters or more of any
// script but CJK; the stemmer reads the lowercased word and its stem is
// folded.
//
// A compound joined by dots or underscores emits, besides the whole run
// and its parts, each segment between them that has parts of its own
// (os.ReadFile: os.readfile, os, readfil, read, file), so that an
// identifier matches where it is qualified; a run with a hyphen does not,
// as it joins words of prose (CX3CR1-deficient).
//
// Positions: a plain word takes one position; the parts of a compound take
// consecutive positions and the compound token, like each compound
// segment, shares its first part's;
// a CJK run of n characters takes n positions and each bigram shares its
// first character's. Dropped tokens (stop words, over-long terms) keep
// their positions. Start and End are byte offsets into the input: of the
// whole run for a compound, of the part for a part.
//
// A Text holds no state; one value may be used from any number of
// goroutines at once.
type Text struct {
	lang *language // nil: English
}

// NewText returns the text analyzer of English; NewTextLang those of the
// other languages.
func NewText() *Text { return &Text{} }

// Analyze returns the tokens of input. Input may be any bytes: invalid
// UTF-8 separates words like punctuation does.
func (t *Text) Analyze(input []byte) analysis.TokenStream {
	s := textScanner{lang: t.language()}
	s.run(bytesString(input))
	return s.stream()
}

// Stops returns the stop words that Analyze(input) drops, as tokens
// whose Term is the word folded, at the positions they keep: what a
// quoted phrase's stop words must be found at ("of the file" is not
// "file"). A word is a stop word in its language's list, and only as a
// plain word or a part: a compound is kept whole.
func (t *Text) Stops(input []byte) analysis.TokenStream {
	s := textScanner{lang: t.language(), stops: true}
	s.run(bytesString(input))
	return s.stream()
}

// Frequencies returns what bleve's analysis.TokenFrequency makes of
// Analyze(input) for a field indexed without term vectors, and the number
// of tokens: each distinct term once, with its count. It counts the terms
// as it finds them instead of building a token for each.
func (t *Text) Frequencies(input []byte) (bleveindex.TokenFrequencies, int) {
	return t.Count(input, nil, nil)
}

// Count is Frequencies that also adds to words, unless it is nil, the
// spelling of every token whose term differs from its folded spelling,
// with a frequency of 1: the words as written that stemming changed
// ("configurations" for the term "configur"). With them a typo can be
// compared with the word as written, also where the stemmer strips the
// typo ("configuraton"); Term maps a spelling back to its term. The
// spelling is the folded word in English, and the lowercased word in the
// other languages, whose stemmers read accents ("nationalités", term
// "national"; "nationalites" stems to "nationalit"). Spellings longer
// than MaxTermLen bytes are left out. Unless adj is nil, Count also adds
// to it the text's pairs of terms at consecutive positions.
func (t *Text) Count(input []byte, words bleveindex.TokenFrequencies, adj *Adjacent) (bleveindex.TokenFrequencies, int) {
	c := termCounter{out: make(bleveindex.TokenFrequencies, len(input)/32+1), words: words, adj: adj}
	s := textScanner{count: &c, lang: t.language()}
	if adj != nil {
		adj.start()
	}
	s.run(bytesString(input))
	if adj != nil {
		adj.end(s.pos - 1)
	}
	return c.out, s.n
}

// Term returns the term of a word as Count records it in words, and
// false when the analyzer makes no single term of it.
func (t *Text) Term(word string) (string, bool) {
	ts := t.Analyze([]byte(word))
	if len(ts) != 1 {
		return "", false
	}
	return string(ts[0].Term), true
}

// termCounter counts the terms of one text in a TokenFrequencies, and
// the spellings stemming changed in another, allocating the TokenFreqs
// and the terms' bytes in chunks.
type termCounter struct {
	out   bleveindex.TokenFrequencies
	words bleveindex.TokenFrequencies // nil: not kept
	adj   *Adjacent                   // nil: not kept
	slab  []bleveindex.TokenFreq
	arena []byte
}

func (c *termCounter) add(term string) {
	if tf := c.out[term]; tf != nil {
		tf.SetFrequency(tf.Frequency() + 1)
		return
	}
	tf := c.freq(term)
	c.out[bytesString(tf.Term)] = tf
}

// addWord adds a spelling to words once, with frequency 1.
func (c *termCounter) addWord(word string) {
	if c.words[word] == nil {
		tf := c.freq(word)
		c.words[bytesString(tf.Term)] = tf
	}
}

// freq returns a new TokenFreq of term with frequency 1; its map key is
// bytesString(Term), since term may be the scanner's scratch.
func (c *termCounter) freq(term string) *bleveindex.TokenFreq {
	if len(c.slab) == cap(c.slab) {
		c.slab = make([]bleveindex.TokenFreq, 0, 256)
	}
	if cap(c.arena)-len(c.arena) < len(term) {
		c.arena = make([]byte, 0, max(4096, len(term)))
	}
	start := len(c.arena)
	c.arena = append(c.arena, term...)
	c.slab = append(c.slab, bleveindex.TokenFreq{Term: c.arena[start:len(c.arena):len(c.arena)]})
	tf := &c.slab[len(c.slab)-1]
	tf.SetFrequency(1)
	return tf
}

// Terms returns the term of every token of s, in order, duplicates kept.
func (t *Text) Terms(s string) []string {
	ts := t.Analyze([]byte(s))
	out := make([]string, len(ts))
	for i, tok := range ts {
		out[i] = string(tok.Term)
	}
	return out
}

// bytesString views b as a string without copying. Safe here because the
// scanner only reads it during the call and copies every term it keeps.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// tokenKind tells emit which rules apply.
type tokenKind uint8

const (
	kindWord     tokenKind = iota // a plain word or a part: stop words dropped
	kindCompound                  // a whole compound: kept even if a part is a stop word
	kindCJK                       // a CJK unigram or bigram
)

// textScanner does the work for both Analyze and Frequencies, so the two
// agree by construction: with count set it counts each term instead of
// building its token.
type textScanner struct {
	in    string
	lang  *language
	count *termCounter
	pick  *picker // Positions: only the positions of its terms
	stops bool    // Stops: only the stop words dropped
	pos   int
	n     int

	tokens []analysis.Token
	ends   []int // ends[i]: end of token i's term in arena
	arena  []byte

	scratch [MaxTermLen + utf8.UTFMax]byte
	lower   []byte // the lowercased word, in languages other than English
}

func (s *textScanner) run(in string) {
	s.in = in
	s.pos = 1
	if s.count == nil && s.pick == nil && !s.stops {
		s.tokens = make([]analysis.Token, 0, min(len(in)/6+1, 1<<12))
		s.ends = make([]int, 0, cap(s.tokens))
		s.arena = make([]byte, 0, min(len(in)/2+16, 1<<15))
	}
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf && asciiClass[c]&(acLetter|acDigit) == 0 {
			i++ // ASCII space and punctuation, the common case
			continue
		}
		r, size := decodeAt(in, i)
		switch wordClass(r) {
		case wcWord:
			j, rest := s.wordEnd(i + size)
			if r < utf8.RuneSelf && onePart(asciiCase[r], rest) {
				s.emit(i, j, s.pos, kindWord)
				s.pos++
			} else {
				s.word(i, j)
			}
			i = j
		case wcCJK:
			i = s.cjk(i)
		default:
			i += size
		}
	}
}

func (s *textScanner) stream() analysis.TokenStream {
	ts := make(analysis.TokenStream, len(s.tokens))
	start := 0
	for i := range s.tokens {
		end := s.ends[i]
		s.tokens[i].Term = s.arena[start:end:end]
		start = end
		ts[i] = &s.tokens[i]
	}
	return ts
}

// wordEnd returns the end of the word run that continues at k: letters,
// digits and marks, joined by connectors that have a letter or digit on
// both sides. rest has bit 1<<c set for each case class c of the run from
// k on, and the bit caseMixed if it holds a connector or a rune outside
// ASCII.
func (s *textScanner) wordEnd(k int) (end int, rest uint8) {
	in := s.in
	for k < len(in) {
		c := in[k]
		if c < utf8.RuneSelf && asciiClass[c]&(acLetter|acDigit) != 0 {
			rest |= 1 << asciiCase[c]
			k++
			continue
		}
		if isConnector(c) {
			m := k + 1
			for m < len(in) && isConnector(in[m]) {
				m++
			}
			if m == len(in) {
				return k, rest
			}
			r, size := decodeAt(in, m)
			if wordClass(r) != wcWord {
				return k, rest
			}
			rest |= 1 << caseMixed
			k = m + size
			continue
		}
		r, size := decodeAt(in, k)
		if wordClass(r) != wcWord && !isMark(r) {
			return k, rest
		}
		rest |= 1 << caseMixed
		k += size
	}
	return k, rest
}

// onePart reports whether a run that starts with an ASCII rune of class
// first, and whose other runes have the classes of rest (wordEnd), has no
// part boundary: a word in lower case or capitalized, or a number.
func onePart(first caseKind, rest uint8) bool {
	if first == caseDigit {
		return rest&^(1<<caseDigit) == 0
	}
	return rest&^(1<<caseLower) == 0
}

// word emits the run in[i:j]: once if it has no internal boundary,
// otherwise as the compound and its parts.
func (s *textScanner) word(i, j int) {
	if e := s.partEnd(i, j); e == j {
		s.emit(i, j, s.pos, kindWord)
		s.pos++
		return
	}
	s.emit(i, j, s.pos, kindCompound)
	segment := true // k starts a run between connectors
	for k := i; k < j; {
		if isConnector(s.in[k]) {
			k++
			segment = true
			continue
		}
		if segment {
			// A segment with parts of its own (ReadFile in os.ReadFile)
			// is a compound too, so that it matches the identifier
			// written alone; not between hyphens, which join words of
			// prose (CX3CR1-deficient).
			segment = false
			end := k + strings.IndexFunc(s.in[k:j], func(r rune) bool { return r < utf8.RuneSelf && isConnector(byte(r)) })
			if end < k {
				end = j
			}
			if (k != i || end != j) && s.partEnd(k, end) != end && !hyphenated(s.in[i:j]) {
				s.emit(k, end, s.pos, kindCompound)
			}
		}
		e := s.partEnd(k, j)
		s.emit(k, e, s.pos, kindWord)
		s.pos++
		k = e
	}
}

// partEnd returns the end of the part of a run that starts at start (a
// letter or digit) and lies within the run ending at j.
func (s *textScanner) partEnd(start, j int) int {
	in := s.in
	prev := caseNone
	for k := start; k < j; {
		if c := in[k]; c < utf8.RuneSelf {
			// ASCII, the common case: no boundary within a run of one
			// class but capitals, whose last may start a word.
			if isConnector(c) {
				return k
			}
			cl := asciiCase[c]
			if cl != prev || cl == caseUpper {
				if prev != caseNone && s.boundary(prev, cl, k+1, j) {
					return k
				}
				prev = cl
			}
			k++
			continue
		}
		r, size := decodeAt(in, k)
		cl := caseClass(r)
		if cl == caseMark {
			k += size
			continue
		}
		if prev != caseNone && s.boundary(prev, cl, k+size, j) {
			return k
		}
		prev = cl
		k += size
	}
	return j
}

// boundary reports whether a part ends between a rune of class prev and
// the following rune of class cur; after is where the rune after cur
// starts.
func (s *textScanner) boundary(prev, cur caseKind, after, j int) bool {
	if (prev == caseDigit) != (cur == caseDigit) {
		return true
	}
	if prev == caseLower && cur == caseUpper {
		return true
	}
	if prev == caseUpper && cur == caseUpper {
		// XMLParser: the last capital of an acronym starts the next word...
		r, next := s.nextCased(after, j)
		if r != caseLower {
			return false
		}
		// ...unless the acronym is just pluralized: IDs, URLs.
		if s.in[next-1] == 's' {
			if r2, _ := s.nextCased(next, j); r2 != caseLower {
				return false
			}
		}
		return true
	}
	return false
}

// nextCased returns the class of the next non-mark rune at or after k
// (caseNone at the end of the part) and the offset just after it.
func (s *textScanner) nextCased(k, j int) (caseKind, int) {
	for k < j && !isConnector(s.in[k]) {
		r, size := decodeAt(s.in, k)
		k += size
		if cl := caseClass(r); cl != caseMark {
			return cl, k
		}
	}
	return caseNone, k
}

// cjk emits unigrams and overlapping bigrams for the CJK run starting at i
// and returns its end.
func (s *textScanner) cjk(i int) int {
	in := s.in
	prev := -1
	k := i
	for k < len(in) {
		r, size := decodeAt(in, k)
		if wordClass(r) != wcCJK {
			break
		}
		end := k + size
		for end < len(in) {
			m, sz := decodeAt(in, end)
			if !isMark(m) {
				break
			}
			end += sz
		}
		if prev >= 0 {
			s.emit(prev, end, s.pos-1, kindCJK)
		}
		s.emit(k, end, s.pos, kindCJK)
		s.pos++
		prev = k
		k = end
	}
	return k
}

// emit decides whether in[start:end] becomes a token and appends or
// counts it.
func (s *textScanner) emit(start, end, pos int, kind tokenKind) {
	if c := s.in[start]; s.pick != nil && s.lang.memo == nil && c < utf8.RuneSelf && s.pick.shortest[asciiLower(c)] == 0 {
		return // an ASCII letter or digit folds to itself, lowercased
	}
	folded, ok := appendFold(s.scratch[:0], s.in[start:end], MaxTermLen)
	if !ok || len(folded) == 0 {
		return
	}
	var term string
	stemmed := false
	if s.lang.memo == nil {
		// English, spelled out here: it is the hot path of indexing.
		if s.pick != nil && !s.pick.mayBe(folded) {
			return
		}
		if kind == kindWord && isStopWord(folded) {
			s.dropped(start, end, pos, folded)
			return
		}
		if s.stops {
			return
		}
		term = bytesString(folded)
		if stemmable(folded) {
			term, stemmed = stemCache.stem(folded), true
		}
	} else {
		s.lower = appendLower(s.lower[:0], s.in[start:end])
		if term, stemmed = s.lang.term(folded, bytesString(s.lower), kind); term == "" {
			s.dropped(start, end, pos, folded) // a stop word
			return
		}
		if s.stops {
			return
		}
	}
	if s.pick != nil {
		s.pick.add(term, pos)
		return
	}
	s.n++
	if s.count != nil {
		s.count.add(term)
		if s.count.adj != nil {
			s.count.adj.add(pos, term)
		}
		if stemmed && s.count.words != nil && term != bytesString(folded) {
			s.addWritten(folded)
		}
		return
	}
	typ := analysis.AlphaNumeric
	switch {
	case kind == kindCJK:
		typ = analysis.Ideographic
	case !hasLetter(folded):
		typ = analysis.Numeric
	}
	s.arena = append(s.arena, term...)
	s.tokens = append(s.tokens, analysis.Token{Start: start, End: end, Position: pos, Type: typ})
	s.ends = append(s.ends, len(s.arena))
}

// dropped notes a stop word the scanner drops, folded: Stops keeps its
// token, Positions its position when it is one of the terms asked for,
// and Count's Adjacent its pairs.
func (s *textScanner) dropped(start, end, pos int, folded []byte) {
	switch {
	case s.count != nil:
		if s.count.adj != nil {
			s.count.adj.add(pos, bytesString(folded))
		}
	case s.pick != nil:
		s.pick.add(bytesString(folded), pos)
	case s.stops:
		s.arena = append(s.arena, folded...)
		s.tokens = append(s.tokens, analysis.Token{Start: start, End: end, Position: pos, Type: analysis.AlphaNumeric})
		s.ends = append(s.ends, len(s.arena))
	}
}

// addWritten adds to words the spelling of a word whose term is not its
// folded spelling, one that Term maps back to its term: the folded word
// in English, the lowercased word that the stemmer read in the other
// languages (folded, it could stem otherwise). A spelling longer than
// MaxTermLen is left out.
func (s *textScanner) addWritten(folded []byte) {
	if s.lang.memo == nil {
		s.count.addWord(bytesString(folded))
	} else if len(s.lower) <= MaxTermLen {
		s.count.addWord(bytesString(s.lower))
	}
}

// asciiLower lowercases an ASCII letter.
func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// appendLower appends s lowercased rune by rune, as strings.ToLower does.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += size
	}
	return dst
}

func hasLetter(b []byte) bool {
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			if asciiClass[c]&acLetter != 0 {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if unicode.IsLetter(r) {
			return true
		}
		i += size
	}
	return false
}
