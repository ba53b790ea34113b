package tokenize

import (
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Trigram is the analyzer for substring search. It folds the whole text
// with Fold and emits every window of one, two and three consecutive
// folded runes, across word boundaries and whitespace alike, so any
// substring of three or more runes of a document has all its trigrams
// indexed, and one of one or two runes is itself a term: a query of one or
// two characters is a posting list, not a scan.
//
// For each window start in turn it emits the windows of one, two and three
// runes that fit; positions count tokens from 1. Start is the byte offset
// in the input of the first rune of the window; End is the offset just
// past its last rune together with any nonspacing marks that follow it
// (they fold to nothing), so Fold(input[Start:End]) == Term always holds.
// Each invalid UTF-8 byte is one U+FFFD rune.
//
// A Trigram holds no state; one value may be used from any number of
// goroutines at once.
type Trigram struct{}

// NewTrigram returns the trigram analyzer.
func NewTrigram() *Trigram { return &Trigram{} }

// gramTokens is how many grams a text of n folded runes has: n of one
// rune, n-1 of two and n-2 of three.
func gramTokens(n int) int { return max(n, 0) + max(n-1, 0) + max(n-2, 0) }

// Analyze returns the grams of input. The terms share one buffer holding
// the folded text.
func (*Trigram) Analyze(input []byte) analysis.TokenStream {
	in := bytesString(input)
	if i, _ := asciiPrefix(in); i == len(in) {
		return asciiGrams(input)
	}
	folded, fStart, iStart := foldRunes(in)
	runes := len(fStart) - 1
	if runes < 1 {
		return nil
	}
	tokens := make([]analysis.Token, 0, gramTokens(runes))
	for k := range runes {
		for w := 1; w <= 3 && k+w <= runes; w++ {
			fs, fe := fStart[k], fStart[k+w]
			tokens = append(tokens, analysis.Token{
				Start:    iStart[k],
				End:      iStart[k+w],
				Term:     folded[fs:fe:fe],
				Position: len(tokens) + 1,
				Type:     analysis.AlphaNumeric,
			})
		}
	}
	return stream(tokens)
}

func stream(tokens []analysis.Token) analysis.TokenStream {
	ts := make(analysis.TokenStream, len(tokens))
	for k := range tokens {
		ts[k] = &tokens[k]
	}
	return ts
}

// foldRunes returns Fold(in) and, for each folded rune, where it starts in
// folded and in the input, each list ending with the total length.
func foldRunes(in string) (folded []byte, fStart, iStart []int) {
	n := utf8.RuneCountInString(in)
	folded = make([]byte, 0, len(in)+8)
	fStart = make([]int, 0, n+1)
	iStart = make([]int, 0, n+1)
	for i := 0; i < len(in); {
		r, size := decodeAt(in, i)
		if size == 1 && r >= utf8.RuneSelf {
			r = utf8.RuneError
		}
		if c := r; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			fStart = append(fStart, len(folded))
			iStart = append(iStart, i)
			folded = append(folded, byte(c))
		} else if f := foldRune(r); f != dropRune {
			fStart = append(fStart, len(folded))
			iStart = append(iStart, i)
			folded = utf8.AppendRune(folded, f)
		}
		i += size
	}
	return folded, append(fStart, len(folded)), append(iStart, len(in))
}

// asciiGrams is Analyze for ASCII input, where folded and input offsets
// coincide.
func asciiGrams(input []byte) analysis.TokenStream {
	if len(input) == 0 {
		return nil
	}
	folded := make([]byte, len(input))
	for i, c := range input {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		folded[i] = c
	}
	tokens := make([]analysis.Token, 0, gramTokens(len(input)))
	for k := range input {
		for w := 1; w <= 3 && k+w <= len(input); w++ {
			tokens = append(tokens, analysis.Token{
				Start:    k,
				End:      k + w,
				Term:     folded[k : k+w : k+w],
				Position: len(tokens) + 1,
				Type:     analysis.AlphaNumeric,
			})
		}
	}
	return stream(tokens)
}

// Grams returns the terms a substring query for s must all match, in
// order of first occurrence: the distinct trigrams of Fold(s), or Fold(s)
// itself when it has one or two runes (none when it is empty).
func Grams(s string) []string {
	f := Fold(s)
	starts := make([]int, 0, len(f)+1)
	for i := range f {
		starts = append(starts, i)
	}
	starts = append(starts, len(f))
	switch len(starts) {
	case 1:
		return nil
	case 2, 3:
		return []string{f}
	}
	out := make([]string, 0, len(starts)-3)
	seen := make(map[string]struct{}, len(starts)-3)
	for k := 0; k+3 < len(starts); k++ {
		g := f[starts[k]:starts[k+3]]
		if _, dup := seen[g]; !dup {
			seen[g] = struct{}{}
			out = append(out, g)
		}
	}
	return out
}

// counterPool holds Frequencies' gramCounters, each with an 8 MiB table
// of ASCII trigrams and smaller ones of ASCII bigrams and unigrams, kept
// zeroed between uses.
var counterPool = sync.Pool{New: func() any {
	return &gramCounter{slot: new([1 << 21]int32), slot2: new([1 << 14]int32)}
}}

// Frequencies returns what bleve's analysis.TokenFrequency makes of
// Analyze(input) for a field indexed without term vectors, and the number
// of tokens: each distinct gram once, with its count. For ASCII input it
// counts the windows by their bytes without building a token per window,
// which is most of the cost of indexing a document's grams.
func (t *Trigram) Frequencies(input []byte) (bleveindex.TokenFrequencies, int) {
	in := bytesString(input)
	if i, _ := asciiPrefix(in); i < len(in) {
		return foldedFrequencies(in)
	}
	if len(input) == 0 {
		return bleveindex.TokenFrequencies{}, 0
	}
	c := newGramCounter()
	defer c.release()
	key := lower(input[0])
	c.add1(key)
	if len(input) > 1 {
		key = key<<7 | lower(input[1])
		c.add1(key & 0x7f)
		c.add2(key)
	}
	for _, b := range input[min(2, len(input)):] {
		key = (key<<7 | lower(b)) & (1<<21 - 1)
		c.add1(key & 0x7f)
		c.add2(key & (1<<14 - 1))
		c.add3(key)
	}
	return c.frequencies(), gramTokens(len(input))
}

// foldedFrequencies is Frequencies of input that is not all ASCII: it
// folds the text once and counts the windows of ASCII runes in the
// tables, the others by their folded bytes.
func foldedFrequencies(in string) (bleveindex.TokenFrequencies, int) {
	folded, starts, _ := foldRunes(in)
	runes := len(starts) - 1
	if runes <= 0 {
		return bleveindex.TokenFrequencies{}, 0
	}
	c := newGramCounter()
	defer c.release()
	for k := range runes {
		fs := starts[k]
		if e := starts[k+1]; e-fs == 1 {
			c.add1(uint32(folded[fs]))
		} else {
			c.addOther(folded[fs:e:e])
		}
		if k+2 <= runes {
			if e := starts[k+2]; e-fs == 2 { // two one-byte runes
				c.add2(uint32(folded[fs])<<7 | uint32(folded[fs+1]))
			} else {
				c.addOther(folded[fs:e:e])
			}
		}
		if k+3 <= runes {
			if e := starts[k+3]; e-fs == 3 {
				c.add3(uint32(folded[fs])<<14 | uint32(folded[fs+1])<<7 | uint32(folded[fs+2]))
			} else {
				c.addOther(folded[fs:e:e])
			}
		}
	}
	return c.frequencies(), gramTokens(runes)
}

func lower(c byte) uint32 {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return uint32(c)
}

// gramCounter counts grams in order of first occurrence: ASCII ones in
// pooled tables by their 7 bits per rune (slot+1), the others in a map.
type gramCounter struct {
	slot   *[1 << 21]int32 // trigrams
	slot2  *[1 << 14]int32 // bigrams
	slot1  [1 << 7]int32   // unigrams
	grams  []uint32        // per distinct gram: its kind and bits, or otherGram|index in others
	counts []int
	other  map[string]int32
	others [][]byte
	bytes  int // of the ASCII grams' terms
}

// The kinds of gramCounter.grams' entries, in their top bits.
const (
	otherGram   = 1 << 31
	unigram     = 1 << 30
	bigram      = 1 << 29
	trigram     = 0
	gramKinds   = otherGram | unigram | bigram
	gramPayload = 1<<29 - 1
)

func newGramCounter() *gramCounter { return counterPool.Get().(*gramCounter) }

// count adds one to the gram whose slot is *slot, new ones under gram.
func (c *gramCounter) count(slot *int32, gram uint32, bytes int) {
	k := *slot - 1
	if k < 0 {
		k = int32(len(c.counts))
		*slot = k + 1
		c.grams = append(c.grams, gram)
		c.counts = append(c.counts, 0)
		c.bytes += bytes
	}
	c.counts[k]++
}

func (c *gramCounter) add1(key uint32) { c.count(&c.slot1[key], unigram|key, 1) }
func (c *gramCounter) add2(key uint32) { c.count(&c.slot2[key], bigram|key, 2) }
func (c *gramCounter) add3(key uint32) { c.count(&c.slot[key], trigram|key, 3) }

func (c *gramCounter) addOther(term []byte) {
	k, ok := c.other[bytesString(term)]
	if !ok {
		if c.other == nil {
			c.other = make(map[string]int32)
		}
		k = int32(len(c.counts))
		c.other[bytesString(term)] = k
		c.grams = append(c.grams, otherGram|uint32(len(c.others)))
		c.others = append(c.others, term)
		c.counts = append(c.counts, 0)
	}
	c.counts[k]++
}

func (c *gramCounter) frequencies() bleveindex.TokenFrequencies {
	buf := make([]byte, 0, c.bytes)
	tfs := make([]bleveindex.TokenFreq, len(c.counts))
	out := make(bleveindex.TokenFrequencies, len(c.counts))
	for k, g := range c.grams {
		tf := &tfs[k]
		at := len(buf)
		switch p := g & gramPayload; g & gramKinds {
		case otherGram:
			tf.Term = c.others[p]
		case unigram:
			buf = append(buf, byte(p))
		case bigram:
			buf = append(buf, byte(p>>7), byte(p&0x7f))
		default:
			buf = append(buf, byte(p>>14), byte(p>>7&0x7f), byte(p&0x7f))
		}
		if len(buf) > at {
			tf.Term = buf[at:len(buf):len(buf)]
		}
		tf.SetFrequency(c.counts[k])
		out[bytesString(tf.Term)] = tf
	}
	return out
}

// release clears the counter for its next user and returns it to the
// pool.
func (c *gramCounter) release() {
	for _, g := range c.grams {
		p := g & gramPayload
		switch g & gramKinds {
		case unigram:
			c.slot1[p] = 0
		case bigram:
			c.slot2[p] = 0
		case trigram:
			c.slot[p] = 0
		}
	}
	clear(c.other)
	clear(c.others)
	c.grams, c.counts, c.others, c.bytes = c.grams[:0], c.counts[:0], c.others[:0], 0
	counterPool.Put(c)
}
