package index

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/edits"
	"github.com/twindex/twindex/index/internal/rank"
)

// MaxExpansions bounds the indexed terms one prefix or one fuzzy word
// stands for: a prefix reads its most frequent MaxExpansions terms, a
// fuzzy word its nearest (then most frequent) ones, so "a*" on a large
// index costs one pass over the dictionary's "a" range and at most this
// many posting lists.
const MaxExpansions = 32

// fuzzyExpansions bounds the indexed terms a fuzzy word stands for: the
// nearest and most frequent few, as each costs a posting list.
const fuzzyExpansions = 16

// expansion is an indexed term and how many documents hold it.
type expansion struct {
	term  string
	word  string // the word as written that matched, when fieldWords gave it
	count uint64
	dist  int // edits from the fuzzy word; 0 for a prefix
}

// expandPrefix returns the most frequent indexed terms of the text fields
// that start with any of prefixes, or whose words as written do
// (fieldWords: "configurat" completes to "configuration", whose term is
// "configur"), up to n.
func (s *search) expandPrefix(prefixes []string, n int) ([]string, error) {
	counts, local, err := s.prefixCounts(prefixes)
	if err != nil {
		return nil, err
	}
	found := map[string]uint64{}
	var ws []expansion
	for t, c := range counts {
		if c[0] > 0 || c[1] > 0 {
			found[t] = max(c[0], c[1])
		}
		if c[2] > 0 {
			ws = append(ws, expansion{term: t, count: c[2]})
		}
	}
	// Only the most frequent words are worth their terms: an analysis each.
	for _, w := range best(ws, n) {
		if t, ok := s.ix.textA.Term(w.term); ok {
			found[t] = max(found[t], w.count)
		}
	}
	out := make([]expansion, 0, len(found))
	for t, c := range found {
		out = append(out, expansion{term: t, count: c})
	}
	if local {
		s.rec.taint()
	}
	return terms(best(out, n)), nil
}

// prefixFields are the dictionaries a prefix reads, in the order of
// prefixCounts' counts: the title's and the body's terms, and the words
// as written of fieldWords.
var prefixFields = [3]string{fieldTitle, fieldBody, fieldWords}

// prefixCounts returns the dictionary entries of prefixFields that start
// with any of prefixes, with their true counts in each (a term and a
// word as written may be spelled alike; each dictionary counts its own):
// from the collection's statistics on a shard that has them, else from
// this index (local reports that, on a shard gathering them).
func (s *search) prefixCounts(prefixes []string) (counts map[string][3]uint64, local bool, err error) {
	key := strings.Join(prefixes, "\x00")
	if c, ok := s.g.prefix(key); ok {
		return c, false, nil
	}
	if err := s.missing("prefixes %q", prefixes); err != nil {
		return nil, false, err
	}
	if err := s.probeDicts(); err != nil {
		return nil, false, err
	}
	counts = map[string][3]uint64{}
	for i, p := range prefixes {
		// A prefix that another one starts with adds nothing to its range.
		if p == "" || slices.ContainsFunc(prefixes[:i], func(o string) bool { return strings.HasPrefix(p, o) }) ||
			slices.ContainsFunc(prefixes[i+1:], func(o string) bool { return o != p && strings.HasPrefix(p, o) }) {
			continue
		}
		for fi, f := range prefixFields {
			fc := map[string]uint64{}
			ok, err := backend.PrefixCounts(s.textR, f, []byte(p), func(t string, n uint64) { fc[t] += n })
			if err != nil {
				return nil, false, err
			}
			if !ok {
				d, err := s.textR.FieldDictPrefix(f, []byte(p))
				if err != nil {
					return nil, false, err
				}
				if err := drain(d, func(e *bleveindex.DictEntry) { fc[e.Term] = e.Count }); err != nil {
					return nil, false, err
				}
			}
			for t, n := range fc {
				c := counts[t]
				c[fi] = max(c[fi], n)
				counts[t] = c
			}
		}
	}
	s.rec.putPrefix(key, counts)
	return counts, s.rec != nil, nil
}

// expandFuzzy returns the indexed terms whose words are within dist edits
// of word, a query word as written (folded), nearest first, then most
// frequent, up to fuzzyExpansions; own, the word's term, is left out.
// Words are compared as written, so that a typo where the stemmer cuts
// ("configuraton") is found: those of fieldWords, which stemming changed,
// stand for their terms, and the text fields' terms are the other words
// as written. A word two edits away must keep the first character: a
// Levenshtein automaton of distance 2 walks much of the dictionary unless
// anchored, while typos rarely hit the first letter (one that does is
// still found at one edit). Scorch finds the words with automata; other
// backends by a pass over each dictionary.
//
// A term's count is its documents' in the larger text field, from its
// posting lists (scorch's dictionaries may count wrong: see
// backend.PrefixCounts), and the collection's on a shard: its statistics
// then name the words near (Global.Fuzzy) and the terms' counts
// (Global.Terms), which a shard gathers once every shard has the same
// words near to count.
func (s *search) expandFuzzy(word, own string, dist int) ([]expansion, error) {
	if dist <= 0 || word == "" {
		return nil, nil
	}
	dist = min(dist, int(MaxFuzzy))
	fields, local, err := s.fuzzyCounts(word, own, dist)
	if err != nil {
		return nil, err
	}
	found := map[string]expansion{}
	add := func(fi int, w string, d int) {
		x := expansion{term: w, dist: d}
		if fuzzyFields[fi] == fieldWords {
			t, ok := s.ix.textA.Term(w)
			if !ok {
				return
			}
			x.term, x.word = t, w
		}
		if x.term == own {
			return
		}
		// Of the words of one term, the nearest speaks for it (then the
		// first in order, for the same choice on every shard).
		if y, ok := found[x.term]; ok && (y.dist < x.dist || y.dist == x.dist && y.word <= x.word) {
			return
		}
		found[x.term] = x
	}
	// The body's dictionary and the words' hold nearly every word; the
	// title's is read only when they have nothing near.
	for fi, f := range fields {
		if fuzzyFields[fi] == fieldTitle && len(found) > 0 {
			break
		}
		for _, w := range slices.Sorted(maps.Keys(f)) {
			add(fi, w, f[w])
		}
	}
	out := make([]expansion, 0, len(found))
	for _, e := range found {
		var c [3]uint64
		if local {
			// Other shards found other words: this pass's counts are
			// not the collection's and are not recorded.
			c, err = s.localTermDocs(e.term)
		} else {
			if _, ok := s.g.term(e.term); !ok {
				s.rec.taint()
			}
			c, err = s.termDocs(e.term)
		}
		if err != nil {
			return nil, err
		}
		e.count = max(c[rank.Title], c[rank.Body]) // as docFreq counts
		out = append(out, e)
	}
	if local {
		s.rec.taint()
	}
	return best(out, fuzzyExpansions), nil
}

// fuzzyFields are the dictionaries a fuzzy word is compared with, in the
// order of fuzzyCounts' maps: the body's terms, the words as written of
// fieldWords, and the title's terms.
var fuzzyFields = [3]string{fieldBody, fieldWords, fieldTitle}

// fuzzyCounts returns the entries of fuzzyFields' dictionaries within
// dist edits of word (word itself left out), each with its distance: from
// the collection's statistics on a shard that has them, else from this
// index (local reports that, on a shard gathering them). The title's are
// read only when the others hold nothing but word's term, own, unless
// the shard is gathering (the collection's may hold nothing).
func (s *search) fuzzyCounts(word, own string, dist int) (fields [3]map[string]int, local bool, err error) {
	key := word + "\x00" + strconv.Itoa(dist)
	if f, ok := s.g.fuzzy(key); ok {
		return f, false, nil
	}
	if err := s.missing("fuzzy %q", word); err != nil {
		return fields, false, err
	}
	if err := s.probeDicts(); err != nil {
		return fields, false, err
	}
	q := []rune(word)
	first := string(q[:1])
	other := false // an entry other than own was found
	for fi, f := range fuzzyFields {
		found := map[string]int{}
		fields[fi] = found
		if f == fieldTitle && other && s.rec == nil {
			break
		}
		add := func(e *bleveindex.DictEntry) {
			if e.Term == word {
				return
			}
			d := edits.Distance(q, e.Term, dist)
			if d > dist || (d > 1 && !strings.HasPrefix(e.Term, first)) {
				return
			}
			found[e.Term] = d
			if !other && f == fieldWords {
				t, ok := s.ix.textA.Term(e.Term)
				other = ok && t != own
			} else {
				other = other || e.Term != own
			}
		}
		fz, ok := s.textR.(bleveindex.IndexReaderFuzzy)
		if !ok {
			d, err := s.textR.FieldDict(f)
			if err != nil {
				return fields, false, err
			}
			if err := drain(d, add); err != nil {
				return fields, false, err
			}
			continue
		}
		for d := 1; d <= dist; d++ {
			var prefix string
			if d > 1 {
				prefix = first
			}
			fd, err := fz.FieldDictFuzzy(f, word, d, prefix)
			if err != nil {
				return fields, false, err
			}
			if err := drain(fd, add); err != nil {
				return fields, false, err
			}
		}
	}
	s.rec.putFuzzy(key, fields)
	return fields, s.rec != nil, nil
}

// probeDicts decodes the text fields' dictionaries of every segment once,
// in this goroutine, before the first FieldDict call of a search: scorch
// decodes them for FieldDict in goroutines of its own, where a damaged
// segment's panic would kill the process instead of reaching guard.
func (s *search) probeDicts() error {
	if s.probed {
		return nil
	}
	for _, f := range []string{fieldTitle, fieldBody, fieldWords} {
		r, err := s.textR.TermFieldReader(s.ctx, nil, f, false, false, false)
		if err != nil {
			return err
		}
		r.Close()
	}
	s.probed = true
	return nil
}

// best sorts expansions nearest first, then most frequent, then by term,
// and keeps the first n.
func best(es []expansion, n int) []expansion {
	slices.SortFunc(es, func(a, b expansion) int {
		if c := cmp.Compare(a.dist, b.dist); c != 0 {
			return c
		}
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	})
	return es[:min(len(es), n)]
}

func terms(es []expansion) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.term
	}
	return out
}

func drain(d bleveindex.FieldDict, fn func(*bleveindex.DictEntry)) error {
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
