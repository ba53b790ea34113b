package tokenize

// Positions returns where Analyze(input) emits each of terms: out[i]
// holds the positions of terms[i], ascending, and may be nil (a term
// asked for twice gets the same list). The
// judges of phrases and NEAR need no other term.
//
// Cost: one scan of input like Analyze's, without its tokens, and in
// English the stemmer runs only on words that could stem to one of
// terms: a word's stem keeps its first letter and is never longer (true
// of every rule and exception of Porter2), so most words are passed over
// after folding. In the other languages every word is stemmed.
func (t *Text) Positions(input []byte, terms []string) [][]int {
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
	s.run(bytesString(input))
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
}

// mayBe reports whether the English term of a word, folded, could be
// one of the terms: its stem or itself.
func (p *picker) mayBe(folded []byte) bool {
	n := p.shortest[folded[0]]
	return n != 0 && n <= len(folded)
}

func (p *picker) add(term string, pos int) {
	if i, ok := p.index[term]; ok {
		p.out[i] = append(p.out[i], pos)
	}
}
