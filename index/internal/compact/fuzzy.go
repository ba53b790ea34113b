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
// Cost: a walk of the prefix's range of the dictionary in order, which
// computes a row of the distance per rune that a term does not share
// with the term before it, and skips every term that starts with runes
// already more than fuzziness edits away (fuzzyWalk).
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
	d.match = newFuzzyWalk(a.q, fuzziness).match
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

// fuzzyWalk decides the terms of a dictionary, met in increasing order,
// by their distance from q (edits.Distance's, computed with the term's
// runes as the rows of its dynamic programme). The rows of the runes a
// term shares with the term before it are kept, and a row whose every
// entry exceeds max rules out every term that starts with those runes,
// since no later row has a smaller entry.
//
// A rune decoded as utf8.RuneError may have been decoded so because of
// the bytes after it, which another term with the same bytes up to its
// end need not have; a valid rune's bytes, which start with a byte that
// cannot continue another rune, decide it and every rune before it. So
// rows are kept, and terms skipped, only up to a valid rune (U+FFFD
// written as such counts as RuneError too: only a little is lost).
type fuzzyWalk struct {
	q   []rune
	max int
	// The last term decided, and for its first k runes (k < len(rows)):
	// runes[k-1], ends[k] the number of bytes they take, rows[k] the
	// programme's row after them, mins[k] its least entry. rows keeps
	// the arrays of rows past its length for the next terms.
	term  []byte
	runes []rune
	ends  []int
	rows  [][]int
	mins  []int
	to    []byte // match's, reused
}

func newFuzzyWalk(q []rune, max int) *fuzzyWalk {
	row := make([]int, len(q)+1)
	for j := range row {
		row[j] = j
	}
	return &fuzzyWalk{q: q, max: max, ends: []int{0}, rows: [][]int{row}, mins: []int{0}}
}

// match reports whether t is within max edits of q, and, when it is not,
// where the next term within max edits may be: at or after to when to is
// not nil (valid until the next call), else past the terms that start
// with t's first skip bytes, or just after t when skip is 0. Terms are
// given in increasing order, each once (the skips assume it). Cost: a
// row of O(max) per rune of t past the runes it shares with the term
// before.
//
// A term refused at a rune r leaps over the runes after r that cannot
// keep it within max: r was refused because no entry of the row before
// it is below max (an insertion or a substitution would keep any rune
// within it), so that only a rune of q near the row's diagonal makes an
// entry within max (nextRune). The next term that may be near starts
// with the runes before r and the least such rune above r, or is past
// them all. Walking a dictionary for the words one edit from a word,
// this reads a few terms under each first letter rather than one under
// each two letters.
func (w *fuzzyWalk) match(t []byte) (ok bool, skip int, to []byte) {
	n := 0
	for n < len(t) && n < len(w.term) && t[n] == w.term[n] {
		n++
	}
	k := len(w.rows) - 1
	for k > 0 && (w.ends[k] > n || w.runes[k-1] == utf8.RuneError) {
		k--
	}
	w.term = append(w.term[:0], t...)
	// The rows kept are within max: a term with a row past it at a
	// valid rune was refused there, and the terms after it skipped.
	w.runes, w.ends, w.rows, w.mins = w.runes[:k], w.ends[:k+1], w.rows[:k+1], w.mins[:k+1]
	for i := w.ends[k]; i < len(t); {
		r, size := utf8.DecodeRune(t[i:])
		i += size
		w.push(r, i)
		if w.mins[len(w.mins)-1] > w.max {
			if r == utf8.RuneError {
				return false, 0, nil // t is out of reach, the terms after it maybe not
			}
			// The leap keeps the bytes before r, which decide their runes
			// only up to a valid rune.
			start, d := i-size, len(w.runes)
			if start > 0 && w.runes[d-2] == utf8.RuneError {
				return false, i, nil
			}
			switch c, found, safe := w.nextRune(r); {
			case !safe:
				return false, i, nil
			case found:
				w.to = utf8.AppendRune(append(w.to[:0], t[:start]...), c)
				return false, 0, w.to
			case start > 0:
				return false, start, nil
			}
			return false, i, nil
		}
	}
	// The last entry is computed only within the band.
	n = len(w.rows) - 1
	return n-len(w.q) <= w.max && len(w.q)-n <= w.max && w.rows[n][len(w.q)] <= w.max, 0, nil
}

// nextRune returns the least rune above r that may keep the term within
// max in place of r, the rune that the last row, past max, was pushed
// for: q[j-1] for an entry j of the row's band, which the diagonal from
// the row before matches. (A transposition matches q[j-2]: the diagonal's
// rune of entry j-1, also in the band, but for the band's first entry j,
// whose transposition reads an entry two rows up that is max off its
// diagonal, so at least max, and past max once the edit is added.) found
// is false when none is above r; safe is false when one of them is
// U+FFFD, which bytes that are not UTF-8 decode to wherever they sort, so
// that no rune is leapt to.
func (w *fuzzyWalk) nextRune(r rune) (c rune, found, safe bool) {
	d := len(w.rows) - 1
	lo, hi := max(1, d-w.max), min(len(w.q), d+w.max)
	for _, x := range w.q[min(lo-1, hi):hi] {
		if x == utf8.RuneError {
			return 0, false, false
		}
		if x > r && (!found || x < c) {
			c, found = x, true
		}
	}
	return c, found, true
}

// push adds the row of the term's next rune r, which ends at byte end.
// Only the band of the row within max of its diagonal is computed: an
// entry j of row i is at least |i-j|, so the entries outside it exceed
// max, and those next to it, which the next row reads, are set to max+1.
// Cost: O(max) rather than O(len(q)).
func (w *fuzzyWalk) push(r rune, end int) {
	k := len(w.rows) - 1
	var row []int
	if k+1 < cap(w.rows) {
		row = w.rows[:k+2][k+1] // nil past the rows ever made
	}
	if row == nil {
		row = make([]int, len(w.q)+1)
	}
	prev := w.rows[k]
	i := k + 1
	row[0] = i
	lo, hi := max(1, i-w.max), min(len(w.q), i+w.max)
	least := w.max + 1
	if i <= w.max {
		least = i
	}
	if lo > 1 && lo-1 <= len(w.q) { // past it, the band is empty and the row refused
		row[lo-1] = w.max + 1
	}
	for j := lo; j <= hi; j++ {
		cost := 1
		if w.q[j-1] == r {
			cost = 0
		}
		v := min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
		if k > 0 && j > 1 && r == w.q[j-2] && w.runes[k-1] == w.q[j-1] {
			v = min(v, w.rows[k-1][j-2]+1)
		}
		row[j] = v
		least = min(least, v)
	}
	if hi < len(w.q) {
		row[hi+1] = w.max + 1
	}
	w.runes = append(w.runes, r)
	w.ends = append(w.ends, end)
	w.rows = append(w.rows, row)
	w.mins = append(w.mins, least)
}
