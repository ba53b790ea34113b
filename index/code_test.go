package index_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// licence is the comment every file of the Go tree starts with.
const licence = "// Copyright 2009 The Go Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style\n// license that can be found in the LICENSE file.\n\n"

// codeCorpus has one file that defines ReadFile among files that use it
// more often, a test file named after it, a note that defines it as a
// heading, and prose with its parts.
var codeCorpus = []index.Doc{
	{ID: "os/file.go", Kind: "code", Title: "file.go", Body: licence + "// Package os provides a platform-independent interface to operating system functionality.\npackage os\n\n" +
		strings.Repeat("// File represents an open file descriptor; the methods below read and write it.\n", 20) +
		"// ReadFile reads the named file and returns the contents.\nfunc ReadFile(name string) ([]byte, error) {\n\treturn nil, nil\n}\n"},
	{ID: "io/readfile_test.go", Kind: "test", Title: "readfile_test.go", Body: licence + "package io\n\nfunc TestReadFile(t *testing.T) {\n\tReadFile(\"a\")\n\tReadFile(\"b\")\n\tReadFile(\"c\")\n}\n"},
	{ID: "cmd/main.go", Kind: "code", Title: "main.go", Body: licence + "package main\n\nfunc main() {\n\tdata, _ := os.ReadFile(\"x\")\n\tmore, _ := os.ReadFile(\"y\")\n\tos.ReadFile(\"z\")\n}\n"},
	{ID: "docs/api.md", Kind: "doc", Title: "api.md", Body: "# API\n\n## ReadFile\n\nSee the os package.\n"},
	{ID: "notes.txt", Kind: "doc", Title: "notes.txt", Body: "To read a file, read the file. Read file by file; read, file, read, file."},
}

func rankOf(r *index.Result, id string) int {
	return slices.IndexFunc(r.Hits, func(h index.Hit) bool { return h.ID == id }) + 1
}

func TestDefinitionsRankFirst(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, codeCorpus...)
		for _, mode := range []index.Mode{index.ModeAuto, index.ModeText, index.ModeSubstring} {
			r := search(t, ix, index.Request{Query: "ReadFile ", Mode: mode})
			top := sorted(ids(r)[:min(2, len(r.Hits))])
			if want := []string{"docs/api.md", "os/file.go"}; !slices.Equal(top, want) {
				t.Errorf("%s: first two %q, want the definers %q (all: %q)", mode, top, want, ids(r))
			}
		}
	})
}

func TestDefinitionsOff(t *testing.T) {
	ix, err := index.OpenMemory(&index.Options{SymbolWeight: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix, codeCorpus...)
	r := search(t, ix, index.Request{Query: "ReadFile ", Mode: index.ModeSubstring})
	if rankOf(r, "os/file.go") <= 2 {
		t.Errorf("without SymbolWeight the long defining file ranks %d of %q; the test shows nothing", rankOf(r, "os/file.go"), ids(r))
	}
}

func TestWholeIdentifierAboveParts(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, codeCorpus...)
		r := search(t, ix, index.Request{Query: "ReadFile ", Mode: index.ModeText})
		if last := ids(r)[len(r.Hits)-1]; last != "notes.txt" {
			t.Errorf("the document with only read and file ranks above one with ReadFile: %q", ids(r))
		}
		// A hyphenated word is prose: "low dose" is its parts apart, not
		// a lesser match, as it is for the identifier lowDose.
		mustUpsert(t, ix, index.Doc{ID: "p", Body: "a low dose trial"})
		score := func(q string) float64 {
			r := search(t, ix, index.Request{Query: q, Mode: index.ModeText, IDs: []string{"p"}})
			if len(r.Hits) != 1 {
				t.Fatalf("%q: hits %q", q, ids(r))
			}
			return r.Hits[0].Score
		}
		if hyphen, camel := score("low-dose "), score("lowDose "); hyphen < 1.5*camel {
			t.Errorf("low dose scores %v for low-dose, %v for lowDose: want the parts of lowDose alone weighed less", hyphen, camel)
		}
	})
}

func TestBoilerplateWeighsLess(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "a.go", Title: "a.go", Body: licence + "package a\n\nfunc A() {}\n"},
			index.Doc{ID: "b.md", Title: "b.md", Body: "# Terms\n\nThe code is under a BSD license; see the notes for what it allows and what it asks of you. Every contribution is reviewed twice before it is merged, and every release is signed.\n"})
		r := search(t, ix, index.Request{Query: "license ", Mode: index.ModeText, Explain: true})
		if got := ids(r); !slices.Equal(got, []string{"b.md", "a.go"}) {
			t.Fatalf("hits %q, want b.md above a.go, whose licence is boilerplate", got)
		}
		if e := r.Hits[1].Explain; e == nil || e.Text["boilerplate"] <= 0 || e.Text["body"] != 0 {
			t.Errorf("a.go explain %+v: want its score from the boilerplate field alone", e)
		}
	})
}

func TestExplainSymbols(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, codeCorpus...)
		r := search(t, ix, index.Request{Query: "ReadFile ", Explain: true})
		for _, h := range r.Hits {
			defines := h.ID == "os/file.go" || h.ID == "docs/api.md"
			if got := slices.Contains(h.Explain.Defines, "ReadFile"); got != defines {
				t.Errorf("%s: Defines %q", h.ID, h.Explain.Defines)
			}
			if got := h.Explain.Text["symbols"] > 0; got != defines {
				t.Errorf("%s: Text %v", h.ID, h.Explain.Text)
			}
			sum := 0.0
			for _, x := range h.Explain.Text {
				sum += x
			}
			text := h.Explain.Legs[slices.IndexFunc(h.Explain.Legs, func(l index.LegRank) bool { return l.Leg == index.LegText })].Score
			if diff := sum - text; diff > 1e-9*text || diff < -1e-9*text {
				t.Errorf("%s: fields sum to %v, the text leg's score is %v", h.ID, sum, text)
			}
		}
	})
}
