//go:build !js && !wasip1

package index_test

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/tokenize"
)

// treeDocs returns a copy of n files of the Go tree (benchDocs), and
// skips the test in -short mode or where the tree has fewer.
func treeDocs(t *testing.T, n int) []index.Doc {
	t.Helper()
	if testing.Short() {
		t.Skip("reads the Go tree")
	}
	docs := benchDocs()
	if len(docs) < n {
		t.Skipf("%d files of the Go tree here", len(docs))
	}
	return slices.Clone(docs[:n])
}

// TestPhrasesOnGoTree is TestLongPhrasesMatchPositions on real text: 300
// files of the Go tree, a tenth of them given an accent (so that the case
// mask has changed bytes), and phrases of two to four words cut from
// them that hold a stop word and another word, judged by the engine
// (found as written, in windows, or whole) and by the positions of every
// document's tokens and stop words (holdsPhrase).
func TestPhrasesOnGoTree(t *testing.T) {
	docs := treeDocs(t, 300)
	for i := range docs {
		if i%10 == 0 {
			docs[i].Body = "// café\n" + docs[i].Body
		}
	}
	text := tokenize.NewText()
	words := regexp.MustCompile(`[A-Za-z]+(?:[ ,]+[A-Za-z]+){1,3}`)
	rng := rand.New(rand.NewPCG(5, 8))
	var phrases []string
	for tries := 0; len(phrases) < 30 && tries < 100000; tries++ {
		body := docs[rng.IntN(len(docs))].Body
		at := rng.IntN(len(body))
		loc := words.FindStringIndex(body[at:])
		if loc == nil {
			continue
		}
		p := body[at+loc[0] : at+loc[1]]
		if len(text.Stops([]byte(p))) == 0 || len(text.Analyze([]byte(p))) == 0 || slices.Contains(phrases, p) {
			continue
		}
		phrases = append(phrases, p)
	}
	if len(phrases) < 30 {
		t.Fatalf("found %d phrases", len(phrases))
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, phrase := range phrases {
			want := holders(docs, phrase)
			var got []string
			total := 0
			for offset := 0; offset == 0 || offset < total; offset += index.MaxLimit {
				r := search(t, ix, index.Request{Query: `"` + phrase + `"`, Mode: index.ModeText, Limit: index.MaxLimit, Offset: offset})
				got, total = append(got, ids(r)...), r.Total
			}
			if total != len(want) || !slices.Equal(sorted(got), sorted(want)) {
				t.Errorf("%q: %d hits, positions say %d; only in hits %v, only by positions %v",
					phrase, total, len(want), minus(got, want), minus(want, got))
			}
		}
	})
}
