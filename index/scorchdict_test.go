//go:build !js && !wasip1

package index

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/terms"
	"github.com/twindex/twindex/storage"
)

// TestMergedDictionaryCounts builds a merged on-disk scorch index in which
// a word one document holds once ("aardvark") precedes, in the body's
// dictionary, words several documents hold, and checks each word's count
// as the expansions read it, and the order of the completions of "a":
// after Optimize (one merged segment), then beside a second segment, with
// documents deleted ("aachen", before "aardvark", is counted right by
// zap, deleted documents included). It also checks that zap's own
// dictionary walk still reports 1 for the words after "aardvark" in the
// merged segment, the defect the counts work around.
func TestMergedDictionaryCounts(t *testing.T) {
	ctx := context.Background()
	ix, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	holders := map[string]int{"aachen": 4, "aardvark": 1, "abacus": 5, "abbey": 3, "abbot": 7, "acorn": 2}
	var b Batch
	for w, n := range holders {
		for i := range n {
			b.Upsert(Doc{ID: fmt.Sprintf("%s-%d", w, i), Body: w + " zebra"})
		}
	}
	if _, err := ix.Apply(ctx, &b); err != nil {
		t.Fatal(err)
	}
	// Two batches: Optimize merges their segments into one.
	if err := ix.Upsert(ctx, Doc{ID: "late", Body: "abbot zebra"}); err != nil {
		t.Fatal(err)
	}
	holders["abbot"]++
	if err := ix.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(when string, wantOrder []string, buggy bool) {
		t.Helper()
		err := ix.read(readsIndexes, func(textR, _ bleveindex.IndexReader, _ storage.Tx) error {
			got := map[string]uint64{}
			ok, err := backend.PrefixCounts(textR, fieldBody, []byte("a"), func(term string, n uint64) { got[term] += n })
			if err != nil || !ok {
				t.Fatalf("%s: PrefixCounts: %v, %v", when, ok, err)
			}
			want := map[string]uint64{}
			for w, n := range holders {
				want[w] = uint64(n)
			}
			if !maps.Equal(got, want) {
				t.Errorf("%s: counts %v, want %v", when, got, want)
			}
			if buggy {
				d, err := textR.FieldDictPrefix(fieldBody, []byte("a"))
				if err != nil {
					t.Fatal(err)
				}
				zap := map[string]uint64{}
				if err := terms.Drain(d, func(e *bleveindex.DictEntry) { zap[e.Term] = e.Count }); err != nil {
					t.Fatal(err)
				}
				if zap["abbot"] != 1 {
					t.Errorf("%s: zap's walk counts %v: the defect is gone, and with it what this test tests", when, zap)
				}
			}
			s := &search{ix: ix, ctx: ctx, textR: textR}
			order, err := s.expandPrefix([]string{"a"}, MaxExpansions)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(order, wantOrder) {
				t.Errorf("%s: completions of a: %q, want %q", when, order, wantOrder)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check("merged", []string{"abbot", "abacus", "aachen", "abbey", "acorn", "aardvark"}, true)
	if segs := backend.Segments(ix.text); segs != 1 {
		t.Fatalf("%d text segments after Optimize, want 1", segs)
	}

	// A second segment, and a document of the merged one deleted.
	if err := ix.Upsert(ctx, Doc{ID: "new-abbey", Body: "abbey"}, Doc{ID: "new-acorn", Body: "acorn"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Remove(ctx, "abacus-0", "abacus-1", "abacus-2", "aachen-0", "aachen-1"); err != nil {
		t.Fatal(err)
	}
	holders["aachen"] -= 2
	holders["abbey"]++
	holders["acorn"]++
	holders["abacus"] -= 3
	check("merged and new", []string{"abbot", "abbey", "acorn", "aachen", "abacus", "aardvark"}, false)

	// A gram one document holds once is found in the merged trigram index.
	r, err := ix.Search(ctx, Request{Query: "aardv", Mode: ModeSubstring})
	if err != nil || r.Total != 1 {
		t.Fatalf("aardv: %v, %v", r, err)
	}
}

// BenchmarkPrefixCounts measures what true counts cost over zap's own
// dictionary walk, on the index in $TWINDEX_BENCH_INDEX (an index
// directory, e.g. the yardstick's --dir) for the prefixes in
// $TWINDEX_BENCH_PREFIXES (default "a re con"), in the body field.
func BenchmarkPrefixCounts(b *testing.B) {
	prefixes := strings.Fields(cmp.Or(os.Getenv("TWINDEX_BENCH_PREFIXES"), "a re con"))
	onBenchIndex(b, func(textR bleveindex.IndexReader) {
		for _, p := range prefixes {
			b.Run(p+"/zap", func(b *testing.B) {
				for b.Loop() {
					d, err := textR.FieldDictPrefix(fieldBody, []byte(p))
					if err != nil {
						b.Fatal(err)
					}
					if err := terms.Drain(d, func(*bleveindex.DictEntry) {}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(p+"/true", func(b *testing.B) {
				for b.Loop() {
					if _, err := backend.PrefixCounts(textR, fieldBody, []byte(p), func(string, uint64) {}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

// BenchmarkNearTerms measures the walk of the body's dictionary for the
// terms within two edits of a word that start with its first letter, as
// the fallback and did-you-mean walk it: NearTerms's walk, kept under the
// letter, against scorch's FieldDictFuzzy of the letter's range. It reads
// the index in $TWINDEX_BENCH_INDEX (e.g. the yardstick's --dir), for the
// words in $TWINDEX_BENCH_WORDS (default fragments of the Go tree that
// have no such term past the range, and "panic", which has).
func BenchmarkNearTerms(b *testing.B) {
	words := strings.Fields(cmp.Or(os.Getenv("TWINDEX_BENCH_WORDS"), "imeofday apabili mustpani panic"))
	onBenchIndex(b, func(textR bleveindex.IndexReader) {
		for _, w := range words {
			first := string([]rune(w)[:1])
			b.Run(w+"/walk", func(b *testing.B) {
				for b.Loop() {
					if err := backend.NearTerms(textR)(fieldBody, w, 2, first, func(string) {}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(w+"/scorch", func(b *testing.B) {
				for b.Loop() {
					d, err := textR.(bleveindex.IndexReaderFuzzy).FieldDictFuzzy(fieldBody, w, 2, first)
					if err != nil {
						b.Fatal(err)
					}
					if err := terms.Drain(d, func(*bleveindex.DictEntry) {}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}

// onBenchIndex calls fn with the text index's reader of the index in
// $TWINDEX_BENCH_INDEX (an index directory, e.g. the yardstick's --dir),
// or skips b when it names none.
func onBenchIndex(b *testing.B, fn func(textR bleveindex.IndexReader)) {
	dir := os.Getenv("TWINDEX_BENCH_INDEX")
	if dir == "" {
		b.Skip("TWINDEX_BENCH_INDEX names no index")
	}
	ix, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	err = ix.read(readsIndexes, func(textR, _ bleveindex.IndexReader, _ storage.Tx) error {
		fn(textR)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// TestNearTermsAsScorch: the terms near a word that backend.NearTerms
// walks are those scorch's FieldDictFuzzy gives, on an index of several
// segments with deleted documents, at one and two edits, for words in
// every dictionary Near reads and for words in none, and for words whose
// first letter is more than one byte (a walk of two edits stays under it),
// one of them in no word though the words have its first two bytes.
func TestNearTermsAsScorch(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenMemory(&Options{Backend: Scorch}) // no persister to merge the batches
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	words := []string{"lemon", "lemons", "melon", "demon", "lemma", "leman", "configuration", "configure",
		"configured", "handler", "handle", "handles", "hand", "bufio", "buffer", "scanner", "scanned", "deadline",
		"überall", "übermut", "ubernet", "日本語", "日本人", "日記"}
	for i := range 3 { // three segments, each with a third of the words
		var docs []Doc
		for j, w := range words {
			if j%3 != i {
				continue
			}
			docs = append(docs, Doc{ID: fmt.Sprintf("%d-%d", i, j), Title: strings.ToUpper(w[:1]) + w[1:] + " notes",
				Body: "the " + w})
		}
		if err := ix.Upsert(ctx, docs...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ix.Remove(ctx, "0-0", "1-4", "2-8"); err != nil {
		t.Fatal(err)
	}
	err = ix.read(readsIndexes, func(textR, _ bleveindex.IndexReader, _ storage.Tx) error {
		if n := backend.Segments(ix.text); n < 2 {
			t.Fatalf("%d segment(s): the walk of several is not tested", n)
		}
		s := &search{ix: ix, ctx: ctx, textR: textR}
		walked := s.dicts()
		walk := walked.Fuzzy(textR)
		if walk == nil {
			t.Fatal("NearTerms gives no walk of a scorch reader")
		}
		own := walked
		own.Fuzzy = nil
		for _, w := range []string{"lmeon", "lemon", "cnofiguration", "handel", "hnadler", "bfuio", "scaner", "deadlnie", "zzzz", "notse", "ubreall", "日夲語", "日本", "本語", "旦本語"} {
			for dist := 1; dist <= 2; dist++ {
				got, err := walked.Near(w, "", dist, true)
				if err != nil {
					t.Fatal(err)
				}
				want, err := own.Near(w, "", dist, true)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(got[:], want[:], maps.Equal) {
					t.Errorf("%q at %d: walked %v, FieldDictFuzzy %v", w, dist, got, want)
				}
				if (w == "lmeon" || w == "ubreall" || w == "日夲語") && dist == 2 && len(want[0]) == 0 {
					t.Errorf("%s: nothing near in the body: %v", w, want)
				}
				// The walk itself, under the word's first letter and not:
				// Near's own checks would hide a walk that strays.
				for _, prefix := range []string{"", string([]rune(w)[:1])} {
					for _, f := range []string{fieldBody, fieldWords, fieldTitle} {
						walkedTerms := map[string]bool{}
						if err := walk(f, w, dist, prefix, func(term string) { walkedTerms[term] = true }); err != nil {
							t.Fatal(err)
						}
						d, err := textR.(bleveindex.IndexReaderFuzzy).FieldDictFuzzy(f, w, dist, prefix)
						if err != nil {
							t.Fatal(err)
						}
						scorchTerms := map[string]bool{}
						if err := terms.Drain(d, func(e *bleveindex.DictEntry) { scorchTerms[e.Term] = true }); err != nil {
							t.Fatal(err)
						}
						if !maps.Equal(walkedTerms, scorchTerms) {
							t.Errorf("%q at %d under %q in %s: walked %v, FieldDictFuzzy %v", w, dist, prefix, f, walkedTerms, scorchTerms)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
