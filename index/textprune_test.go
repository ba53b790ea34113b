//go:build !js && !wasip1

package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestPrunedTextIsFullWalk holds the text leg's pruned walk to the full
// walk's answers: on 400 files of the Go tree written in batches, some
// rewritten and some removed (so that the index has several segments and
// deleted documents), text-mode searches of one to six words drawn from
// the files (common, rare, declared names, the last a prefix, enough
// words for feedback) get, pages of several sizes and offsets, the same total,
// hits in the same order with the same scores to the bit, and the same
// snippets as an index that scores every match.
func TestPrunedTextIsFullWalk(t *testing.T) {
	docs := treeDocs(t, 400)
	ixs := prunedPair(t, nil, func(ix *index.Index) {
		for i := 0; i < len(docs); i += 50 {
			mustUpsert(t, ix, docs[i:min(i+50, len(docs))]...)
		}
		// Rewritten and removed documents leave deleted postings behind.
		changed := make([]index.Doc, 0, 40)
		for i := 3; i < len(docs); i += 10 {
			d := docs[i]
			d.Body = d.Body[:len(d.Body)/2]
			changed = append(changed, d)
		}
		mustUpsert(t, ix, changed...)
		for i := 7; i < len(docs); i += 25 {
			if _, err := ix.Remove(ctx, docs[i].ID); err != nil {
				t.Fatal(err)
			}
		}
	})

	word := regexp.MustCompile(`[A-Za-z][A-Za-z0-9_]{1,20}`)
	rng := rand.New(rand.NewPCG(3, 5))
	pick := func() string {
		body := docs[rng.IntN(len(docs))].Body
		if w := word.FindString(body[rng.IntN(len(body)):]); w != "" {
			return w
		}
		return "func"
	}
	// Declared names, which the symbols field holds and weighs high.
	declared := regexp.MustCompile(`(?m)^func (?:\([^)]*\) )?([A-Za-z]\w+)`)
	var names []string
	for _, d := range docs {
		for _, m := range declared.FindAllStringSubmatch(d.Body, 3) {
			names = append(names, m[1])
		}
	}
	common := []string{"the", "func", "return", "error", "value", "type", "if", "a", "read", "file", "string", "Error", "String", "Close", "New", "Len"}
	pages := [][2]int{{0, 1}, {0, 5}, {0, 20}, {7, 10}, {40, 30}}
	broad := 0 // searches with many more matches than the page
	for q := range 180 {
		var words []string
		if q >= 150 {
			// A name many files declare beside a rarer word, for one
			// hit: the declarations outweigh the rare word.
			words = append(words, common[11+q%5], pick())
		}
		for range (1 + q%6) * min(1, 150-q) {
			switch rng.IntN(3) {
			case 0:
				words = append(words, common[rng.IntN(len(common))])
			case 1:
				words = append(words, names[rng.IntN(len(names))])
			default:
				words = append(words, pick())
			}
		}
		query := strings.Join(words, " ")
		prefix := q%4 == 1
		pg := pages[q%len(pages)]
		if q >= 150 {
			pg = pages[q%2]
		}
		var got [2]string
		for k, ix := range ixs {
			r := search(t, ix, index.Request{Query: query, Mode: index.ModeText, Prefix: prefix, Offset: pg[0], Limit: pg[1], Fallback: -1})
			var b strings.Builder
			fmt.Fprintf(&b, "total %d next %v\n", r.Total, r.NextOffset != nil)
			for _, h := range r.Hits {
				fmt.Fprintf(&b, "%s %x %s %d:%d %q\n", h.ID, h.Score, h.Field, h.Line, h.Column, h.Snippet)
			}
			got[k] = b.String()
			if k == 0 && r.Total > 4*(pg[0]+pg[1]) {
				broad++
			}
		}
		if got[0] != got[1] {
			t.Errorf("%q (prefix %v, page %v):\npruned %.600s\nfull   %.600s", query, prefix, pg, got[0], got[1])
		}
	}
	if broad < 90 {
		t.Errorf("only %d of 180 searches match far more than their page: the pruned walk is little tried", broad)
	}
	t.Logf("180 searches, %d matching far more than their page", broad)
}

// TestPrunedWalkKeepsDeclarations holds that a document whose
// declaration of a query word outweighs the rest is found by the pruned
// walk when the word's other postings no longer can reach the page: ten
// files hold both words and come first, and the last declares Alpha
// without the other word.
func TestPrunedWalkKeepsDeclarations(t *testing.T) {
	var docs []index.Doc
	for i := range 100 {
		d := index.Doc{ID: fmt.Sprintf("f%02d.go", i), Body: "package f\n\nvar x = 1 // filler\n"}
		switch {
		case i < 10:
			d.Body = "package f\n\n// alpha and zeta\nvar x = 1\n"
		case i < 30:
			d.Body = "package f\n\n// zeta\nvar x = 1\n"
		case i < 60:
			d.Body = "package f\n\n// alpha\nvar x = 1\n"
		}
		docs = append(docs, d)
	}
	docs[99].Body = "package f\n\nfunc Alpha() {}\n"
	ixs := prunedPair(t, nil, func(ix *index.Index) {
		mustUpsert(t, ix, docs[:10]...)
		mustUpsert(t, ix, docs[10:99]...)
		mustUpsert(t, ix, docs[99])
	})
	var got [2]string
	for k, ix := range ixs {
		r := search(t, ix, index.Request{Query: "alpha zeta", Mode: index.ModeText, Limit: 1, Fallback: -1})
		got[k] = fmt.Sprint(r.Total, ids(r))
	}
	if got[0] != got[1] || got[1] != "61 [f99.go]" {
		t.Errorf("pruned %s, full walk %s; want 61 [f99.go]", got[0], got[1])
	}
}

// TestPrunedWalkOddRequests holds the pruned walk to the full walk's
// answers where its sizes and bounds are at their edges: pages past the
// matches at offsets of any size (its heap was once sized by the page),
// and a negative field weight, under which BM25 has no ceiling.
func TestPrunedWalkOddRequests(t *testing.T) {
	var docs []index.Doc
	for i := range 60 {
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%02d", i), Body: fmt.Sprintf("alpha beta gamma %d", i%7)})
	}
	for _, tc := range []struct {
		opts  index.Options
		docs  []index.Doc
		query string
		pages [][2]int
	}{
		{index.Options{Backend: index.Scorch}, docs, "alpha beta gamma", [][2]int{{50, 20}, {100, 10}, {index.MaxOffset - 5, 10}, {index.MaxOffset, 10}}},
		{index.Options{Backend: index.Scorch, BoilerWeight: -3}, treeDocs(t, 300), "go authors bsd", [][2]int{{0, 4}, {0, 20}}},
	} {
		ixs := prunedPair(t, &tc.opts, func(ix *index.Index) { mustUpsert(t, ix, tc.docs...) })
		for _, pg := range tc.pages {
			var got [2]string
			for k, ix := range ixs {
				r := search(t, ix, index.Request{Query: tc.query, Mode: index.ModeText, Offset: pg[0], Limit: pg[1], Fallback: -1})
				got[k] = fmt.Sprint(r.Total, ids(r))
			}
			if got[0] != got[1] {
				t.Errorf("%q, offset %d, weights %+v: pruned %s, full walk %s", tc.query, pg[0], tc.opts, got[0], got[1])
			}
		}
	}
}

// prunedPair returns two memory scorch indexes with opts (nil: the
// defaults), the second scoring every match (WithoutPruning), each
// written by write; it skips the test where scorch is not built.
func prunedPair(t *testing.T, opts *index.Options, write func(ix *index.Index)) [2]*index.Index {
	t.Helper()
	o := index.Options{Backend: index.Scorch}
	if opts != nil {
		o = *opts
	}
	var ixs [2]*index.Index
	for k, opts := range []*index.Options{&o, index.WithoutPruning(&o)} {
		ix, err := index.OpenMemory(opts)
		if errors.Is(err, index.ErrBackend) {
			t.Skip("no scorch backend in this build")
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		write(ix)
		ixs[k] = ix
	}
	return ixs
}
