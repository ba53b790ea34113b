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
	n := utf8.RuneCount(input)
	if n < 3 {
		return nil
	}
	folded := make([]byte, 0, len(in)+8)
	// For each folded rune: where it starts in folded and in the input.
	fStart := make([]int, 0, n+1)
	iStart := make([]int, 0, n+1)
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
	fStart = append(fStart, len(folded))
	iStart = append(iStart, len(in))
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

// slotPool holds Frequencies' tables of ASCII trigrams, 8 MiB each, kept
// zeroed between uses.
var slotPool = sync.Pool{New: func() any { return new([1 << 21]int32) }}

// Frequencies returns what bleve's analysis.TokenFrequency makes of
// Analyze(input) for a field indexed without term vectors, and the number
// of tokens: each distinct trigram once, with its count. For ASCII input
// it counts the windows by their three bytes without building a token per
// window, which is most of the cost of indexing a document's trigrams.
func (t *Trigram) Frequencies(input []byte) (bleveindex.TokenFrequencies, int) {
	if i, _ := asciiPrefix(bytesString(input)); i < len(input) {
		ts := t.Analyze(input)
		return analysis.TokenFrequency(ts, nil, bleveindex.IndexField), len(ts)
	}
	n := len(input) - 2
	if n <= 0 {
		return bleveindex.TokenFrequencies{}, 0
	}
	lower := func(c byte) uint32 {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return uint32(c)
	}
	// slot numbers the distinct windows (slot+1, by their 21 bits) in
	// order of first occurrence; terms holds them, three bytes each.
	slot := slotPool.Get().(*[1 << 21]int32)
	defer slotPool.Put(slot)
	terms := make([]byte, 0, 3*min(n, 1<<12))
	var counts []int
	key := lower(input[0])<<7 | lower(input[1])
	for _, c := range input[2:] {
		key = (key<<7 | lower(c)) & (1<<21 - 1)
		k := slot[key] - 1
		if k < 0 {
			k = int32(len(counts))
			slot[key] = k + 1
			terms = append(terms, byte(key>>14), byte(key>>7&0x7f), byte(key&0x7f))
			counts = append(counts, 0)
		}
		counts[k]++
	}
	// Clear the table for its next user.
	for k := range counts {
		slot[uint32(terms[3*k])<<14|uint32(terms[3*k+1])<<7|uint32(terms[3*k+2])] = 0
	}
	keys := string(terms)
	tfs := make([]bleveindex.TokenFreq, len(counts))
	out := make(bleveindex.TokenFrequencies, len(counts))
	for k, c := range counts {
		tf := &tfs[k]
		tf.Term = terms[3*k : 3*k+3 : 3*k+3]
		tf.SetFrequency(c)
		out[keys[3*k:3*k+3]] = tf
	}
	return out, n
}
