package snippet

import (
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Words remembers the analysis of the single words that snippets look
// at, across the queries of one Analyze (an index's analyzer, which does
// not change): as a query is typed, each search shows mostly the last
// one's hits, and the same words around the probes come again. It holds
// at most maxWords words and forgets all of them when full. The zero
// Words is empty and ready; it is safe for concurrent use.
type Words struct {
	mu sync.Mutex
	m  map[string][]wordToken
}

// maxWords bounds a Words: about 0.5 MiB of words and tokens.
const maxWords = 4096

// wordToken is an analyzed term of a word and its bytes in the word.
type wordToken struct {
	term       string
	start, end int
}

// tokens returns the analysis of word by analyze, remembered when w is
// not nil.
func (w *Words) tokens(word string, analyze func([]byte) analysis.TokenStream) []wordToken {
	if w == nil {
		return tokensOf(word, analyze)
	}
	w.mu.Lock()
	toks, ok := w.m[word]
	w.mu.Unlock()
	if ok {
		return toks
	}
	toks = tokensOf(word, analyze)
	w.mu.Lock()
	if len(w.m) >= maxWords || w.m == nil {
		w.m = make(map[string][]wordToken)
	}
	w.m[strings.Clone(word)] = toks // not a slice of the field's text, which it would keep
	w.mu.Unlock()
	return toks
}

func tokensOf(word string, analyze func([]byte) analysis.TokenStream) []wordToken {
	ts := analyze([]byte(word))
	out := make([]wordToken, len(ts))
	for i, t := range ts {
		out[i] = wordToken{string(t.Term), t.Start, t.End}
	}
	return out
}
