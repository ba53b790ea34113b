//go:build !js && !wasip1

package backend

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/vellum"
	"github.com/blevesearch/vellum/levenshtein"
)

// TestPrefixedWalk: a walk of an FST with prefixed finds the keys that
// start with the prefix and that the Levenshtein automaton accepts, no
// more and no fewer, on random dictionaries of one- to three-byte letters
// and bytes that are no UTF-8 (0xc3 alone, 0xff), with prefixes that are
// keys, parts of keys cut inside a letter, or absent, at one and two
// edits.
func TestPrefixedWalk(t *testing.T) {
	letters := []string{"a", "b", "l", "é", "ü", "日", "本", "\xc3", "\xff"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var sb strings.Builder
		for range rng.IntN(n + 1) {
			sb.WriteString(letters[rng.IntN(len(letters))])
		}
		return sb.String()
	}
	var builders [3]*levenshtein.LevenshteinAutomatonBuilder
	for d := 1; d <= 2; d++ {
		lb, err := levenshtein.NewLevenshteinAutomatonBuilder(uint8(d), false)
		if err != nil {
			t.Fatal(err)
		}
		builders[d] = lb
	}
	for range 300 {
		set := map[string]bool{}
		for range 1 + rng.IntN(60) {
			set[word(6)] = true
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range set {
				if !yield(k) {
					return
				}
			}
		})
		var buf bytes.Buffer
		b, err := vellum.New(&buf, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range keys {
			if err := b.Insert([]byte(k), uint64(i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		fst, err := vellum.Load(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			q := cmp.Or(word(5), "a")
			d := 1 + rng.IntN(2)
			dfa, err := builders[d].BuildDfa(q, uint8(d))
			if err != nil {
				t.Fatal(err)
			}
			var prefix string
			switch k := keys[rng.IntN(len(keys))]; rng.IntN(4) {
			case 0:
				prefix = k
			case 1:
				if k != "" {
					prefix = k[:1+rng.IntN(len(k))]
				}
			default:
				prefix = word(3)
			}
			prefix = cmp.Or(prefix, letters[rng.IntN(len(letters))])
			var want, got []string
			for _, k := range keys {
				if strings.HasPrefix(k, prefix) && vellum.AutomatonContains(dfa, []byte(k)) {
					want = append(want, k)
				}
			}
			it, err := fst.Search(newPrefixed(dfa, []byte(prefix)), []byte(prefix), nil)
			for err == nil {
				k, _ := it.Current()
				got = append(got, string(k))
				err = it.Next()
			}
			if err != vellum.ErrIteratorDone {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("keys %q, %q at %d under %q: walked %q, want %q", keys, q, d, prefix, got, want)
			}
		}
	}
}
