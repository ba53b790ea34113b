package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
)

// tailClasses are the classes of the tail query set, in the order they are
// written: the queries a code search box gets most that the yardstick's
// 300 (make_queries.py: words of three letters and more) leave out.
var tailClasses = []string{"short", "common", "mixed", "phrase"}

// tailConfig is one run of the tail command.
type tailConfig struct {
	Corpus   string
	Out      string
	Seed     uint64
	PerClass int
}

func tailCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := tailConfig{}
	fs := flag.NewFlagSet("tail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus `NAME.jsonl` (shared/bench/make_corpus.py); required")
	fs.StringVar(&cfg.Out, "out", "", "the query set to write, `tail.jsonl` (the shape of queries.jsonl); required")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed: the same corpus and seed give the same queries")
	fs.IntVar(&cfg.PerClass, "per-class", 40, "queries per class")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench tail --corpus NAME.jsonl --out tail.jsonl [flags]

Writes the tail query set, drawn from the corpus with a fixed seed, in the
shape of make_queries.py's queries.jsonl, so that yardstick --tail and
shared/bench/fts5_ref.py both take it. Classes:
  short   a word of one or two letters (fd, io, x), among the corpus's
          most widespread such words
  common  two of the corpus's most widespread words of three letters or more
  mixed   a word of one or two letters and the word of four or more beside
          it in a document, as typed ("fd close" from fd.Close)
  phrase  two or three consecutive words of a document's text, quoted

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Corpus == "" || cfg.Out == "" || cfg.PerClass < 1 {
		fmt.Fprintln(stderr, "tail: --corpus and --out are required, --per-class >= 1")
		fs.Usage()
		return errUsage
	}
	qs, err := tailQueries(cfg)
	if err != nil {
		return err
	}
	if err := writeJSONL(cfg.Out, qs); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d queries to %s\n", len(qs), cfg.Out)
	return nil
}

// words splits text into its runs of letters and digits, lowercased.
func splitWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// letters reports whether w is all letters.
func letters(w string) bool {
	return w != "" && !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
}

// tailQueries draws cfg.PerClass queries of each tail class from the
// corpus. Every draw is from lists sorted independently of map order, so
// the same corpus and seed give the same queries.
func tailQueries(cfg tailConfig) ([]benchQuery, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7a11))
	df := map[string]int{} // documents holding each word
	var docs []string      // each document's title and body
	err := eachJSONL(cfg.Corpus, func(d *benchDoc) error {
		text := d.Title + "\n" + d.Body
		docs = append(docs, text)
		seen := map[string]bool{}
		for _, w := range splitWords(text) {
			if !seen[w] {
				seen[w] = true
				df[w]++
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: no documents", cfg.Corpus)
	}
	// widespread returns the n words of the given lengths in runes held
	// by the most documents, most first, ties by word.
	widespread := func(minLen, maxLen, n int) []string {
		var ws []string
		for w := range df {
			if l := len([]rune(w)); l >= minLen && l <= maxLen && letters(w) {
				ws = append(ws, w)
			}
		}
		slices.SortFunc(ws, func(a, b string) int {
			if c := cmp.Compare(df[b], df[a]); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		return ws[:min(n, len(ws))]
	}
	var out []benchQuery
	add := func(class, text string) {
		out = append(out, benchQuery{ID: fmt.Sprintf("%s-%02d", class, countClass(out, class)), Class: class, Text: text})
	}
	seen := map[string]bool{}
	fresh := func(text string) bool {
		if seen[text] {
			return false
		}
		seen[text] = true
		return true
	}

	short := widespread(1, 2, 4*cfg.PerClass)
	for _, i := range rng.Perm(len(short))[:min(cfg.PerClass, len(short))] {
		add("short", short[i])
	}
	common := widespread(3, 64, 100)
	for tries := 0; countClass(out, "common") < cfg.PerClass && tries < 100*cfg.PerClass && len(common) > 1; tries++ {
		a, b := common[rng.IntN(len(common))], common[rng.IntN(len(common))]
		if a != b && fresh(a+" "+b) {
			add("common", a+" "+b)
		}
	}
	for tries := 0; countClass(out, "mixed") < cfg.PerClass && tries < 1000*cfg.PerClass; tries++ {
		ws := splitWords(docs[rng.IntN(len(docs))])
		if len(ws) < 2 {
			continue
		}
		i := rng.IntN(len(ws) - 1)
		a, b := ws[i], ws[i+1]
		la, lb := len([]rune(a)), len([]rune(b))
		if !letters(a) || !letters(b) || !(la <= 2 && lb >= 4 || lb <= 2 && la >= 4) {
			continue
		}
		if fresh(a + " " + b) {
			add("mixed", a+" "+b)
		}
	}
	for tries := 0; countClass(out, "phrase") < cfg.PerClass && tries < 1000*cfg.PerClass; tries++ {
		// Words as a line of prose has them: split on spaces only, so that
		// a phrase is what a reader would copy from the text.
		lines := strings.Split(docs[rng.IntN(len(docs))], "\n")
		ws := strings.Fields(lines[rng.IntN(len(lines))])
		n := 2 + rng.IntN(2)
		if len(ws) < n {
			continue
		}
		i := rng.IntN(len(ws) - n + 1)
		phrase := ws[i : i+n]
		if slices.ContainsFunc(phrase, func(w string) bool { return !letters(w) }) {
			continue
		}
		if text := `"` + strings.ToLower(strings.Join(phrase, " ")) + `"`; fresh(text) {
			add("phrase", text)
		}
	}
	for _, c := range tailClasses {
		if n := countClass(out, c); n < cfg.PerClass {
			return nil, fmt.Errorf("%s: found %d %s queries of %d", cfg.Corpus, n, c, cfg.PerClass)
		}
	}
	return out, nil
}

func countClass(qs []benchQuery, class string) int {
	n := 0
	for _, q := range qs {
		if q.Class == class {
			n++
		}
	}
	return n
}
