package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/twindex/twindex/index"
)

// symbolCase is one symbol of the definitions benchmark: a name that one
// file of the tree declares and others mention.
type symbolCase struct {
	Name     string
	File     string // the defining file, relative to the tree's root
	Mentions int    // other .go files that hold the name as a word
}

func symbolsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("symbols", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pick := fs.String("pick", "", "pick the symbols from the Go tree rooted at `dir` (GOROOT/src) and print the list")
	n := fs.Int("n", 50, "symbols to pick")
	minMentions := fs.Int("mentions", 5, "fewest other files that must mention a picked symbol")
	dir := fs.String("index", "", "index `dir` to rank in (twindex index --index DIR GOROOT/src)")
	list := fs.String("list", "testdata/symbols/goroot.tsv", "symbol list `file` (name, file, mentions)")
	mode := fs.String("mode", "auto", "search `mode`")
	depth := fs.Int("depth", 100, "hits looked at per query (1..100)")
	verbose := fs.Bool("v", false, "print every symbol's rank")
	var opts index.Options
	fs.Float64Var(&opts.SymbolWeight, "symbol-weight", 0, "index.Options.SymbolWeight (0: the default)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench symbols --pick GOROOT/src > LIST
       twindex-bench symbols --index DIR [--list LIST] [flags]

Measures whether a search for a symbol finds the file that defines it first.
--pick parses every .go file under the root with go/parser and keeps the
exported top-level functions and types of four or more characters that
exactly one file declares (not a _test.go file, not under testdata) and that
at least --mentions other .go files hold as a word; it orders them by the
SHA-256 of the name and prints the first N, so the list is reproducible from
the same tree. --index searches each name (the default request: simple
syntax, as the CLI sends it) and prints how often the defining file is
first, in the top 3 and in the top 10, and the mean reciprocal rank.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *pick != "":
		cases, err := pickSymbols(ctx, *pick, *n, *minMentions)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(stdout)
		for _, c := range cases {
			fmt.Fprintf(w, "%s\t%s\t%d\n", c.Name, c.File, c.Mentions)
		}
		return w.Flush()
	case *dir != "":
		m, err := index.ParseMode(*mode)
		if err != nil {
			return err
		}
		return rankSymbols(ctx, *dir, *list, &opts, m, *depth, *verbose, stdout)
	}
	fmt.Fprintln(stderr, "symbols: --pick or --index is required")
	fs.Usage()
	return errUsage
}

// pickSymbols chooses the benchmark's symbols from the Go tree at root.
func pickSymbols(ctx context.Context, root string, n, minMentions int) ([]symbolCase, error) {
	definers := map[string][]string{} // exported name -> files declaring it at top level
	files := map[string]int{}         // word -> .go files holding it
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		seen := map[string]bool{}
		for _, w := range strings.FieldsFunc(string(src), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
			if !seen[w] {
				seen[w] = true
				files[w]++
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil // testdata with deliberate errors: it declares nothing
		}
		declared := map[string]bool{}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok {
						declared[ts.Name.Name] = true
					}
				}
			}
		}
		for name := range declared {
			if ast.IsExported(name) && len(name) >= 4 {
				definers[name] = append(definers[name], rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	type keyed struct {
		symbolCase
		key string
	}
	var all []keyed
	for name, fs := range definers {
		f := fs[0]
		if len(fs) != 1 || strings.HasSuffix(f, "_test.go") || slices.Contains(strings.Split(f, "/"), "testdata") {
			continue
		}
		if m := files[name] - 1; m >= minMentions {
			h := sha256.Sum256([]byte(name))
			all = append(all, keyed{symbolCase{name, f, m}, hex.EncodeToString(h[:])})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	out := make([]symbolCase, 0, n)
	for _, k := range all[:min(n, len(all))] {
		out = append(out, k.symbolCase)
	}
	return out, nil
}

// rankSymbols searches each symbol of the list in the index at dir and
// reports where its defining file ranks.
func rankSymbols(ctx context.Context, dir, list string, opts *index.Options, mode index.Mode, depth int, verbose bool, stdout io.Writer) error {
	data, err := os.ReadFile(list)
	if err != nil {
		return err
	}
	var cases []symbolCase
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			return fmt.Errorf("%s:%d: want name<TAB>file", list, i+1)
		}
		cases = append(cases, symbolCase{Name: f[0], File: f[1]})
	}
	ix, err := index.Open(dir, opts)
	if err != nil {
		return err
	}
	defer ix.Close()
	var top1, top3, top10 int
	var rr float64
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	for _, c := range cases {
		res, err := ix.Search(ctx, index.Request{Query: c.Name, Mode: mode, Limit: depth})
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		rank := 0
		for i, h := range res.Hits {
			if h.ID == c.File || strings.HasSuffix(h.ID, "/"+c.File) {
				rank = i + 1
				break
			}
		}
		if rank > 0 {
			rr += 1 / float64(rank)
		}
		for _, t := range []struct {
			n   int
			sum *int
		}{{1, &top1}, {3, &top3}, {10, &top10}} {
			if rank > 0 && rank <= t.n {
				*t.sum++
			}
		}
		if verbose {
			first := ""
			if len(res.Hits) > 0 {
				first = res.Hits[0].ID
			}
			fmt.Fprintf(w, "%-28s %-52s rank %3d of %5d  first %s\n", c.Name, c.File, rank, res.Total, first)
		}
	}
	fmt.Fprintf(w, "| mode | symbols | first | top 3 | top 10 | MRR |\n|---|--:|--:|--:|--:|--:|\n")
	fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %.3f |\n", mode, len(cases), top1, top3, top10, rr/float64(max(len(cases), 1)))
	return nil
}
