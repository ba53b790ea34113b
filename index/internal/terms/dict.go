package terms

import (
	"context"
	"maps"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/edits"
)

// Dicts are the dictionaries of a text index that query words expand
// against: the title's and the body's terms, and Words, the words as
// written that analysis changed (stemmed), each standing for its term.
type Dicts struct {
	R                  bleveindex.IndexReader
	Title, Body, Words string // the fields
	// Term analyzes a word as written into its indexed term; false when
	// the analyzer keeps none.
	Term func(word string) (string, bool)
	// Counts, when set, calls fn with each entry of field that starts with
	// prefix and its true count, and reports true; false has the
	// dictionary's own counts read (scorch's may be wrong, so the engine
	// counts its segments itself).
	Counts func(r bleveindex.IndexReader, field string, prefix []byte, fn func(term string, count uint64)) (bool, error)
	// Fuzzy, when set, returns a walk of r's dictionaries, or nil to have
	// r's FieldDictFuzzy walked: Near asks it once per call, so that the
	// walk can build each automaton once for all three fields.
	Fuzzy func(r bleveindex.IndexReader) FuzzyWalk
}

// FuzzyWalk calls fn with each term of field within dist edits of word
// (in runes, a transposition one edit) that starts with prefix; a term
// may come more than once.
type FuzzyWalk func(field, word string, dist int, prefix string, fn func(term string)) error

// Prefixed returns the entries of the title's, the body's and the words'
// dictionaries (in that order) that start with any of prefixes (an empty
// one is none), with their count in each: a term and a word as written
// may be spelled alike, and each dictionary counts its own. Cost: one
// pass over each prefix's range of each dictionary; a prefix that
// another one starts with adds nothing to its range and is not walked.
func (d Dicts) Prefixed(prefixes []string) (map[string][3]uint64, error) {
	counts := map[string][3]uint64{}
	for i, p := range prefixes {
		if p == "" || slices.ContainsFunc(prefixes[:i], func(o string) bool { return o != "" && strings.HasPrefix(p, o) }) ||
			slices.ContainsFunc(prefixes[i+1:], func(o string) bool { return o != "" && o != p && strings.HasPrefix(p, o) }) {
			continue
		}
		// No term is in two prefixes' ranges (one that extends another
		// is not walked), so counts are summed straight in: Counts may
		// give a term once per segment.
		for fi, f := range [3]string{d.Title, d.Body, d.Words} {
			add := func(t string, n uint64) {
				c := counts[t]
				c[fi] += n
				counts[t] = c
			}
			ok := false
			if d.Counts != nil {
				var err error
				if ok, err = d.Counts(d.R, f, []byte(p), add); err != nil {
					return nil, err
				}
			}
			if !ok {
				dict, err := d.R.FieldDictPrefix(f, []byte(p))
				if err != nil {
					return nil, err
				}
				if err := Drain(dict, func(e *bleveindex.DictEntry) { add(e.Term, e.Count) }); err != nil {
					return nil, err
				}
			}
		}
	}
	return counts, nil
}

// Completions returns the n most frequent terms of counts (as Prefixed
// gives them). Only the most frequent words as written are analyzed into
// the terms they stand for, as each costs an analysis.
func (d Dicts) Completions(counts map[string][3]uint64, n int) []string {
	found := map[string]uint64{}
	var ws []Expansion
	for t, c := range counts {
		if c[0] > 0 || c[1] > 0 {
			found[t] = max(c[0], c[1])
		}
		if c[2] > 0 {
			ws = append(ws, Expansion{Term: t, Count: c[2]})
		}
	}
	for _, w := range Best(ws, n) {
		if t, ok := d.Term(w.Term); ok {
			found[t] = max(found[t], w.Count)
		}
	}
	out := make([]Expansion, 0, len(found))
	for t, c := range found {
		out = append(out, Expansion{Term: t, Count: c})
	}
	return Terms(Best(out, n))
}

// Near returns the entries of the body's, the words' and the title's
// dictionaries (in that order) within dist edits of word (word itself
// left out), each with its distance. An entry two edits away must keep
// word's first character: a Levenshtein automaton of distance 2 walks
// much of a dictionary unless anchored, while typos rarely hit the first
// letter (one that does is still found at one edit). A reader that
// Fuzzy gives a walk of (scorch's) is walked with it, one that implements
// bleveindex.IndexReaderFuzzy with automata, another by a pass over each
// dictionary.
//
// The title's dictionary is read only when the others hold nothing but
// own, word's term, or with gathering: a shard gathering the collection's
// statistics records it, as the collection's may hold nothing. word must
// not be empty.
func (d Dicts) Near(word, own string, dist int, gathering bool) (fields [3]map[string]int, err error) {
	return d.near(word, own, dist, gathering, false)
}

// Closest is Near for Nearest's first term alone, as did-you-mean takes
// it: the body's and the words' dictionaries are walked one distance at a
// time, and the walk ends at the first distance at which they hold
// something other than own (their entries farther away could not come
// first); the title's is walked as Near walks it. The best of its
// Nearest, counted (Best: the nearest, then the most frequent), is the
// best of Near's. Cost: Near's up to the distance found; the walk of two
// edits, which reads much of a dictionary, only when one edit finds
// nothing.
func (d Dicts) Closest(word, own string, dist int) (fields [3]map[string]int, err error) {
	return d.near(word, own, dist, false, true)
}

// near is Near, or with closest Closest.
func (d Dicts) near(word, own string, dist int, gathering, closest bool) (fields [3]map[string]int, err error) {
	dist = max(dist, 0)
	q := []rune(word)
	first := string(q[:1])
	other := false // an entry other than own was found
	var walk FuzzyWalk
	if d.Fuzzy != nil {
		walk = d.Fuzzy(d.R)
	}
	names := [3]string{d.Body, d.Words, d.Title}
	fz, fuzzy := d.R.(bleveindex.IndexReaderFuzzy)
	// at walks field fi for its entries n edits away, or all within dist
	// by a pass over its dictionary (n 0).
	at := func(fi, n int) error {
		f := names[fi]
		found := fields[fi]
		add := func(term string) {
			if term == word {
				return
			}
			n := edits.Distance(q, term, dist)
			if n > dist || (n > 1 && !strings.HasPrefix(term, first)) {
				return
			}
			found[term] = n
			if !other && f == d.Words {
				t, ok := d.Term(term)
				other = ok && t != own
			} else {
				other = other || term != own
			}
		}
		addEntry := func(e *bleveindex.DictEntry) { add(e.Term) }
		if n == 0 {
			dict, err := d.R.FieldDict(f)
			if err != nil {
				return err
			}
			return Drain(dict, addEntry)
		}
		var prefix string
		if n > 1 {
			prefix = first
		}
		if walk != nil {
			return walk(f, word, n, prefix, add)
		}
		dict, err := fz.FieldDictFuzzy(f, word, n, prefix)
		if err != nil {
			return err
		}
		return Drain(dict, addEntry)
	}
	// The distances to walk: each automaton's, or 0 for one pass over a
	// dictionary. Closest stops at the first that finds another word.
	dists := []int{0}
	if walk != nil || fuzzy {
		dists = make([]int, dist)
		for i := range dists {
			dists[i] = i + 1
		}
	}
	for fi := range fields {
		fields[fi] = map[string]int{}
	}
	for _, n := range dists {
		for fi := range 2 {
			if err := at(fi, n); err != nil {
				return fields, err
			}
		}
		if closest && other {
			break
		}
	}
	if other && !gathering {
		return fields, nil
	}
	for _, n := range dists {
		if err := at(2, n); err != nil {
			return fields, err
		}
	}
	return fields, nil
}

// Nearest returns the terms that fields (as Near gives them) stand for,
// own left out, in term order and without counts: a word of the words'
// dictionary stands for its term, the nearest word speaking for a term
// (then the first in order, for the same choice on every shard). The
// title's entries count only when the others give nothing.
func (d Dicts) Nearest(fields [3]map[string]int, own string) []Expansion {
	found := map[string]Expansion{}
	add := func(fi int, w string, n int) {
		x := Expansion{Term: w, Dist: n}
		if fi == 1 {
			t, ok := d.Term(w)
			if !ok {
				return
			}
			x.Term, x.Word = t, w
		}
		if x.Term == own {
			return
		}
		if y, ok := found[x.Term]; ok && (y.Dist < x.Dist || y.Dist == x.Dist && y.Word <= x.Word) {
			return
		}
		found[x.Term] = x
	}
	for fi, f := range fields {
		if fi == 2 && len(found) > 0 {
			break
		}
		for _, w := range slices.Sorted(maps.Keys(f)) {
			add(fi, w, f[w])
		}
	}
	out := make([]Expansion, 0, len(found))
	for _, t := range slices.Sorted(maps.Keys(found)) {
		out = append(out, found[t])
	}
	return out
}

// FirstHolder returns the smallest ID of the documents holding term in
// field, or "": the same documents give the same one on every backend
// and after every rebuild, whatever order an index keeps them in. Cost:
// the IDs of every document holding term; ctx is checked every 256.
func (d Dicts) FirstHolder(ctx context.Context, term, field string) (string, error) {
	r, err := d.R.TermFieldReader(ctx, []byte(term), field, false, false, false)
	if err != nil {
		return "", err
	}
	defer r.Close()
	first := ""
	var tfd bleveindex.TermFieldDoc
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return "", err
			}
		}
		doc, err := r.Next(tfd.Reset())
		if err != nil || doc == nil {
			return first, err
		}
		id, err := d.R.ExternalID(doc.ID)
		if err != nil {
			return "", err
		}
		if first == "" || id < first {
			first = id
		}
	}
}

// Drain calls fn with each entry of d and closes it.
func Drain(d bleveindex.FieldDict, fn func(*bleveindex.DictEntry)) error {
	defer d.Close()
	for {
		e, err := d.Next()
		if err != nil {
			return err
		}
		if e == nil {
			return nil
		}
		fn(e)
	}
}
