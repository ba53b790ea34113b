package tokenize

import (
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// Trigram is the analyzer for substring search. It folds the whole text
// with Fold and emits every window of three consecutive folded runes,
// across word boundaries and whitespace alike, so any substring of three
// or more runes of a document has all its trigrams indexed.
//
// Positions count from 1. Start is the byte offset in the input of the
// first rune of the window; End is the offset just past its third rune
// together with any nonspacing marks that follow it (they fold to
// nothing), so Fold(input[Start:End]) == Term always holds. Each invalid
// UTF-8 byte is one U+FFFD rune.
//
// A Trigram holds no state; one value may be used from any number of
// goroutines at once.
type Trigram struct{}

// NewTrigram returns the trigram analyzer.
func NewTrigram() *Trigram { return &Trigram{} }

// Analyze returns the trigrams of input; fewer than three folded runes
// give none. The terms share one buffer holding the folded text.
func (*Trigram) Analyze(input []byte) analysis.TokenStream {
	in := bytesString(input)
	if i, _ := asciiPrefix(in); i == len(in) {
		return asciiTrigrams(input)
	}
	if utf8.RuneCount(input) < 3 {
		return nil
	}
	folded, fStart, iStart := foldRunes(in)
	runes := len(fStart) - 1
	if runes < 3 {
		return nil
	}
	tokens := make([]analysis.Token, runes-2)
	ts := make(analysis.TokenStream, runes-2)
	for k := range tokens {
		fs, fe := fStart[k], fStart[k+3]
		tokens[k] = analysis.Token{
			Start:    iStart[k],
			End:      iStart[k+3],
			Term:     folded[fs:fe:fe],
			Position: k + 1,
			Type:     analysis.AlphaNumeric,
		}
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

// asciiTrigrams is Analyze for ASCII input, where folded and input offsets
// coincide.
func asciiTrigrams(input []byte) analysis.TokenStream {
	if len(input) < 3 {
		return nil
	}
	folded := make([]byte, len(input))
	for i, c := range input {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		folded[i] = c
	}
	n := len(input) - 2
	tokens := make([]analysis.Token, n)
	ts := make(analysis.TokenStream, n)
	for k := range tokens {
		tokens[k] = analysis.Token{
			Start:    k,
			End:      k + 3,
			Term:     folded[k : k+3 : k+3],
			Position: k + 1,
			Type:     analysis.AlphaNumeric,
		}
		ts[k] = &tokens[k]
	}
	return ts
}

// Grams returns the distinct trigrams of Fold(s) in order of first
// occurrence: the terms a substring query for s must all match.
func Grams(s string) []string {
	f := Fold(s)
	starts := make([]int, 0, len(f)+1)
	for i := range f {
		starts = append(starts, i)
	}
	starts = append(starts, len(f))
	if len(starts) < 4 {
		return nil
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

// counterPool holds Frequencies' gramCounters, each with a table of ASCII
// trigrams (gramTable) kept empty between uses.
var counterPool = sync.Pool{New: func() any { return new(gramCounter) }}

// Frequencies returns what bleve's analysis.TokenFrequency makes of
// Analyze(input) for a field indexed without term vectors, and the number
// of tokens: each distinct trigram once, with its count. For ASCII input
// it counts the windows by their three bytes without building a token per
// window, which is most of the cost of indexing a document's trigrams.
func (t *Trigram) Frequencies(input []byte) (bleveindex.TokenFrequencies, int) {
	c, n := countGrams(input)
	if c == nil {
		return bleveindex.TokenFrequencies{}, 0
	}
	defer c.release()
	return c.frequencies(), n
}

// VisitFrequencies calls fn with each trigram that Frequencies returns
// and its count, in order of first occurrence, without building the map,
// and returns the number of tokens. gram is valid only during the call.
func (t *Trigram) VisitFrequencies(input []byte, fn func(gram []byte, freq int)) int {
	c, n := countGrams(input)
	if c == nil {
		return 0
	}
	defer c.release()
	c.visit(fn)
	return n
}

// countGrams counts the trigrams of input: the counter, to release, and
// the number of windows; nil when there are none.
func countGrams(input []byte) (*gramCounter, int) {
	in := bytesString(input)
	if i, _ := asciiPrefix(in); i < len(in) {
		return foldedGrams(in)
	}
	n := len(input) - 2
	if n <= 0 {
		return nil, 0
	}
	c := newGramCounter(n)
	key := lower(input[0])<<7 | lower(input[1])
	for _, b := range input[2:] {
		key = (key<<7 | lower(b)) & (1<<21 - 1)
		c.addASCII(key)
	}
	return c, n
}

// foldedGrams is countGrams of input that is not all ASCII: it folds the
// text once and counts the windows of three ASCII runes in the table, the
// others by their folded bytes.
func foldedGrams(in string) (*gramCounter, int) {
	folded, starts, _ := foldRunes(in)
	n := len(starts) - 3 // windows: runes - 2
	if n <= 0 {
		return nil, 0
	}
	c := newGramCounter(n)
	for k := range n {
		fs, fe := starts[k], starts[k+3]
		if fe-fs == 3 { // three one-byte runes
			c.addASCII(uint32(folded[fs])<<14 | uint32(folded[fs+1])<<7 | uint32(folded[fs+2]))
		} else {
			c.addOther(folded[fs:fe:fe])
		}
	}
	return c, n
}

func lower(c byte) uint32 {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return uint32(c)
}

// gramCounter counts trigrams in order of first occurrence: ASCII ones
// by their 21 bits in a gramTable, the others in a map.
type gramCounter struct {
	table  gramTable
	grams  []uint32 // per distinct trigram: its 21 bits, or otherGram|index in others
	counts []int
	other  map[string]int32
	others [][]byte
	ascii  int // how many grams are ASCII
}

const otherGram = 1 << 31

// newGramCounter returns a counter for n windows.
func newGramCounter(n int) *gramCounter {
	c := counterPool.Get().(*gramCounter)
	c.table.size(n)
	return c
}

func (c *gramCounter) addASCII(key uint32) {
	if k, ok := c.table.find(key); ok {
		c.counts[k]++
		return
	}
	c.table.insert(key, int32(len(c.counts)))
	c.grams = append(c.grams, key)
	c.counts = append(c.counts, 1)
	c.ascii++
}

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
	buf := make([]byte, 0, 3*c.ascii)
	tfs := make([]bleveindex.TokenFreq, len(c.counts))
	out := make(bleveindex.TokenFrequencies, len(c.counts))
	for k, g := range c.grams {
		tf := &tfs[k]
		if g&otherGram != 0 {
			tf.Term = c.others[g&^otherGram]
		} else {
			buf = append(buf, byte(g>>14), byte(g>>7&0x7f), byte(g&0x7f))
			tf.Term = buf[len(buf)-3 : len(buf) : len(buf)]
		}
		tf.SetFrequency(c.counts[k])
		out[bytesString(tf.Term)] = tf
	}
	return out
}

// visit calls fn with each gram and its count, in order of first
// occurrence.
func (c *gramCounter) visit(fn func(gram []byte, freq int)) {
	var buf [3]byte
	for k, g := range c.grams {
		if g&otherGram != 0 {
			fn(c.others[g&^otherGram], c.counts[k])
			continue
		}
		buf = [3]byte{byte(g >> 14), byte(g >> 7 & 0x7f), byte(g & 0x7f)}
		fn(buf[:], c.counts[k])
	}
}

// release clears the counter for its next user and returns it to the
// pool.
func (c *gramCounter) release() {
	c.table.empty(c.grams)
	clear(c.other)
	clear(c.others)
	c.grams, c.counts, c.others, c.ascii = c.grams[:0], c.counts[:0], c.others[:0], 0
	counterPool.Put(c)
}
