package index_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestPhrasesWithPairs holds that a document's filter of adjacent term
// pairs, which a phrase's judge asks first, passes over no document that
// holds the phrase: where the pairs span a licence comment's end and the
// code after it, a compound's parts, a stop word and a CJK run; and that
// a phrase does not run from a title into its body, with the filter or
// without. Each phrase's hits equal those of an index that stores no
// filter (as one written before them) and of holdsPhrase.
func TestPhrasesWithPairs(t *testing.T) {
	docs := []index.Doc{
		{ID: "licence", Title: "lic.go", Body: "// Copyright 2026 The Authors. Use is governed by a license\n// found in the LICENSE file.\n\npackage zip\n\nfunc ReadFile() {}\n"},
		{ID: "apart", Title: "apart.go", Body: "// Copyright 2026 The Authors. License file apart.\n\n// package is\n// file package zip written apart.\nvar x = 1\n"},
		{ID: "compound", Title: "os.ReadFile reads", Body: "data, err := os.ReadFile(name) // the whole file"},
		{ID: "title", Title: "read the", Body: "file is not read"},
		{ID: "cjk", Title: "搜索引擎", Body: "全文搜索引擎的索引"},
		{ID: "stops", Body: "close of the file; a file of the close"},
	}
	phrases := []string{
		"LICENSE file package zip", "file package", "package zip", "os ReadFile", "ReadFile name",
		"read file", "read the file", "the file", "of the file", "a file of", "the whole file",
		"搜索引擎", "引擎的", "file is", "the close", "close of",
	}
	for _, opts := range []*index.Options{nil, index.WithoutPairs(nil)} {
		ix := memoryOf(t, opts, docs...)
		for _, p := range phrases {
			want := sorted(holders(docs, p))
			for _, mode := range []index.Mode{index.ModeText, index.ModeAuto} {
				r := search(t, ix, index.Request{Query: `"` + p + `"`, Mode: mode, Limit: 50})
				got := sorted(ids(r))
				if mode == index.ModeAuto {
					got = slices.DeleteFunc(got, func(id string) bool { return !slices.Contains(want, id) })
				}
				if !slices.Equal(got, want) {
					t.Errorf("pairs stored %v, %s %q: %v, positions say %v", opts == nil, mode, p, got, want)
				}
			}
		}
	}
}

// TestSnapshotShipsNoPairs holds that a snapshot leaves out the records'
// pairs filters (record.Raw): its size is that of a snapshot of an index
// that stores none, though the filters of its documents' pairs take
// several KiB; and that phrases are found in it as in the index.
func TestSnapshotShipsNoPairs(t *testing.T) {
	docs := apiCorpus(300)
	sizes := map[bool]int{}
	for _, pairs := range []bool{true, false} {
		opts := &index.Options{Backend: index.Compact}
		if !pairs {
			opts = index.WithoutPairs(opts)
		}
		ix, err := index.OpenMemory(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		mustUpsert(t, ix, docs...)
		var b bytes.Buffer
		if err := ix.WriteSnapshot(&b); err != nil {
			t.Fatal(err)
		}
		sizes[pairs] = b.Len()
		loaded, err := index.OpenSnapshot(bytes.NewReader(b.Bytes()), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer loaded.Close()
		for _, p := range []string{"the file", "reads the", "returns a value", "of the"} {
			req := index.Request{Query: `"` + p + `"`, Mode: index.ModeText, Limit: 20}
			want, got := search(t, ix, req), search(t, loaded, req)
			if got.Total != want.Total || !slices.Equal(ids(got), ids(want)) {
				t.Errorf("pairs stored %v, %q: loaded %d %v, indexed %d %v", pairs, p, got.Total, ids(got), want.Total, ids(want))
			}
		}
	}
	if d := sizes[true] - sizes[false]; d < -64 || d > 64 {
		t.Errorf("snapshot %d bytes with pairs stored, %d without", sizes[true], sizes[false])
	}
}

// TestPrefixPhraseWithPairs holds that the filter does not decide a
// prefix phrase's last word, whose completions need not hold the word as
// written: `"read the"*` is found as written in "read the file" though
// "the", a stop word, is none of the completions.
func TestPrefixPhraseWithPairs(t *testing.T) {
	ix := memoryOf(t, nil, index.Doc{ID: "h", Body: "read the file; then"})
	for _, q := range []string{`"read the"*`, `"read the" *`} {
		r := search(t, ix, index.Request{Query: q, Syntax: index.SyntaxRaw, Mode: index.ModeText})
		if got := ids(r); !slices.Equal(got, []string{"h"}) {
			t.Errorf("%s: %v, want [h]", q, got)
		}
	}
}

// memoryOf returns a memory index with opts holding docs, closed when the
// test ends.
func memoryOf(t *testing.T, opts *index.Options, docs ...index.Doc) *index.Index {
	t.Helper()
	ix, err := index.OpenMemory(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	mustUpsert(t, ix, docs...)
	return ix
}
