package terms_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/terms"
)

// reader serves dictionaries from maps of term to count; what a walk
// must not call is left to the nil IndexReader, which panics.
type reader struct {
	bleveindex.IndexReader
	fields map[string]map[string]uint64
}

func (r reader) FieldDict(field string) (bleveindex.FieldDict, error) {
	return r.FieldDictPrefix(field, nil)
}

func (r reader) FieldDictPrefix(field string, prefix []byte) (bleveindex.FieldDict, error) {
	d := &dict{}
	for _, t := range slices.Sorted(maps.Keys(r.fields[field])) {
		if strings.HasPrefix(t, string(prefix)) {
			d.entries = append(d.entries, &bleveindex.DictEntry{Term: t, Count: r.fields[field][t]})
		}
	}
	return d, nil
}

type dict struct{ entries []*bleveindex.DictEntry }

func (d *dict) Next() (*bleveindex.DictEntry, error) {
	if len(d.entries) == 0 {
		return nil, nil
	}
	e := d.entries[0]
	d.entries = d.entries[1:]
	return e, nil
}
func (d *dict) Close() error      { return nil }
func (d *dict) Cardinality() int  { return len(d.entries) }
func (d *dict) BytesRead() uint64 { return 0 }

// stems stands for an analyzer: words ending in "ion" or "ing" lose it.
func stems(w string) (string, bool) {
	for _, s := range []string{"ion", "ing"} {
		if t, ok := strings.CutSuffix(w, s); ok {
			return t, true
		}
	}
	return w, true
}

func dicts(fields map[string]map[string]uint64) terms.Dicts {
	return terms.Dicts{R: reader{fields: fields}, Title: "title", Body: "body", Words: "words", Term: stems}
}

func TestBest(t *testing.T) {
	es := []terms.Expansion{
		{Term: "b", Count: 5, Dist: 1},
		{Term: "a", Count: 5, Dist: 1},
		{Term: "c", Count: 9, Dist: 2},
		{Term: "d", Count: 7, Dist: 1},
	}
	if got, want := terms.Terms(terms.Best(es, 3)), []string{"d", "a", "b"}; !slices.Equal(got, want) {
		t.Errorf("Best = %q, want %q", got, want)
	}
}

// Best is the first n of a full sort, whatever the order, sizes and n.
func TestBestIsSortsPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for range 500 {
		es := make([]terms.Expansion, r.IntN(80))
		for i := range es {
			es[i] = terms.Expansion{Term: fmt.Sprint("t", r.IntN(40), "-", i), Count: uint64(r.IntN(6)), Dist: r.IntN(3)}
		}
		n := r.IntN(40) - 2
		sorted := slices.Clone(es)
		slices.SortFunc(sorted, func(a, b terms.Expansion) int {
			if a.Dist != b.Dist {
				return a.Dist - b.Dist
			}
			if a.Count != b.Count {
				return cmp.Compare(b.Count, a.Count)
			}
			return strings.Compare(a.Term, b.Term)
		})
		want := sorted[:max(0, min(n, len(sorted)))]
		if got := terms.Best(es, n); !slices.Equal(got, want) {
			t.Fatalf("Best(%d of %d) = %v, want %v", n, len(es), got, want)
		}
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name      string
		fuzzy     []terms.Expansion
		more      []string
		near, far []string
	}{
		{"nothing", nil, nil, nil, nil},
		{"by distance", []terms.Expansion{{Term: "a", Dist: 1}, {Term: "b", Dist: 2}}, nil, []string{"a"}, []string{"b"}},
		{"completions once, own left out", []terms.Expansion{{Term: "a", Dist: 1}, {Term: "b", Dist: 2}}, []string{"own", "b", "c", "a"}, []string{"a", "c"}, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			near, far := terms.Split(tt.fuzzy, tt.more, "own")
			if !slices.Equal(near, tt.near) || !slices.Equal(far, tt.far) {
				t.Errorf("Split = %q, %q, want %q, %q", near, far, tt.near, tt.far)
			}
		})
	}
}

func TestKnown(t *testing.T) {
	tests := []struct {
		name string
		n    uint64
		docs float64
		want bool
	}{
		{"few in a small index", 2, 100, false},
		{"three in a small index", 3, 100, true},
		{"three in a large one", 3, 10000, false},
		{"one in a thousand", 10, 10000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := terms.Known(tt.n, tt.docs); got != tt.want {
				t.Errorf("Known(%d, %g) = %v", tt.n, tt.docs, got)
			}
		})
	}
}

func TestLastWord(t *testing.T) {
	tests := []struct {
		text, word string
		end        int
	}{
		{"the", "the", 3},
		{"get the ", "the", 7},
		{"a.b()", "b", 3},
		{"  ", "", 0},
		{"", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if w, end := terms.LastWord(tt.text); w != tt.word || end != tt.end {
				t.Errorf("LastWord(%q) = %q, %d, want %q, %d", tt.text, w, end, tt.word, tt.end)
			}
		})
	}
}

func TestPrefixed(t *testing.T) {
	d := dicts(map[string]map[string]uint64{
		"title": {"config": 1, "cat": 4},
		"body":  {"config": 3, "configur": 2, "dog": 1},
		"words": {"configuration": 2},
	})
	got, err := d.Prefixed([]string{"conf", "con", "con"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]uint64{"config": {1, 3, 0}, "configur": {0, 2, 0}, "configuration": {0, 0, 2}}
	if !maps.Equal(got, want) {
		t.Errorf("Prefixed = %v, want %v", got, want)
	}
	if c, want := d.Completions(got, 2), []string{"config", "configur"}; !slices.Equal(c, want) {
		t.Errorf("Completions = %q, want %q", c, want)
	}
}

// Prefixed counts each term that starts with some prefix once per
// dictionary, whatever prefixes extend or repeat others, over random
// dictionaries.
func TestPrefixedRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	letters := "abc"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	for range 300 {
		fields := map[string]map[string]uint64{"title": {}, "body": {}, "words": {}}
		for _, f := range fields {
			for range r.IntN(15) {
				f[word(1+r.IntN(4))] = uint64(1 + r.IntN(9))
			}
		}
		var prefixes []string
		for range r.IntN(4) {
			prefixes = append(prefixes, word(r.IntN(3)))
		}
		want := map[string][3]uint64{}
		for fi, name := range []string{"title", "body", "words"} {
			for term, n := range fields[name] {
				if slices.ContainsFunc(prefixes, func(p string) bool { return p != "" && strings.HasPrefix(term, p) }) {
					c := want[term]
					c[fi] += n
					want[term] = c
				}
			}
		}
		got, err := dicts(fields).Prefixed(prefixes)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("Prefixed(%q) over %v = %v, want %v", prefixes, fields, got, want)
		}
	}
}

func TestNear(t *testing.T) {
	fields := map[string]map[string]uint64{
		"title": {"configuratons": 1},
		// konfiguratin is two edits away and misses the first letter.
		"body":  {"configuraion": 1, "xonfiguraton": 1, "configurat": 1, "konfiguratin": 1, "configuraton": 1},
		"words": {"configuration": 2},
	}
	tests := []struct {
		name      string
		fields    map[string]map[string]uint64
		own       string
		gathering bool
		want      [3]map[string]int
	}{
		{"title skipped", fields, "other", false, [3]map[string]int{{"configuraion": 1, "xonfiguraton": 1, "configurat": 2}, {"configuration": 1}, {}}},
		{"title read when gathering", fields, "other", true, [3]map[string]int{{"configuraion": 1, "xonfiguraton": 1, "configurat": 2}, {"configuration": 1}, {"configuratons": 1}}},
		{"title read when only own is near", map[string]map[string]uint64{
			"title": {"configuratons": 1},
			"body":  {"configurat": 1},
			"words": {"configuration": 1},
		}, "configurat", false, [3]map[string]int{{"configurat": 2}, {"configuration": 1}, {"configuratons": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dicts(tt.fields).Near("configuraton", tt.own, 2, tt.gathering)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if !maps.Equal(got[i], tt.want[i]) {
					t.Errorf("Near field %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestNearest(t *testing.T) {
	d := dicts(nil)
	tests := []struct {
		name   string
		fields [3]map[string]int
		want   []terms.Expansion
	}{
		{"own left out, title unread", [3]map[string]int{{"configure": 1, "own": 1}, {"configuration": 2}, {"title": 1}},
			[]terms.Expansion{{Term: "configurat", Word: "configuration", Dist: 2}, {Term: "configure", Dist: 1}}},
		{"nearest word speaks for its term", [3]map[string]int{nil, {"configing": 2, "configion": 1}, nil},
			[]terms.Expansion{{Term: "config", Word: "configion", Dist: 1}}},
		{"first word on a tie", [3]map[string]int{nil, {"configing": 1, "configion": 1}, nil},
			[]terms.Expansion{{Term: "config", Word: "configing", Dist: 1}}},
		{"title when nothing else", [3]map[string]int{{"own": 1}, nil, {"title": 2}},
			[]terms.Expansion{{Term: "title", Dist: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.Nearest(tt.fields, "own"); !slices.Equal(got, tt.want) {
				t.Errorf("Nearest = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFirstHolderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := terms.Dicts{R: holders{}}
	if _, err := d.FirstHolder(ctx, "t", "body"); err != context.Canceled {
		t.Errorf("FirstHolder = %v, want %v", err, context.Canceled)
	}
}

// holders is a reader whose every term has one posting list, never read.
type holders struct{ bleveindex.IndexReader }

func (holders) TermFieldReader(context.Context, []byte, string, bool, bool, bool) (bleveindex.TermFieldReader, error) {
	return postings{}, nil
}

type postings struct{ bleveindex.TermFieldReader }

func (postings) Close() error { return nil }

func ExampleRespell() {
	q := "getUserByld confguration"
	fmt.Println(terms.Respell(q, []terms.Edit{
		{Start: 0, End: 11, Word: "getuserbyid"},
		{Start: 7, End: 11, Word: "id"}, // a part of the compound, replaced whole
		{Start: 12, End: 24, Word: "configuration"},
	}))
	fmt.Printf("%q\n", terms.Respell(q, nil))
	// Output:
	// getuserbyid configuration
	// ""
}

func ExampleBest() {
	es := []terms.Expansion{{Term: "reade", Count: 2, Dist: 1}, {Term: "reader", Count: 9, Dist: 1}, {Term: "read", Count: 40, Dist: 2}}
	fmt.Println(terms.Terms(terms.Best(es, 2)))
	// Output: [reader reade]
}

// BenchmarkBest keeps the 32 best of 400 completions, as a prefix of a
// few letters gives them.
func BenchmarkBest(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	es := make([]terms.Expansion, 400)
	for i := range es {
		es[i] = terms.Expansion{Term: fmt.Sprint("term", i), Count: uint64(r.IntN(1000))}
	}
	work := make([]terms.Expansion, len(es))
	for b.Loop() {
		copy(work, es)
		terms.Best(work, 32)
	}
}

// TestClosest checks Closest with a walk of the dictionaries (as scorch's
// readers give one): it walks the body's and the words' dictionaries at
// one edit, and at two only when one gives nothing but own; the title's
// only when neither does; and what it finds is Near's within the
// distance it stopped at.
func TestClosest(t *testing.T) {
	fields := map[string]map[string]uint64{
		"title": {"configuratin": 1, "configur": 1},
		"body":  {"configurat": 1, "configuratns": 1, "other": 1},
		"words": {"configurations": 1},
	}
	tests := []struct {
		name, word, own string
		walked          []string // field and distance of each walk
		want            [3]map[string]int
	}{
		{"one edit", "configuratn", "configurat", []string{"body 1", "words 1"},
			[3]map[string]int{{"configurat": 1, "configuratns": 1}, {}, {}}},
		{"two edits", "configuratonss", "configurat", []string{"body 1", "words 1", "body 2", "words 2"},
			[3]map[string]int{{"configuratns": 2}, {"configurations": 2}, {}}},
		{"only own near: the title's", "configura", "configurat", []string{"body 1", "words 1", "body 2", "words 2", "title 1", "title 2"},
			[3]map[string]int{{"configurat": 1}, {}, {"configur": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var walked []string
			d := dicts(fields)
			d.Fuzzy = func(bleveindex.IndexReader) terms.FuzzyWalk {
				return func(field, word string, dist int, prefix string, fn func(string)) error {
					walked = append(walked, fmt.Sprint(field, " ", dist))
					for term := range fields[field] {
						if strings.HasPrefix(term, prefix) && levenshtein(word, term) <= dist {
							fn(term)
						}
					}
					return nil
				}
			}
			got, err := d.Closest(tt.word, tt.own, 2)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(walked, tt.walked) {
				t.Errorf("walked %v, want %v", walked, tt.walked)
			}
			for i := range got {
				if !maps.Equal(got[i], tt.want[i]) {
					t.Errorf("Closest field %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// levenshtein is the edit distance of a and b (bytes; no
// transpositions), for the test's walk.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
