package index_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/tokenize"
)

// TestSubstringExactOnSkewedGrams checks the substring leg against brute
// force where its trigram lists differ in length by much (a rare leaf
// beside a common one: candidates advanced to) and by little (the grams
// of one common word: lists read through), and for leaves of one and two
// characters, which no trigram narrows (a scan), alone, together and
// under a kind filter; again after a write, and with a fold cache too
// small to keep every document's text.
func TestSubstringExactOnSkewedGrams(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	common := []string{"the reader", "a writer", "errors", "Brown fox", "Über", "naïve café"}
	rare := []string{"zqxjv", "qqzx", "xylophone"}
	kinds := []string{"func", "type", ""}
	var docs []index.Doc
	for i := range 400 {
		var body []string
		for range 1 + rng.IntN(6) {
			body = append(body, common[rng.IntN(len(common))])
		}
		if i%37 == 0 {
			body = append(body, rare[rng.IntN(len(rare))])
		}
		docs = append(docs, index.Doc{
			ID: fmt.Sprintf("d%03d", i), Kind: kinds[i%len(kinds)],
			Title: common[rng.IntN(len(common))], Body: strings.Join(body, " "),
		})
	}
	cases := []substringCase{
		{"zqxjv reader", nil}, {"xylophone the", nil}, {"qqzx errors", nil},
		{"reader", nil}, {"errors", nil}, {"brown fox", nil}, {"writer errors", nil},
		{"e", nil}, {"é", nil}, {"ü", nil}, {"er", nil}, {"r e", nil}, {"x", nil}, {"zq", nil},
		{"e", []string{"type"}}, {"er", []string{"func", "type"}}, {"reader", []string{"func"}},
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		checkSubstring(t, ix, docs, cases)
		// A write after a scan: the next scan sees it.
		changed := slices.Clone(docs)
		for i := 0; i < len(changed); i += 3 {
			changed[i].Body = "xylophone zq"
		}
		mustUpsert(t, ix, changed...)
		gone := 0
		for i := 1; i < len(changed); i += 5 {
			n, err := ix.Remove(ctx, changed[i].ID)
			if err != nil {
				t.Fatal(err)
			}
			gone += n
		}
		if gone == 0 {
			t.Fatal("nothing removed")
		}
		var kept []index.Doc
		for i, d := range changed {
			if i%5 != 1 {
				kept = append(kept, d)
			}
		}
		checkSubstring(t, ix, kept, cases)
	})
	// A fold cache too small for every document's text, and none.
	for _, cache := range []int{4096, -1} {
		t.Run(fmt.Sprint("cache", cache), func(t *testing.T) {
			ix, err := index.OpenMemory(&index.Options{CacheBytes: cache})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			mustUpsert(t, ix, docs...)
			checkSubstring(t, ix, docs, cases)
		})
	}
}

type substringCase struct {
	query string
	kinds []string
}

// checkSubstring compares the substring leg's hits and Total with brute
// force over docs, every page of them.
func checkSubstring(t *testing.T, ix *index.Index, docs []index.Doc, cases []substringCase) {
	t.Helper()
	for _, c := range cases {
		var want []string
		for _, d := range docs {
			if c.kinds != nil && !slices.Contains(c.kinds, d.Kind) {
				continue
			}
			ft, fb := tokenize.Fold(d.Title), tokenize.Fold(d.Body)
			ok := true
			for _, term := range strings.Fields(c.query) {
				f := tokenize.Fold(term)
				ok = ok && (strings.Contains(ft, f) || strings.Contains(fb, f))
			}
			if ok {
				want = append(want, d.ID)
			}
		}
		var got []string
		for next := new(int); next != nil; {
			r := search(t, ix, index.Request{Query: c.query, Mode: index.ModeSubstring, Kinds: c.kinds, Limit: index.MaxLimit, Offset: *next})
			if r.Total != len(want) {
				t.Errorf("%q %v: Total %d, want %d", c.query, c.kinds, r.Total, len(want))
			}
			got = append(got, ids(r)...)
			next = r.NextOffset
		}
		if got = sorted(got); !slices.Equal(got, want) {
			t.Errorf("%q %v: %d hits, want %d", c.query, c.kinds, len(got), len(want))
		}
	}
}

// TestSubstringChecksInParallel checks that spreading the checks of many
// candidates over goroutines, with a fold cache and without, changes
// nothing: the same hits, scores, snippets, order and Total as one
// goroutine gives, and brute force's matches.
func TestSubstringChecksInParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := []string{"reader", "writer", "errors", "zq", "buffer", "Über"}
	var docs []index.Doc
	for i := range 3000 {
		var body []string
		for range 2 + rng.IntN(8) {
			body = append(body, words[rng.IntN(len(words))])
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%04d", i), Title: words[rng.IntN(len(words))], Body: strings.Join(body, " ")})
	}
	open := func(workers, cache int) *index.Index {
		ix, err := index.OpenMemory(&index.Options{Workers: workers, CacheBytes: cache})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		mustUpsert(t, ix, docs...)
		return ix
	}
	// With no fold cache, the workers fold into buffers they use again
	// (a quoted phrase's judges too).
	one := open(1, 0)
	many := map[string]*index.Index{"4 workers": open(4, 0), "4 workers, no cache": open(4, -1)}
	cases := []substringCase{{"reader", nil}, {"reader zq", nil}, {"e", nil}, {"ub er", nil}, {"rite", nil}, {"über", nil}}
	for _, ix := range many {
		checkSubstring(t, ix, docs, cases)
	}
	queries := []string{`"reader writer"`, `"über errors" rite`}
	for _, c := range cases {
		queries = append(queries, c.query)
	}
	for _, q := range queries {
		for _, mode := range []index.Mode{index.ModeSubstring, index.ModeAuto} {
			req := index.Request{Query: q, Mode: mode, Limit: index.MaxLimit, Offset: 40}
			want := search(t, one, req)
			for name, ix := range many {
				got := search(t, ix, req)
				if got.Total != want.Total || len(got.Hits) != len(want.Hits) {
					t.Fatalf("%q %s: total %d, %d hits on %s; %d, %d on one", q, mode, got.Total, len(got.Hits), name, want.Total, len(want.Hits))
				}
				for i := range got.Hits {
					if g, w := got.Hits[i], want.Hits[i]; g.ID != w.ID || g.Score != w.Score || g.Snippet != w.Snippet {
						t.Fatalf("%q %s: hit %d is %s %v %q on %s, %s %v %q on one", q, mode, i, g.ID, g.Score, g.Snippet, name, w.ID, w.Score, w.Snippet)
					}
				}
			}
		}
	}
}

// TestNoSubstringMatchFusedAlike checks that an auto search whose
// substring leg ran and matched nothing fuses its text hits as one whose
// pooled arrays were used before: a nil leg would be taken as one that
// did not run, its hits scored by the text leg alone. The misspelling
// finds "cat" through the fallback.
func TestNoSubstringMatchFusedAlike(t *testing.T) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix, index.Doc{ID: "a", Body: "the cat sat"}, index.Doc{ID: "b", Body: "a cat and a dog"})
	req := index.Request{Query: "cta", Mode: index.ModeAuto, Limit: 10}
	runtime.GC()
	runtime.GC() // sync.Pool's items go in two collections: the search's arrays are new
	first := search(t, ix, req)
	search(t, ix, index.Request{Query: "cat", Mode: index.ModeAuto, Limit: 10})
	again := search(t, ix, req)
	if len(first.Hits) == 0 || len(first.Hits) != len(again.Hits) {
		t.Fatalf("hits %d, then %d; want the same, more than none", len(first.Hits), len(again.Hits))
	}
	for i := range first.Hits {
		if f, a := first.Hits[i], again.Hits[i]; f.ID != a.ID || f.Score != a.Score {
			t.Errorf("hit %d: %s %v first, %s %v again", i, f.ID, f.Score, a.ID, a.Score)
		}
	}
}

// TestIndexScoresAgreeWithText checks that scoring the matches of leaves
// their grams decide from the index alone gives what scoring them from
// their text gives: the same hits, order and scores, Total and page, on
// every backend, before and after updates and removals (which leave
// deleted postings behind in scorch). Its needles do not overlap
// themselves ("aa" in "aaa"), where the two count differently.
func TestIndexScoresAgreeWithText(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	words := []string{"Reader", "writer", "ERRORS", "fd", "io", "Über", "naïve", "x", "i/o", "日本語", "fox"}
	doc := func(i int) index.Doc {
		var title, body []string
		for range rng.IntN(3) {
			title = append(title, words[rng.IntN(len(words))])
		}
		for range rng.IntN(40) {
			body = append(body, words[rng.IntN(len(words))])
		}
		return index.Doc{ID: fmt.Sprintf("d%03d", i), Title: strings.Join(title, " "), Body: strings.Join(body, " ")}
	}
	var docs []index.Doc
	for i := range 300 {
		docs = append(docs, doc(i))
	}
	queries := []string{"e", "x", "fd", "io", "ü", "é", "日", "本語", "r e", "fd io", "er er", "i/o", "fox", "err", "zq"}
	backends(t, func(t *testing.T, fast *index.Index) {
		slow, err := index.OpenMemory(nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { slow.Close() })
		index.ScoreFromText(slow)
		compare := func(when string) {
			t.Helper()
			for _, q := range queries {
				for _, mode := range []index.Mode{index.ModeSubstring, index.ModeAuto} {
					req := index.Request{Query: q, Mode: mode, Limit: 30, Offset: 5}
					want, got := search(t, slow, req), search(t, fast, req)
					if got.Total != want.Total || len(got.Hits) != len(want.Hits) {
						t.Fatalf("%s %q %s: total %d, %d hits; from text %d, %d", when, q, mode, got.Total, len(got.Hits), want.Total, len(want.Hits))
					}
					for i := range got.Hits {
						g, w := got.Hits[i], want.Hits[i]
						if g.ID != w.ID || math.Abs(g.Score-w.Score) > 1e-12*w.Score {
							t.Fatalf("%s %q %s: hit %d is %s %v; from text %s %v", when, q, mode, i, g.ID, g.Score, w.ID, w.Score)
						}
					}
				}
			}
		}
		mustUpsert(t, fast, docs...)
		mustUpsert(t, slow, docs...)
		compare("after the load")
		for i := 0; i < len(docs); i += 4 {
			docs[i] = doc(i)
		}
		mustUpsert(t, fast, docs...)
		mustUpsert(t, slow, docs...)
		for i := 1; i < len(docs); i += 7 {
			for _, ix := range []*index.Index{fast, slow} {
				if _, err := ix.Remove(ctx, docs[i].ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		compare("after updates and removals")
	})
}

// TestHeadChecksAgreeWithWhole checks that judging a candidate by its
// text's head (a process with no fold cache: record.DecodeTextHead) gives
// what judging its whole text gives, with the index's fold cache: the same
// hits, scores, snippets, order and Total, and brute force's matches, on
// every backend. The documents are longer than the head, the words in
// the head, past it, in both and in neither, and some texts fold other
// than plainly (so their folded lengths are not their stored ones).
func TestHeadChecksAgreeWithWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	words := []string{"reader", "writer", "errors", "Über", "naïve", "buffer", "closeIdle"}
	filler := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			fmt.Fprintf(&b, "w%dq ", rng.IntN(300))
		}
		return b.String()
	}
	var docs []index.Doc
	for i := range 400 {
		var parts []string
		for range 1 + rng.IntN(4) {
			parts = append(parts, words[rng.IntN(len(words))], filler(rng.IntN(3000)))
		}
		if i%3 == 0 {
			parts = append([]string{filler(rng.IntN(2000))}, parts...)
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%03d", i), Title: words[rng.IntN(len(words))] + " " + fmt.Sprint(i), Body: strings.Join(parts, " ")})
	}
	cases := []substringCase{{"reader", nil}, {"reader writer", nil}, {"über naive", nil}, {"closeidle errors", nil}, {"ader uffe", nil}, {"w17q reader", nil}}
	for _, be := range []string{"scorch", "upsidedown", "compact", "disk"} {
		open := func(cache int) *index.Index {
			opts := &index.Options{Backend: index.Backend(be), CacheBytes: cache}
			if be == "disk" {
				if openDisk == nil {
					return nil
				}
				opts.Backend = ""
				return openDisk(t, opts)
			}
			ix, err := index.OpenMemory(opts)
			if errors.Is(err, index.ErrBackend) {
				return nil // the js/wasm build has compact only
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			return ix
		}
		head, whole := open(-1), open(0)
		if head == nil {
			continue
		}
		mustUpsert(t, whole, docs...)
		mustUpsert(t, head, docs...)
		checkSubstring(t, head, docs, cases)
		for _, c := range cases {
			for _, mode := range []index.Mode{index.ModeSubstring, index.ModeAuto} {
				req := index.Request{Query: c.query, Mode: mode, Limit: index.MaxLimit}
				a, b := search(t, head, req), search(t, whole, req)
				if a.Total != b.Total || len(a.Hits) != len(b.Hits) {
					t.Fatalf("%q %s: %d, %d hits by heads; %d, %d whole", c.query, mode, a.Total, len(a.Hits), b.Total, len(b.Hits))
				}
				for i := range a.Hits {
					if g, w := a.Hits[i], b.Hits[i]; g.ID != w.ID || g.Score != w.Score || g.Snippet != w.Snippet {
						t.Fatalf("%s %q %s: hit %d is %s %v %q by heads, %s %v %q whole", be, c.query, mode, i, g.ID, g.Score, g.Snippet, w.ID, w.Score, w.Snippet)
					}
				}
			}
		}
	}
}
