package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/tokenize"
)

// typoCase is one labelled query: a word from a title with one injected
// typo. A hit is right when the document holds the word itself (its
// analyzed term), whichever document it is.
type typoCase struct {
	DocID string // the title the word came from
	Word  string // as written, lowercased
	Typo  string
	Op    string // delete, insert, substitute or transpose
	term  string // the word's analyzed term
}

// typoStats is one setting's figures over the cases.
type typoStats struct {
	Setting   string
	Queries   int
	Answered  int     // queries with at least one tolerant hit
	Recovered int     // queries with at least one right tolerant hit
	Hits      int     // tolerant hits in the top depth
	Right     int     // of them, documents holding the intended word
	Found     int     // queries whose source document is among the hits
	Precision float64 // Right / Hits
}

func typosCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("typos", flag.ContinueOnError)
	fs.SetOutput(stderr)
	docs := fs.String("docs", "", "docs.jsonl `file` {\"id\",\"title\",\"body\"} (shared/eval/scifact/docs.jsonl); required")
	n := fs.Int("n", 300, "number of labelled queries")
	seed := fs.Uint64("seed", 1, "random `seed` for picking words and typos")
	depth := fs.Int("depth", 10, "hits judged per query")
	show := fs.Int("show", 5, "print this many wrong hits per setting, as examples")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench typos --docs FILE [flags]

Measures fuzzy matching's precision. Indexes the documents in memory, picks
words of five or more letters from their titles, injects one typo in each
(delete, insert, substitute or transpose a letter), and searches the typo
alone in text mode with each fuzzy setting and with the fallback. A fuzzy
hit is right when the document holds the intended word (its analyzed term):
"greece" finding "greener" counts as wrong. Two sets of queries: the typo
anywhere in the word, and the typo in the ending that stemming strips
("configuraton": the stem of "configuration" is "configur").

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *docs == "" || *n < 1 || *depth < 1 || *depth > index.MaxLimit {
		fmt.Fprintln(stderr, "typos: --docs is required; --n >= 1; --depth in 1..100")
		fs.Usage()
		return errUsage
	}
	// A bulk load in batches: scorch indexes it faster in memory.
	ix, err := index.OpenMemory(&index.Options{Backend: index.Scorch})
	if err != nil {
		return err
	}
	defer ix.Close()
	terms := map[string]map[string]bool{} // doc ID -> analyzed terms
	vocab := map[string]bool{}
	text := tokenize.NewText()
	var titles []struct{ id, title string }
	var b index.Batch
	err = eachJSONL(*docs, func(d *struct{ ID, Title, Body string }) error {
		b.Upsert(index.Doc{ID: d.ID, Title: d.Title, Body: d.Body})
		set := map[string]bool{}
		for _, t := range text.Terms(d.Title + "\n" + d.Body) {
			set[t] = true
			vocab[t] = true
		}
		terms[d.ID] = set
		titles = append(titles, struct{ id, title string }{d.ID, d.Title})
		if b.Len() >= 1000 {
			if _, err := ix.Apply(ctx, &b); err != nil {
				return err
			}
			b = index.Batch{}
		}
		return nil
	})
	if err == nil {
		_, err = ix.Apply(ctx, &b)
	}
	if err != nil {
		return err
	}
	for _, at := range []string{"anywhere", "ending"} {
		cases := makeTypos(titles, vocab, *n, *seed, text, at == "ending")
		fmt.Fprintf(stdout, "typo %s: %d documents, %d queries (one typo each, seed %d), top %d judged\n\n", at, len(titles), len(cases), *seed, *depth)
		if err := typoSettings(ctx, stdout, ix, cases, terms, *depth, *show); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// typoSettings searches every case with each tolerant setting and prints
// a line of figures per setting.
func typoSettings(ctx context.Context, stdout io.Writer, ix *index.Index, cases []typoCase, terms map[string]map[string]bool, depth, show int) error {
	fmt.Fprintf(stdout, "%-24s %8s %9s %6s %9s %9s %9s\n", "setting", "answered", "hits", "right", "precision", "recovered", "found src")
	settings := []struct {
		name string
		req  index.Request
	}{
		{"fuzzy auto", index.Request{Fuzzy: index.FuzzyAuto, Fallback: -1}},
		{"fuzzy 1", index.Request{Fuzzy: 1, Fallback: -1}},
		{"fuzzy 2", index.Request{Fuzzy: 2, Fallback: -1}},
		{"fallback (default)", index.Request{}},
		{"fallback, Prefix", index.Request{Prefix: true}},
	}
	for _, st := range settings {
		s := typoStats{Setting: st.name}
		var wrong []string
		for _, c := range cases {
			req := st.req
			req.Query, req.Mode, req.Limit = c.Typo+" ", index.ModeText, depth
			res, err := ix.Search(ctx, req)
			if err != nil {
				return fmt.Errorf("%s %q: %w", st.name, c.Typo, err)
			}
			s.Queries++
			answered, recovered := false, false
			for _, h := range res.Hits {
				if h.ID == c.DocID {
					s.Found++
				}
				if !slices.Contains(h.MatchedIn, index.LegFuzzy) {
					continue
				}
				answered = true
				s.Hits++
				if terms[h.ID][c.term] {
					s.Right++
					recovered = true
				} else if len(wrong) < show {
					wrong = append(wrong, fmt.Sprintf("%s -> %s (for %s): %s", c.Typo, h.ID, c.Word, clip(h.Snippet, 100)))
				}
			}
			if answered {
				s.Answered++
			}
			if recovered {
				s.Recovered++
			}
		}
		if s.Hits > 0 {
			s.Precision = float64(s.Right) / float64(s.Hits)
		}
		fmt.Fprintf(stdout, "%-24s %8d %9d %6d %9.3f %9d %9d\n", s.Setting, s.Answered, s.Hits, s.Right, s.Precision, s.Recovered, s.Found)
		for _, w := range wrong {
			fmt.Fprintf(stdout, "    wrong: %s\n", w)
		}
	}
	return nil
}

// makeTypos picks n words of five or more letters from the titles and
// puts one typo in each, deterministically for a seed. The typo must not
// be an indexed word itself (then it is no typo for the index). With
// ending, only words that stemming shortens are picked and the typo
// falls in the part it strips.
func makeTypos(titles []struct{ id, title string }, vocab map[string]bool, n int, seed uint64, text *tokenize.Text, ending bool) []typoCase {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ops := []string{"delete", "insert", "substitute", "transpose"}
	var out []typoCase
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		t := titles[rng.IntN(len(titles))]
		var words []string
		for _, w := range strings.FieldsFunc(strings.ToLower(t.title), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len(w) >= 5 && isASCIILetters(w) {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			continue
		}
		w := words[rng.IntN(len(words))]
		ts := text.Terms(w)
		if len(ts) != 1 {
			continue // a stop word or a compound
		}
		from := 0
		if ending {
			// Where the word leaves its stem: "configur|ation".
			for from < len(ts[0]) && ts[0][from] == w[from] {
				from++
			}
			if from == len(w) {
				continue
			}
		}
		op := ops[rng.IntN(len(ops))]
		typo := injectTypo(w, op, from, rng)
		if typo == w || slices.ContainsFunc(out, func(c typoCase) bool { return c.Typo == typo }) {
			continue
		}
		if tt := text.Terms(typo); len(tt) != 1 || vocab[tt[0]] {
			continue // a real word of the collection: no typo for the index
		}
		out = append(out, typoCase{DocID: t.id, Word: w, Typo: typo, Op: op, term: ts[0]})
	}
	return out
}

// injectTypo makes one edit of w at or after byte from (a transposition
// of the last letter swaps it with the one before).
func injectTypo(w, op string, from int, rng *rand.Rand) string {
	b := []byte(w)
	i := from + rng.IntN(len(b)-from)
	c := byte('a' + rng.IntN(26))
	switch op {
	case "delete":
		return string(append(b[:i:i], b[i+1:]...))
	case "insert":
		return string(b[:i]) + string(c) + string(b[i:])
	case "substitute":
		for c == b[i] {
			c = byte('a' + rng.IntN(26))
		}
		b[i] = c
		return string(b)
	}
	if i == len(b)-1 {
		i--
	}
	b[i], b[i+1] = b[i+1], b[i]
	return string(b)
}

func isASCIILetters(s string) bool {
	for i := range len(s) {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
