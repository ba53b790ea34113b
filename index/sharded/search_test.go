//go:build !js && !wasip1

package sharded_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/sharded"
	"github.com/twindex/twindex/internal/goroot"
)

var ctx = context.Background()

// openDisk opens an on-disk index in a temporary directory, closed when
// the test ends.
func openDisk(t *testing.T) *index.Index {
	t.Helper()
	ix, err := index.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func mustUpsert(t *testing.T, ix *index.Index, docs ...index.Doc) {
	t.Helper()
	if err := ix.Upsert(ctx, docs...); err != nil {
		t.Fatal(err)
	}
}

// localShards is a collection split over indexes in this process: what
// package cluster does over NATS, without the network.
type localShards []*index.Index

func (ls localShards) Len() int { return len(ls) }

func (ls localShards) Gather(ctx context.Context, req index.Request, g *collection.Stats, o collection.ShardOptions) ([]*collection.Stats, []error) {
	out, errs := make([]*collection.Stats, len(ls)), make([]error, len(ls))
	for i, ix := range ls {
		out[i], errs[i] = ix.Gather(ctx, req, g, o)
	}
	return out, errs
}

func (ls localShards) Search(ctx context.Context, req index.Request, g *collection.Stats, o collection.ShardOptions) ([]*collection.ShardResult, []error) {
	out, errs := make([]*collection.ShardResult, len(ls)), make([]error, len(ls))
	for i, ix := range ls {
		out[i], errs[i] = ix.SearchShard(ctx, req, g, o)
	}
	return out, errs
}

func (ls localShards) Render(ctx context.Context, req index.Request, g *collection.Stats, o collection.RenderOptions, hits map[int][]fusion.Hit) (map[int][]index.Hit, error) {
	out := map[int][]index.Hit{}
	for i, hs := range hits {
		r, err := ls[i].RenderShard(ctx, req, g, o, hs)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// goCorpus is n files of the Go tree's source as documents, with kinds,
// projects, tags and times to filter on.
func goCorpus(t testing.TB, n int) []index.Doc {
	t.Helper()
	dir, err := goroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "src")
	var docs []index.Doc
	for _, dir := range []string{"strings", "bytes", "bufio", "io", "os", "sort", "errors", "path", "unicode", "text/tabwriter", "encoding/csv", "net/url"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || len(docs) >= n {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 200<<10 {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			kind := "code"
			if strings.HasSuffix(p, "_test.go") {
				kind = "test"
			} else if !strings.HasSuffix(p, ".go") {
				kind = "doc"
			}
			docs = append(docs, index.Doc{
				ID: rel, Kind: kind, Title: filepath.Base(p), Body: string(b),
				Project: strings.Split(rel, "/")[0], Tags: []string{fmt.Sprintf("t%d", len(docs)%3)},
				Time: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(len(docs)) * time.Hour),
			})
			return nil
		})
	}
	if len(docs) < n/2 {
		t.Skipf("only %d files under %s", len(docs), root)
	}
	return docs
}

func shardOf(id string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(id))
	return int(h.Sum64() % uint64(n))
}

// TestShardsRankAsOneIndex: a collection split over four shards answers
// every request as one index of all its documents: the same total, the
// same hits in the same order with the same scores, matchedIn, snippets
// and explain, in every mode, with filters, paging, prefixes, fuzzy
// words and the fallback.
func TestShardsRankAsOneIndex(t *testing.T) {
	docs := goCorpus(t, 300)
	one := openDisk(t)
	mustUpsert(t, one, docs...)
	const n = 4
	coll := make(localShards, n)
	parts := make([][]index.Doc, n)
	for _, d := range docs {
		parts[shardOf(d.ID, n)] = append(parts[shardOf(d.ID, n)], d)
	}
	for i := range coll {
		coll[i] = openDisk(t)
		mustUpsert(t, coll[i], parts[i]...)
	}
	queries := []string{
		"reader", "read file", "ReadFile", "io.Reader", "buffer size ", "bufio.Scanner", "fd", "x", "io",
		"strings builder", "\"func main\"", "unicode utf8 ", "Copyright The Go Authors", "writ", "bytes.Buf",
		"netwrok", "bufferr scanner", "xyzzy", "lenght of the string", "Builder Grow", "ReadFlie reader ", "read-only bufio.Scan",
		// Pieces of words, which the substring leg finds and the text
		// leg's fallback does not tolerate when it finds enough.
		"eader", "uffere", "ufio.Sca",
	}
	raw := []string{"read* AND NOT write", "NEAR(buffer size, 3)", "title:reader", "(split OR join) AND strings", "\"byte slice\"", "^package"}
	var vs []variant
	for _, q := range queries {
		for _, m := range []index.Mode{index.ModeAuto, index.ModeText, index.ModeSubstring} {
			vs = append(vs, variant{fmt.Sprintf("%s/%q", m, q), index.Request{Query: q, Mode: m, Limit: 10}})
		}
		vs = append(vs,
			variant{fmt.Sprintf("page2/%q", q), index.Request{Query: q, Limit: 10, Offset: 10}},
			variant{fmt.Sprintf("fuzzy/%q", q), index.Request{Query: q, Fuzzy: index.FuzzyAuto, Limit: 10}},
			variant{fmt.Sprintf("kinds/%q", q), index.Request{Query: q, Kinds: []string{"test"}, Limit: 10, Explain: true}},
			variant{fmt.Sprintf("date/%q", q), index.Request{Query: q, Order: index.OrderDateDesc, Limit: 5}},
		)
	}
	for _, q := range raw {
		vs = append(vs, variant{fmt.Sprintf("raw/%q", q), index.Request{Query: q, Syntax: index.SyntaxRaw, Limit: 10, Explain: true}})
	}
	vs = append(vs,
		variant{"boost", index.Request{Query: "reader", Boost: &index.Boost{Project: "bufio"}, Limit: 10}},
		variant{"since", index.Request{Query: "error", Since: time.Date(2025, 1, 5, 0, 0, 0, 0, time.UTC), Limit: 10}},
		variant{"deep", index.Request{Query: "the", Limit: 20, Offset: 80}},
		// Pages past the last match, up to the deepest a request may ask.
		variant{"past-the-end", index.Request{Query: "the", Limit: 20, Offset: 1000}},
		variant{"deepest", index.Request{Query: "the", Limit: 20, Offset: index.MaxOffset}},
		variant{"deepest-text", index.Request{Query: "read file", Mode: index.ModeText, Limit: 20, Offset: index.MaxOffset}},
		variant{"deepest-date", index.Request{Query: "error", Order: index.OrderDateDesc, Limit: 5, Offset: index.MaxOffset}},
		variant{"deepest-bare", index.Request{Query: "the", Bare: true, Limit: index.MaxBareLimit, Offset: index.MaxOffset}},
		variant{"fuzzy-substring", index.Request{Query: "netwrok", Mode: index.ModeSubstring, Fuzzy: index.FuzzyAuto, Limit: 10}},
		// Bare: more hits than a page, no text, or their lines counted.
		variant{"bare", index.Request{Query: "the", Bare: true, Limit: 250}},
		variant{"bare-counted", index.Request{Query: "error", Bare: true, Limit: 250, Lines: &index.LineOptions{Max: 1}}},
		variant{"bare-text", index.Request{Query: "read file", Mode: index.ModeText, Bare: true, Limit: 200, Offset: 20}},
	)
	// Queries of five words or more get feedback.
	for _, q := range []string{"read the whole file into a byte slice", "split a string around each instance of a separator"} {
		vs = append(vs,
			variant{fmt.Sprintf("feedback/%q", q), index.Request{Query: q, Limit: 10}},
			variant{fmt.Sprintf("feedback-text/%q", q), index.Request{Query: q, Mode: index.ModeText, Limit: 10, Offset: 5}},
			variant{fmt.Sprintf("feedback-fuzzy/%q", q), index.Request{Query: q, Fuzzy: index.FuzzyAuto, Limit: 10}},
		)
	}
	// Search as you type, and typos in what stemming cuts, matched by
	// the words as written.
	for _, q := range []string{"bufio.Scan", "read fil", "implementati", "scannr", "bufferd writting", "readng", "unmarshl json"} {
		vs = append(vs,
			variant{fmt.Sprintf("prefix/%q", q), index.Request{Query: q, Prefix: true, Limit: 10}},
			variant{fmt.Sprintf("prefix-fuzzy/%q", q), index.Request{Query: q, Prefix: true, Fuzzy: index.FuzzyAuto, Limit: 10}},
			variant{fmt.Sprintf("fuzzy/%q", q), index.Request{Query: q, Fuzzy: index.FuzzyAuto, Limit: 10}},
			variant{fmt.Sprintf("text/%q", q), index.Request{Query: q, Mode: index.ModeText, Limit: 10}},
		)
	}
	for _, shallow := range []bool{false, true} {
		t.Run(fmt.Sprintf("shallow=%v", shallow), func(t *testing.T) {
			if shallow {
				defer sharded.Shallow()()
			}
			compareShards(t, one, coll, vs)
		})
	}
}

// A word of parts whose parts are on different shards is known to the
// collection, as to one index of all its documents: the fallback does
// not tolerate it.
func TestShardsKnowPartsApart(t *testing.T) {
	d1 := index.Doc{ID: "d1", Body: "zebra alpha"}
	d2 := index.Doc{ID: "d2", Body: "quokka beta"}
	d3 := index.Doc{ID: "d3", Body: "zebraquokkx gamma alpha"}
	one := openDisk(t)
	mustUpsert(t, one, d1, d2, d3)
	coll := localShards{openDisk(t), openDisk(t)}
	mustUpsert(t, coll[0], d1)
	mustUpsert(t, coll[1], d2, d3)
	var vs []variant
	for _, q := range []string{"zebraQuokka alpha ", "zebra-Quokka alpha ", "zebraQuokk alpha "} {
		vs = append(vs, variant{q, index.Request{Query: q, Mode: index.ModeText, Limit: 10, Fallback: 1}})
	}
	compareShards(t, one, coll, vs)
}

type variant struct {
	name string
	req  index.Request
}

// compareShards runs each request on one index and on shards and reports
// how the results differ.
func compareShards(t *testing.T, one *index.Index, coll sharded.Collection, vs []variant) {
	t.Helper()
	failed := 0
	for _, v := range vs {
		want, werr := one.Search(ctx, v.req)
		got, gerr := sharded.Search(ctx, coll, v.req, nil)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: one index: %v, shards: %v", v.name, werr, gerr)
			continue
		}
		if werr != nil {
			continue
		}
		if d := diffResults(want, got); d != "" {
			failed++
			if failed <= 10 {
				t.Errorf("%s: %s", v.name, d)
			}
		}
	}
	t.Logf("%d requests, %d differ", len(vs), failed)
}

// diffResults says how two results differ, "" when they do not.
func diffResults(want, got *index.Result) string {
	if want.Total != got.Total {
		return fmt.Sprintf("total %d, want %d", got.Total, want.Total)
	}
	if want.Tolerant != got.Tolerant {
		return fmt.Sprintf("tolerant %v, want %v", got.Tolerant, want.Tolerant)
	}
	if (want.NextOffset == nil) != (got.NextOffset == nil) {
		return "nextOffset differs"
	}
	if len(want.Hits) != len(got.Hits) {
		return fmt.Sprintf("%d hits, want %d", len(got.Hits), len(want.Hits))
	}
	for i := range want.Hits {
		w, g := want.Hits[i], got.Hits[i]
		switch {
		case w.ID != g.ID:
			return fmt.Sprintf("hit %d is %s, want %s (ids %v, want %v)", i, g.ID, w.ID, hitIDs(got), hitIDs(want))
		case w.Score != g.Score:
			return fmt.Sprintf("hit %d %s scores %v, want %v", i, w.ID, g.Score, w.Score)
		case w.Norm != g.Norm:
			return fmt.Sprintf("hit %d %s norm %v, want %v", i, w.ID, g.Norm, w.Norm)
		case !slices.Equal(w.MatchedIn, g.MatchedIn):
			return fmt.Sprintf("hit %d %s matched in %v, want %v", i, w.ID, g.MatchedIn, w.MatchedIn)
		case w.Snippet != g.Snippet:
			return fmt.Sprintf("hit %d %s snippet\n%q\nwant\n%q", i, w.ID, g.Snippet, w.Snippet)
		case w.MatchingLines != g.MatchingLines:
			return fmt.Sprintf("hit %d %s has %d matching lines, want %d", i, w.ID, g.MatchingLines, w.MatchingLines)
		case fmt.Sprint(w.Explain) != fmt.Sprint(g.Explain):
			return fmt.Sprintf("hit %d %s explain %+v, want %+v", i, w.ID, g.Explain, w.Explain)
		}
	}
	return ""
}

func hitIDs(r *index.Result) []string {
	out := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		out[i] = h.ID
	}
	return out
}
