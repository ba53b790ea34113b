package compact_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
	"github.com/twindex/twindex/index/internal/edits"
)

// TestFuzzyWalk compares FieldDictFuzzy, whose walk keeps rows of the
// distance from term to term and skips the terms after a prefix too far
// away, with the distance of each live term computed alone, over random
// dictionaries in several segments, with deleted documents, of terms
// made of one- to three-byte runes, bytes that are not UTF-8 (lone lead
// and continuation bytes, 0xff, whose skip has no next prefix) and
// U+FFFD itself; some terms and queries long enough that the walk's rows
// are computed only in their band around the diagonal.
func TestFuzzyWalk(t *testing.T) {
	pieces := []string{"a", "b", "c", "ab", "é", "日", "本", "\ufffd", "\xe2", "\x82", "\xe2\x82", "\xff", "\xff\xff", "z"}
	word := func(r *rand.Rand, max int) string {
		var b strings.Builder
		for range r.IntN(max + 1) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	cases, differ := 0, 0
	for round := range 40 {
		r := rand.New(rand.NewPCG(uint64(round), 17))
		x := compact.New(nil)
		live := map[string]map[string]int{} // document -> its terms
		for range 1 + r.IntN(4) {           // a segment per batch
			b := bleveindex.NewBatch()
			for range 1 + r.IntN(30) {
				id := fmt.Sprintf("d%02d", r.IntN(60))
				if r.IntN(5) == 0 {
					b.Delete(id)
					delete(live, id)
					continue
				}
				terms := map[string]int{}
				for range 1 + r.IntN(5) {
					terms[word(r, 4+4*r.IntN(2))]++
				}
				b.Update(&doc{id: id, fields: []bleveindex.Field{&field{name: "body", terms: terms, length: len(terms)}}})
				live[id] = terms
			}
			if err := x.Batch(b); err != nil {
				t.Fatal(err)
			}
		}
		all := map[string]bool{}
		for _, terms := range live {
			for term := range terms {
				all[term] = true
			}
		}
		rd, err := x.Reader()
		if err != nil {
			t.Fatal(err)
		}
		fz := rd.(bleveindex.IndexReaderFuzzy)
		for range 60 {
			q := word(r, 5+5*r.IntN(2))
			dist := r.IntN(3)
			prefix := ""
			switch r.IntN(4) {
			case 1:
				prefix = q[:min(1, len(q))]
			case 2:
				prefix = string([]rune(q)[:min(1, len([]rune(q)))])
			case 3:
				prefix = word(r, 1)
			}
			want := map[string]bool{}
			for term := range all {
				if strings.HasPrefix(term, prefix) && edits.Distance([]rune(q), term, dist) <= dist {
					want[term] = true
				}
			}
			d, err := fz.FieldDictFuzzy("body", q, dist, prefix)
			got := drainDict(t, "body", d, err)
			cases++
			if !maps.EqualFunc(got, want, func(uint64, bool) bool { return true }) {
				differ++
				if differ <= 5 {
					t.Errorf("round %d: FieldDictFuzzy(%q, %d, prefix %q) = %q, want %q",
						round, q, dist, prefix, slices.Collect(maps.Keys(got)), slices.Collect(maps.Keys(want)))
				}
			}
		}
	}
	if differ > 0 {
		t.Fatalf("%d of %d walks differ", differ, cases)
	}
}

// BenchmarkFieldDictFuzzy walks a dictionary of 20,000 identifier-like
// terms for the words near a query as the fallback's fuzzy pass does
// (terms.Dicts.Near) for each word of a search that finds too few
// documents: one edit away, then two under the word's first letter; a
// long identifier being typed, and a short word.
func BenchmarkFieldDictFuzzy(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	parts := []string{"read", "write", "new", "file", "buffer", "string", "to", "from", "quote", "rune",
		"graphic", "marshal", "text", "level", "var", "scanner", "close", "handler", "time", "parse"}
	x := compact.New(nil)
	for i := 0; i < 20000; i += 1000 {
		batch := bleveindex.NewBatch()
		for j := range 1000 {
			terms := map[string]int{}
			var w strings.Builder
			for range 1 + r.IntN(4) {
				w.WriteString(parts[r.IntN(len(parts))])
			}
			w.WriteString(fmt.Sprint(r.IntN(50)))
			terms[w.String()] = 1
			batch.Update(&doc{id: fmt.Sprintf("d%d", i+j), fields: []bleveindex.Field{&field{name: "body", terms: terms, length: 1}}})
		}
		if err := x.Batch(batch); err != nil {
			b.Fatal(err)
		}
	}
	rd, err := x.Reader()
	if err != nil {
		b.Fatal(err)
	}
	fz := rd.(bleveindex.IndexReaderFuzzy)
	for _, c := range []struct {
		q      string
		dist   int
		prefix string
	}{{"quoterunetograp", 1, ""}, {"quoterunetograp", 2, "q"}, {"strconv.quoterunetograp", 1, ""}, {"scaner", 1, ""}, {"scaner", 2, "s"}} {
		b.Run(fmt.Sprintf("%s/%d", c.q, c.dist), func(b *testing.B) {
			for b.Loop() {
				d, err := fz.FieldDictFuzzy("body", c.q, c.dist, c.prefix)
				if err != nil {
					b.Fatal(err)
				}
				for e, err := d.Next(); e != nil && err == nil; e, err = d.Next() {
				}
				d.Close()
			}
		})
	}
}
