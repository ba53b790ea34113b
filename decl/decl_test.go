package decl_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/decl"
)

func names(f decl.File) []string {
	out := []string{}
	for _, n := range f.Names {
		out = append(out, n.Text)
	}
	return out
}

func TestScan(t *testing.T) {
	tests := []struct {
		name string
		lang decl.Lang
		src  string
		want []string
	}{
		{"go funcs and methods", decl.Go, "package os\n\nfunc ReadFile(name string) ([]byte, error) {\n\treturn nil, nil\n}\n\nfunc (f *File) Read(b []byte) (int, error) {}\nfunc (Root) ReadFile[T any]() {}\n",
			[]string{"ReadFile", "Read", "ReadFile"}},
		{"go types, vars, consts and groups", decl.Go, "type Reader interface {\n\tRead(p []byte) (n int, err error)\n}\nvar ErrX = errors.New(\"x\")\nconst (\n\tA = iota\n\tB, C\n\t// comment\n\t_ = 1\n)\nvar (\n\tx int\n)\ntype (\n\tT1 int\n\tT2 struct{\n\t\tField int\n\t}\n)\n",
			[]string{"Reader", "ErrX", "A", "B", "C", "x", "T1", "T2"}},
		{"go ignores strings and comments", decl.Go, "var s = `\nfunc NotMe() {}\n`\n/*\nfunc NorMe() {}\n*/\n// func Comment()\nfunc Me() {}\n",
			[]string{"s", "Me"}},
		{"go indented is not top level", decl.Go, "func f() {\n\ttype local int\n\tvar v int\n}\n", []string{"f"}},
		{"python", decl.Python, "import os\n\nMAX_SIZE = 10\nname: str = 'x'\nif x == 1:\n    pass\n\nclass Parser(Base):\n    def parse(self):\n        y = 2\n\nasync def fetch():\n    '''\n    def not_me():\n    '''\n",
			[]string{"MAX_SIZE", "name", "Parser", "parse", "fetch"}},
		{"javascript and typescript", decl.JavaScript, "export default function render(a) {}\nfunction* gen() {}\nconst $el = 1;\nexport const api = {};\nclass Widget extends Base {\n  constructor() {}\n  async load(url) {\n    if (x) {\n    }\n    const local = 1;\n  }\n  static get size() {\n  }\n}\nexport interface Props {}\ntype Id = string;\nexport enum Color { Red }\n",
			[]string{"render", "gen", "$el", "api", "Widget", "load", "size", "Props", "Id", "Color"}},
		{"rust", decl.Rust, "pub fn read_file(p: &Path) -> Result<()> {}\npub(crate) struct Config {}\nimpl Config {\n    pub async fn load() {}\n    const fn size() {}\n}\nenum State { A }\ntrait Store {}\npub type Id = u64;\nconst MAX: usize = 1;\nstatic mut COUNT: u32 = 0;\nmod net;\nmacro_rules! log {}\nunsafe extern \"C\" fn callback() {}\nfn lifetimes<'a>(x: &'a str) {}\n",
			[]string{"read_file", "Config", "load", "size", "State", "Store", "Id", "MAX", "COUNT", "net", "log", "callback", "lifetimes"}},
		{"java", decl.Java, "package a;\npublic class Files {\n    private static final int SIZE = 1;\n    public Files() {}\n    public static byte[] readAllBytes(Path path) throws IOException {\n        return read(path);\n    }\n    List<String> lines(Path p) {\n        foo(x);\n        int y = bar(x);\n    }\n    interface Visitor {}\n    enum Mode { A }\n    record Point(int x, int y) {}\n    public @interface Marker {}\n}\n",
			[]string{"Files", "Files", "readAllBytes", "lines", "Visitor", "Mode", "Point", "Marker"}},
		{"c and c++", decl.C, "#include <stdio.h>\n#define MAX_LEN 10\nstruct node {\n  int x;\n};\nstruct fwd;\ntypedef struct {\n  int y;\n} point;\ntypedef int (*cmp_fn)(int, int);\ntypedef unsigned long size_type;\nstatic int\nparse_args(int argc, char **argv)\n{\n  if (argc) {\n    return helper(argc);\n  }\n}\nint proto(int);\nvoid Widget::draw(int x) {\n}\nclass Widget : public Base {\n};\nenum class Color {\n};\n",
			[]string{"MAX_LEN", "node", "point", "cmp_fn", "size_type", "parse_args", "draw", "Widget", "Color"}},
		{"markdown", decl.Markdown, "# Title\n\nText.\n\n## Install it ##\n\n```sh\n# not a heading\n```\n\nSetext Heading\n--------------\n\n    # indented code\n#NotAHeading\n",
			[]string{"Title", "Install it", "Setext Heading"}},
		{"none finds nothing", decl.None, "func F() {}\n", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := decl.Scan(tt.lang, tt.src)
			if got := names(f); !slices.Equal(got, tt.want) {
				t.Errorf("names %q, want %q", got, tt.want)
			}
			checkFile(t, tt.src, f)
		})
	}
}

func TestBoilerplate(t *testing.T) {
	goHeader := "// Copyright 2009 The Go Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style\n// license that can be found in the LICENSE file.\n\n"
	tests := []struct {
		name string
		lang decl.Lang
		src  string
		want int
	}{
		{"go licence", decl.Go, goHeader + "// Package os does things.\npackage os\n", len(goHeader)},
		{"go doc comment only", decl.Go, "// Package os does things.\npackage os\n", 0},
		{"c block", decl.C, "/*\n * Copyright (c) 2020 Someone\n */\n#include <x.h>\n", len("/*\n * Copyright (c) 2020 Someone\n */\n")},
		{"python shebang", decl.Python, "#!/usr/bin/env python\n# SPDX-License-Identifier: MIT\n\nimport os\n", len("#!/usr/bin/env python\n# SPDX-License-Identifier: MIT\n\n")},
		{"whole file", decl.Go, "// Copyright 2020\n", len("// Copyright 2020\n")},
		{"unclosed block", decl.C, "/* Copyright\nint x;\n", 0},
		{"markdown never", decl.Markdown, "# Copyright\n", 0},
		{"none", decl.None, "# Licensed under MIT\ntext\n", len("# Licensed under MIT\n")},
		{"code first", decl.Go, "package x\n// Copyright\n", 0},
		{"crlf", decl.Go, "// Copyright\r\n\r\npackage x\r\n", len("// Copyright\r\n\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := decl.Scan(tt.lang, tt.src)
			if f.Boilerplate != tt.want {
				t.Errorf("Boilerplate %d (%q), want %d", f.Boilerplate, tt.src[:f.Boilerplate], tt.want)
			}
			checkFile(t, tt.src, f)
		})
	}
}

func TestFind(t *testing.T) {
	src := "package os\n\nfunc (f *File) ReadFile() {}\nfunc ReadFile() {}\n"
	n, ok := decl.Find(decl.Go, src, func(name string) bool { return name == "ReadFile" })
	if !ok || n.Start != strings.Index(src, "ReadFile") {
		t.Errorf("Find ReadFile: %+v %v, want the method's name", n, ok)
	}
	if n, ok := decl.Find(decl.Go, src, func(string) bool { return false }); ok {
		t.Errorf("Find nothing: %+v", n)
	}
	if n, ok := decl.Find(decl.None, src, func(string) bool { return true }); ok {
		t.Errorf("Find in None: %+v", n)
	}
}

func TestLangOf(t *testing.T) {
	for name, want := range map[string]decl.Lang{
		"os/file.go": decl.Go, "a/B.JAVA": decl.Java, "x.tsx": decl.JavaScript, "lib.rs": decl.Rust,
		"README.md": decl.Markdown, "x.hpp": decl.C, "setup.py": decl.Python, "Makefile": decl.None,
		"go": decl.Go, "markdown": decl.Markdown, "notes.txt": decl.None, "": decl.None,
		"bufio.Scanner": decl.None, "X.Md": decl.Markdown, "a.MARKDOWN": decl.Markdown, "PYTHON": decl.Python,
		"a.\u212Aey": decl.None, "a.mar\u212Adown": decl.Markdown, "a.very-long-extension-name": decl.None,
	} {
		if got := decl.LangOf(name); got != want {
			t.Errorf("LangOf(%q) = %v, want %v", name, got, want)
		}
	}
	// A document's ID, kind and title: the first that tells wins.
	for _, tc := range []struct {
		names []string
		want  decl.Lang
	}{
		{[]string{"notes/a", "go", "x.py"}, decl.Go},
		{[]string{"a.rs", "go"}, decl.Rust},
		{[]string{"a", "", "README.md"}, decl.Markdown},
		{[]string{"a", "text"}, decl.None},
		{nil, decl.None},
	} {
		if got := decl.LangOf(tc.names...); got != tc.want {
			t.Errorf("LangOf(%q) = %v, want %v", tc.names, got, tc.want)
		}
	}
}

// LangOf allocates nothing for an ASCII name, which a search asks of
// every hit.
func TestLangOfAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { decl.LangOf("bufio.Scanner", "func", "bufio.Scanner") }); n != 0 {
		t.Errorf("LangOf allocates %v times", n)
	}
}

// TestGoAgainstParser compares the Go scanner with go/parser on real
// files: every top-level function, method, type, variable and constant
// the parser sees, and nothing else.
func TestGoAgainstParser(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "index", "*.go"))
	if err != nil || len(files) < 10 {
		t.Fatalf("glob: %v (%d files)", err, len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				want = append(want, d.Name.Name)
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						want = append(want, sp.Name.Name)
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							if n.Name != "_" {
								want = append(want, n.Name)
							}
						}
					}
				}
			}
		}
		got := names(decl.Scan(decl.Go, string(src)))
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", path, got, want)
		}
	}
}

// checkFile checks the package's invariants on one result.
func checkFile(t *testing.T, src string, f decl.File) {
	t.Helper()
	if len(f.Names) > decl.MaxNames {
		t.Errorf("%d names, limit %d", len(f.Names), decl.MaxNames)
	}
	last := -1
	for _, n := range f.Names {
		if n.Start < 0 || n.End > len(src) || n.Start >= n.End || src[n.Start:n.End] != n.Text {
			t.Fatalf("name %+v is not src[Start:End]", n)
		}
		if n.End-n.Start > decl.MaxNameBytes {
			t.Errorf("name of %d bytes", n.End-n.Start)
		}
		if n.Start < last {
			t.Errorf("names out of order at %+v", n)
		}
		last = n.Start
	}
	b := f.Boilerplate
	if b < 0 || b > len(src) || b > 0 && b < len(src) && src[b-1] != '\n' {
		t.Errorf("Boilerplate %d does not end a line of %q", b, src[:min(len(src), 80)])
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"", "func F() {}\n", "/*", "`", "'''", "#", "# h\n===\n", "\xff\x00", "func (", "typedef (*", "}", "class ", "pub(",
		strings.Repeat("#", 300) + " x"} {
		f.Add(uint8(decl.Go), s)
	}
	f.Fuzz(func(t *testing.T, lang uint8, src string) {
		l := decl.Lang(lang % uint8(decl.Markdown+1))
		file := decl.Scan(l, src)
		checkFile(t, src, file)
		if len(file.Names) == 0 {
			return
		}
		// Find stops at the first name Scan returns with that text.
		want := file.Names[len(file.Names)/2].Text
		first := file.Names[slices.IndexFunc(file.Names, func(n decl.Name) bool { return n.Text == want })]
		if got, ok := decl.Find(l, src, func(n string) bool { return n == want }); !ok || got != first {
			t.Errorf("Find(%q) = %+v, %v; Scan's first is %+v", want, got, ok, first)
		}
	})
}

// BenchmarkScan scans the engine's Go sources (index/*.go) as one text.
func BenchmarkScan(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "index", "*.go"))
	var src strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		src.Write(data)
	}
	text := src.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		decl.Scan(decl.Go, text)
	}
}
