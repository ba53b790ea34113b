// Package gencorpus makes the browser demo's corpus: one document per
// package and per exported, documented identifier of the Go standard
// library, read from the sources under GOROOT/src.
//
// The output is deterministic for a given GOROOT and Options: files are
// selected as for linux/amd64, the most used packages come first (so that
// a page indexing the corpus in slices is useful early), the rest follow
// in path order, and the corpus is cut at Options.Max documents.
package gencorpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Doc is one corpus document, in the JSON form twindex.add and the CLI's
// JSONL reader take.
type Doc struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// Kinds of documents.
const (
	KindPackage = "package"
	KindFunc    = "func"
	KindType    = "type"
	KindMethod  = "method"
	KindConst   = "const"
	KindVar     = "var"
)

// DefaultMax is the corpus size when Options.Max is 0: enough to show
// ranking and substring search across the packages people use most.
const DefaultMax = 3000

// first lists the packages that lead the corpus, most used first.
var first = []string{
	"fmt", "strings", "io", "os", "errors", "bufio", "bytes", "strconv", "time", "context",
	"sort", "slices", "maps", "sync", "net/http", "net/url", "encoding/json", "path/filepath",
	"io/fs", "regexp", "unicode/utf8", "math", "log/slog", "os/exec", "testing", "flag",
	"encoding/csv", "encoding/binary", "encoding/base64", "crypto/sha256", "html/template",
	"text/template", "sync/atomic", "net", "path", "embed", "log", "unicode", "math/rand/v2",
}

// Options control Generate. A nil *Options means the defaults.
type Options struct {
	// Max caps the number of documents; 0 means DefaultMax, negative
	// means no cap.
	Max int
	// Packages, if set, keeps only packages whose import path is one of
	// them or lies under one of them ("net" keeps net/http).
	Packages []string
}

// skipDir reports whether a source directory holds no public standard
// library package.
func skipDir(rel string) bool {
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		switch part {
		case "internal", "testdata", "vendor", "cmd", "builtin":
			return true
		}
		if strings.HasPrefix(part, ".") || strings.HasPrefix(part, "_") {
			return true
		}
	}
	return false
}

// Generate reads the packages under goroot/src and returns their documents.
// Cost: it parses every non-test Go file of the selected packages; stopping
// at Options.Max skips the rest.
func Generate(goroot string, opts *Options) ([]Doc, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Max == 0 {
		o.Max = DefaultMax
	}
	src := filepath.Join(goroot, "src")
	var dirs []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, path)
		if rel != "." && skipDir(rel) {
			return filepath.SkipDir
		}
		if rel != "." && wanted(filepath.ToSlash(rel), o.Packages) {
			dirs = append(dirs, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", src, err)
	}
	rank := map[string]int{}
	for i, p := range first {
		rank[filepath.FromSlash(p)] = i + 1
	}
	sort.Slice(dirs, func(i, j int) bool {
		ri, rj := rank[dirs[i]], rank[dirs[j]]
		if ri != rj {
			return ri != 0 && (rj == 0 || ri < rj)
		}
		return dirs[i] < dirs[j]
	})
	var docs []Doc
	seen := map[string]bool{}
	for _, rel := range dirs {
		pkgDocs, err := packageDocs(filepath.Join(src, rel), filepath.ToSlash(rel))
		if err != nil {
			return nil, err
		}
		for _, d := range pkgDocs {
			if seen[d.ID] {
				continue
			}
			seen[d.ID] = true
			docs = append(docs, d)
			if o.Max > 0 && len(docs) == o.Max {
				return docs, nil
			}
		}
	}
	return docs, nil
}

func wanted(path string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// linux selects files as a linux/amd64 build does, so that a name declared
// once per platform is documented once.
var linux = func() build.Context {
	c := build.Default
	c.GOOS, c.GOARCH, c.CgoEnabled = "linux", "amd64", false
	return c
}()

// packageDocs documents the package in dir, nil if dir holds none.
func packageDocs(dir, importPath string) ([]Doc, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := linux.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			// A few files in GOROOT are deliberately broken or
			// generated for one platform; a demo corpus can do without.
			continue
		}
		if f.Name.Name == "main" || strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil
	}
	// Files of several packages (e.g. a package and a stray "ignore"
	// program) share a directory rarely; keep the majority package.
	files = majorityPackage(files)
	p, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return nil, fmt.Errorf("document %s: %w", importPath, err)
	}
	g := gen{fset: fset, pkg: p.Name, path: importPath}
	docs := []Doc{{ID: importPath, Kind: KindPackage, Title: importPath, Body: "package " + p.Name + "\n\n" + clip(p.Doc, maxBody)}}
	docs = append(docs, g.values(p.Consts, KindConst)...)
	docs = append(docs, g.values(p.Vars, KindVar)...)
	docs = append(docs, g.funcs(p.Funcs, "")...)
	for _, t := range p.Types {
		if t.Doc != "" {
			docs = append(docs, Doc{ID: importPath + "." + t.Name, Kind: KindType, Title: g.pkg + "." + t.Name,
				Body: g.decl(t.Decl) + "\n\n" + t.Doc})
		}
		docs = append(docs, g.values(t.Consts, KindConst)...)
		docs = append(docs, g.values(t.Vars, KindVar)...)
		docs = append(docs, g.funcs(t.Funcs, "")...)
		docs = append(docs, g.funcs(t.Methods, t.Name)...)
	}
	return docs, nil
}

func majorityPackage(files []*ast.File) []*ast.File {
	count := map[string]int{}
	best := ""
	for _, f := range files {
		count[f.Name.Name]++
		if n := count[f.Name.Name]; n > count[best] || n == count[best] && f.Name.Name < best {
			best = f.Name.Name
		}
	}
	kept := files[:0]
	for _, f := range files {
		if f.Name.Name == best {
			kept = append(kept, f)
		}
	}
	return kept
}

type gen struct {
	fset *token.FileSet
	pkg  string // package name, as titles spell it
	path string // import path, as IDs spell it
}

// funcs documents functions, or methods of recv when recv is not "".
func (g gen) funcs(fs []*doc.Func, recv string) []Doc {
	var docs []Doc
	for _, f := range fs {
		if f.Doc == "" || !ast.IsExported(f.Name) {
			continue
		}
		name, kind := f.Name, KindFunc
		if recv != "" {
			name, kind = recv+"."+f.Name, KindMethod
		}
		docs = append(docs, Doc{ID: g.path + "." + name, Kind: kind, Title: g.pkg + "." + name,
			Body: g.decl(f.Decl) + "\n\n" + f.Doc})
	}
	return docs
}

// values documents a const or var group under its first exported name.
func (g gen) values(vs []*doc.Value, kind string) []Doc {
	var docs []Doc
	for _, v := range vs {
		if v.Doc == "" || len(v.Names) == 0 {
			continue
		}
		name := ""
		for _, n := range v.Names {
			if ast.IsExported(n) {
				name = n
				break
			}
		}
		if name == "" {
			continue
		}
		docs = append(docs, Doc{ID: g.path + "." + name, Kind: kind, Title: g.pkg + "." + name,
			Body: g.decl(v.Decl) + "\n\n" + v.Doc})
	}
	return docs
}

// maxDecl bounds a printed declaration: a long const block or struct
// would otherwise drown the doc comment. maxBody bounds a package's doc
// comment: the browser indexes every byte, and the first pages of a long
// package overview are the ones people search.
const (
	maxDecl = 1500
	maxBody = 4096
)

// clip cuts s to at most max bytes at a line break, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := strings.LastIndexByte(s[:max], '\n')
	if cut < 0 {
		cut = max
	}
	return s[:cut] + "\n[…]"
}

func (g gen) decl(node ast.Node) string {
	if fd, ok := node.(*ast.FuncDecl); ok {
		// The signature, not the body.
		cp := *fd
		cp.Body = nil
		cp.Doc = nil
		node = &cp
	}
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, g.fset, node); err != nil {
		return ""
	}
	return clip(b.String(), maxDecl)
}

// WriteJSON writes docs as one JSON array, the form the page loads.
func WriteJSON(w io.Writer, docs []Doc) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if docs == nil {
		docs = []Doc{}
	}
	if err := enc.Encode(docs); err != nil {
		return fmt.Errorf("write corpus: %w", err)
	}
	return nil
}

// WriteJSONL writes docs one per line, the form `twindex index` reads.
func WriteJSONL(w io.Writer, docs []Doc) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return fmt.Errorf("write corpus: %w", err)
		}
	}
	return nil
}
