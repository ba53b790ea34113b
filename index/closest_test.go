package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/storage"
)

// TestClosestIsNearestFirst holds that did-you-mean's walk for the
// nearest words alone (closestFuzzy, terms.Dicts.Closest) gives the first
// term and word of expandFuzzy's walk of every word within two edits, on
// each backend: for typos of the indexed words at one and two edits, and
// for words near nothing, with titles that hold words the bodies lack
// (read only when the bodies give nothing).
func TestClosestIsNearestFirst(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	letters := "abcdeilmnoprstu"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	var vocab []string
	for range 400 {
		vocab = append(vocab, word(3+r.IntN(6)))
	}
	var docs []Doc
	for i := range 300 {
		var body []string
		for range 5 + r.IntN(20) {
			body = append(body, vocab[r.IntN(len(vocab)/2)])
		}
		docs = append(docs, Doc{ID: fmt.Sprint(i), Title: vocab[len(vocab)/2+r.IntN(len(vocab)/2)] + " notes", Body: strings.Join(body, " ")})
	}
	typo := func(w string) string {
		b := []byte(w)
		for range 1 + r.IntN(2) {
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i] = letters[r.IntN(len(letters))]
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				b = append(b[:i], append([]byte{letters[r.IntN(len(letters))]}, b[i:]...)...)
			}
			if len(b) == 0 {
				b = []byte("x")
			}
		}
		return string(b)
	}
	var queries []string
	for range 300 {
		queries = append(queries, typo(vocab[r.IntN(len(vocab))]))
	}
	for range 40 {
		queries = append(queries, word(3+r.IntN(5)))
	}
	for _, be := range []Backend{Compact, UpsideDown, Scorch} {
		t.Run(string(be), func(t *testing.T) {
			ix, err := OpenMemory(&Options{Backend: be})
			if errors.Is(err, ErrBackend) {
				t.Skipf("no %s backend in this build", be)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if err := ix.Upsert(ctx, docs...); err != nil {
				t.Fatal(err)
			}
			suggested := 0
			err = ix.read(readsIndexes, func(textR, _ bleveindex.IndexReader, _ storage.Tx) error {
				for _, q := range queries {
					term, _ := ix.textA.Term(q)
					s := &search{ix: ix, ctx: ctx, textR: textR}
					all, err := s.expandFuzzy(q, term, int(MaxFuzzy))
					if err != nil {
						return err
					}
					s = &search{ix: ix, ctx: ctx, textR: textR}
					first, err := s.closestFuzzy(q, term)
					if err != nil {
						return err
					}
					if len(all) > 0 {
						suggested++
						all = all[:1]
					}
					if fmt.Sprint(first) != fmt.Sprint(all) {
						t.Errorf("%q: closest %v, nearest of all %v", q, first, all)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if suggested < len(queries)/2 {
				t.Errorf("%d of %d words near something: the test tests little", suggested, len(queries))
			}
		})
	}
}
