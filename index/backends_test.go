//go:build !js && !wasip1

package index_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestBackendsAgree checks that the same documents give the same answers
// on every backend: compact, upsidedown and scorch in memory, and scorch on disk
// loaded in batches and merged by Optimize, whose merged segments hold
// words one document holds once in zap's one-posting encoding, which
// defeats zap's dictionary counts (see TestMergedDictionaryCounts). For
// each query and mode, as typed (the last word also a prefix, the
// fallback on), the total, the ordered top 10 and did-you-mean must
// agree. The corpus has many completions of a few prefixes, some held by
// one document, so that counts decide which completions a prefix and a
// fuzzy word stand for, and a stem with several surface forms, whose
// holder of the smallest ID is written last, so that did-you-mean must
// pick one the same way whatever order a backend keeps documents in.
func TestBackendsAgree(t *testing.T) {
	if openDisk == nil {
		t.Skip("no on-disk indexes in this build")
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var vocab []string
	for _, stem := range []string{"con", "rea", "tra", "pro"} {
		for _, tail := range strings.Fields("tent text fig nect sole stant tract vert cept duct trol fine tain test ject dition cert volve") {
			vocab = append(vocab, stem+tail)
		}
	}
	vocab = append(vocab, strings.Fields("read reads reading reader readers file files filing open opens opened fd io x")...)
	// Zipf-like: the first words of each run are common, the last rare.
	word := func() string {
		i := min(len(vocab)-1, int(float64(len(vocab))*rng.Float64()*rng.Float64()*rng.Float64()))
		return vocab[i]
	}
	var docs []index.Doc
	for i := range 600 {
		var body []string
		for range 3 + rng.IntN(12) {
			body = append(body, word())
		}
		if i%50 == 0 {
			body = append(body, fmt.Sprintf("hapax%03d", i), vocab[len(vocab)-1-i%len(vocab)])
		}
		switch i {
		case 7:
			body = append(body, "contend") // one document's neighbour of "content"
		case 20:
			body = append(body, "zooms")
		case 100:
			body = append(body, "zooming")
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%03d", i), Title: word() + ".go", Body: strings.Join(body, " ")})
	}

	memCompact, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { memCompact.Close() })
	memUD, err := index.OpenMemory(&index.Options{Backend: index.UpsideDown})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { memUD.Close() })
	memScorch, err := index.OpenMemory(&index.Options{Backend: index.Scorch})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { memScorch.Close() })
	disk := openDisk(t, nil)
	for i := 0; i < len(docs); i += 150 {
		for _, ix := range []*index.Index{memCompact, memUD, memScorch, disk} {
			mustUpsert(t, ix, docs[i:min(i+150, len(docs))]...)
		}
	}
	// The smallest ID of the documents holding "zoom" comes last, so that
	// scorch keeps it after the others.
	late := index.Doc{ID: "a-zoom", Body: "zoomed"}
	for _, ix := range []*index.Index{memCompact, memUD, memScorch, disk} {
		mustUpsert(t, ix, late)
	}
	if err := disk.Optimize(ctx); err != nil {
		t.Fatal(err)
	}

	queries := []string{"con", "rea", "pro", "tra", "conf", "read", "reads ", "file open", "fd", "io read", "x",
		"contex", "cnotext", "eRader", "raeding", "filng", `"read file"`, "hapax0", "pro con", "contenf", "raed", "raeding", "zoon", "zzzz",
		// Words of one part beside minor ones: the part holds them.
		"reader.X", "readIo", "file.i", "contentFd", "file.The", "readerCon", "proConte"}
	backends := []struct {
		name string
		ix   *index.Index
	}{{"compact", memCompact}, {"upsidedown", memUD}, {"memory scorch", memScorch}, {"merged disk scorch", disk}}
	for _, q := range queries {
		for _, mode := range []index.Mode{index.ModeAuto, index.ModeText, index.ModeSubstring} {
			for _, prefix := range []bool{false, true} {
				req := index.Request{Query: q, Mode: mode, Limit: 10, Prefix: prefix}
				want := search(t, backends[0].ix, req)
				for _, b := range backends[1:] {
					got := search(t, b.ix, req)
					if got.Total != want.Total || !slices.Equal(ids(got), ids(want)) || got.DidYouMean != want.DidYouMean ||
						!slices.EqualFunc(got.Hits, want.Hits, func(a, b index.Hit) bool { return math.Abs(a.Score-b.Score) < 1e-9 }) {
						t.Errorf("%q %s prefix %v: %s gives %d %v %q %v, %s gives %d %v %q %v", q, mode, prefix,
							b.name, got.Total, ids(got), got.DidYouMean, scores(got), backends[0].name, want.Total, ids(want), want.DidYouMean, scores(want))
					}
				}
			}
		}
	}
}

// scores returns r's hits' scores, in order.
func scores(r *index.Result) []float64 {
	var out []float64
	for _, h := range r.Hits {
		out = append(out, h.Score)
	}
	return out
}
