package compact

import (
	"unicode/utf8"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/edits"
)

var _ bleveindex.IndexReaderFuzzy = (*reader)(nil)

// FieldDictFuzzy returns the terms of field that start with prefix and
// are within fuzziness edits of term: the optimal string alignment
// distance in runes, which scorch's Levenshtein automata with
// transpositions count too, so both backends return the same terms.
// Cost: a pass over the prefix's range of the dictionary, with the edit
// distance computed only for terms whose length is within fuzziness.
func (r *reader) FieldDictFuzzy(field, term string, fuzziness int, prefix string) (bleveindex.FieldDict, error) {
	d, _, err := r.FieldDictFuzzyAutomaton(field, term, fuzziness, prefix)
	return d, err
}

// FieldDictFuzzyAutomaton is FieldDictFuzzy, with the test it applies.
func (r *reader) FieldDictFuzzyAutomaton(field, term string, fuzziness int, prefix string) (bleveindex.FieldDict, bleveindex.FuzzyAutomaton, error) {
	a := &automaton{q: []rune(term), max: fuzziness}
	var p []byte
	if prefix != "" {
		p = []byte(prefix)
	}
	d := r.dict(field, p, nil, p)
	d.match = func(t []byte) bool {
		if n := utf8.RuneCount(t); n-len(a.q) > fuzziness || len(a.q)-n > fuzziness {
			return false
		}
		ok, _ := a.MatchAndDistance(string(t))
		return ok
	}
	return d, a, nil
}

// automaton tests words against a fuzzy term.
type automaton struct {
	q   []rune
	max int
}

func (a *automaton) MatchAndDistance(s string) (bool, uint8) {
	d := edits.Distance(a.q, s, a.max)
	return d <= a.max, uint8(min(d, 255))
}
