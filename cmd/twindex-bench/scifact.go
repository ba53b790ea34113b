package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/twindex/twindex/index"
)

// scifactConfig is one relevance run over an eval collection laid out as
// shared/eval/scifact: docs.jsonl {"id","title","body"}, queries.jsonl
// {"id","text"}, qrels.tsv (qid<TAB>docid<TAB>rel).
type scifactConfig struct {
	Data   string // collection directory
	Out    string // run files are Out.<mode>.run
	Modes  []index.Mode
	Join   string // "and": the engine's own query; "or": client-side emulation
	Depth  int
	Score  string // score.py; "" skips scoring
	Python string
}

// scifactRun is what one mode produced.
type scifactRun struct {
	Mode     string
	Path     string
	Queries  int
	Empty    int // queries with no hit
	Errors   int
	MSPerQ   float64
	Scores   map[string]float64 // metric -> value, from score.py
	ScoreOut string
}

func scifactCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg scifactConfig
	var mode string
	fs := flag.NewFlagSet("scifact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Data, "data", "", "collection `dir` with docs.jsonl, queries.jsonl, qrels.tsv (shared/eval/scifact); required")
	fs.StringVar(&cfg.Out, "out", "", "run file `prefix`: writes PREFIX.<mode>.run; required")
	fs.StringVar(&mode, "mode", "all", "`mode`: auto, substring, text or all")
	fs.StringVar(&cfg.Join, "join", "and", "`how` query words combine: and (the engine's query: every word must match) or\n"+
		"or (client-side emulation of fts5_baseline.py's primary OR runs: one search per word,\n"+
		"top DEPTH each, scores summed per doc; substring mode skips words under 3 chars as FTS5 does)")
	fs.IntVar(&cfg.Depth, "depth", 100, "hits per query (1..100)")
	fs.StringVar(&cfg.Score, "score", "", "score.py `path`; default DATA/../score.py; \"-\" skips scoring")
	fs.StringVar(&cfg.Python, "python", "python3", "python `interpreter` for score.py")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench scifact --data DIR --out PREFIX [flags]

Indexes the collection in memory (title and body), runs every query of
queries.jsonl (as shared/eval/fts5_baseline.py does; score.py averages over the
queries with relevant docs in qrels.tsv), sanitized like fts5_baseline.py
(quotes and control characters deleted, non-alphanumerics trimmed from each
word's ends), writes TREC runs PREFIX.<mode>.run ("qid Q0 docid rank score
twindex-<mode>") and prints score.py's verdict on each.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Data == "" || cfg.Out == "" {
		fmt.Fprintln(stderr, "scifact: --data and --out are required")
		fs.Usage()
		return errUsage
	}
	if mode == "all" {
		cfg.Modes = []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText}
	} else if m, err := index.ParseMode(mode); err != nil || m.Runs(index.LegVector) {
		fmt.Fprintf(stderr, "scifact: unknown --mode %q (want all, or a mode without the vector leg)\n", mode)
		return errUsage
	} else {
		cfg.Modes = []index.Mode{m}
	}
	switch cfg.Score {
	case "":
		cfg.Score = filepath.Join(cfg.Data, "..", "score.py")
	case "-":
		cfg.Score = ""
	}
	runs, err := scifact(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	printScifact(stdout, cfg, runs)
	return nil
}

func scifact(ctx context.Context, cfg scifactConfig, log io.Writer) ([]scifactRun, error) {
	if cfg.Join != "and" && cfg.Join != "or" {
		return nil, fmt.Errorf("--join %q: want and or or", cfg.Join)
	}
	if cfg.Depth < 1 || cfg.Depth > index.MaxLimit {
		return nil, fmt.Errorf("--depth %d out of range 1..%d", cfg.Depth, index.MaxLimit)
	}
	// A bulk load in batches: scorch indexes it faster in memory.
	ix, err := index.OpenMemory(&index.Options{Backend: index.Scorch})
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	t0 := time.Now()
	var b index.Batch
	n := 0
	err = eachJSONL(filepath.Join(cfg.Data, "docs.jsonl"), func(d *struct{ ID, Title, Body string }) error {
		b.Upsert(index.Doc{ID: d.ID, Title: d.Title, Body: d.Body})
		n++
		if b.Len() >= 1000 {
			_, err := ix.Apply(ctx, &b)
			b.Reset()
			return err
		}
		return nil
	})
	if err == nil && b.Len() > 0 {
		_, err = ix.Apply(ctx, &b)
	}
	// No Optimize: on a memory index it waits forever in scorch's
	// ForceMerge (bleve v2.5.7), and segment count does not change ranking.
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", cfg.Data, err)
	}
	var qs []benchQuery
	if err := eachJSONL(filepath.Join(cfg.Data, "queries.jsonl"), func(q *benchQuery) error {
		qs = append(qs, *q)
		return nil
	}); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "scifact: %d docs indexed in %.2f s, %d queries, join %s\n", n, time.Since(t0).Seconds(), len(qs), cfg.Join)

	var runs []scifactRun
	for _, m := range cfg.Modes {
		tag := "twindex-" + string(m)
		if cfg.Join == "or" {
			tag += "-or"
		}
		r := scifactRun{Mode: string(m), Path: cfg.Out + "." + strings.TrimPrefix(tag, "twindex-") + ".run", Queries: len(qs)}
		var sb strings.Builder
		start := time.Now()
		for _, q := range qs {
			hits, err := scifactSearch(ctx, ix, m, cfg, sanitize(q.Text))
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				r.Errors++
				fmt.Fprintf(log, "  %s query %s: %s\n", m, q.ID, err)
			}
			if len(hits) == 0 {
				r.Empty++
			}
			for i, h := range hits {
				fmt.Fprintf(&sb, "%s Q0 %s %d %s %s\n", q.ID, h.id, i+1, strconv.FormatFloat(h.score, 'g', -1, 64), tag)
			}
		}
		r.MSPerQ = float64(time.Since(start).Microseconds()) / 1000 / float64(max(len(qs), 1))
		if dir := filepath.Dir(r.Path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
		}
		if err := os.WriteFile(r.Path, []byte(sb.String()), 0o644); err != nil {
			return nil, err
		}
		if cfg.Score != "" {
			if r.ScoreOut, r.Scores, err = score(ctx, cfg, r.Path); err != nil {
				return nil, err
			}
		}
		fmt.Fprintf(log, "  %s: %.2f ms/query, %d without hits -> %s\n", tag, r.MSPerQ, r.Empty, r.Path)
		runs = append(runs, r)
	}
	return runs, nil
}

type rankedHit struct {
	id    string
	score float64
}

// scifactSearch runs one sanitized query. With join "and" it is one search
// of the words joined by spaces; with "or" one search per word, the scores of
// each document summed, best first, ties by id.
func scifactSearch(ctx context.Context, ix *index.Index, m index.Mode, cfg scifactConfig, words []string) ([]rankedHit, error) {
	search := func(q string) ([]rankedHit, error) {
		res, err := ix.Search(ctx, index.Request{Query: q, Mode: m, Limit: cfg.Depth})
		if errors.Is(err, index.ErrEmptyQuery) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		out := make([]rankedHit, len(res.Hits))
		for i, h := range res.Hits {
			out[i] = rankedHit{h.ID, h.Score}
		}
		return out, nil
	}
	if cfg.Join == "and" {
		if len(words) == 0 {
			return nil, nil
		}
		return search(strings.Join(words, " "))
	}
	sums := map[string]float64{}
	var seen []string
	for _, w := range words {
		if m == index.ModeSubstring && len([]rune(w)) < 3 || slices.Contains(seen, w) {
			continue
		}
		seen = append(seen, w)
		hits, err := search(w)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			sums[h.id] += h.score
		}
	}
	out := make([]rankedHit, 0, len(sums))
	for id, s := range sums {
		out = append(out, rankedHit{id, s})
	}
	slices.SortFunc(out, func(a, b rankedHit) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.id, b.id)
	})
	return out[:min(len(out), cfg.Depth)], nil
}

// sanitize is fts5_baseline.py's: split on whitespace; from each word delete
// double quotes and control characters (Unicode category C) and trim
// characters that are not letters or digits from both ends; drop empty words.
func sanitize(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.Map(func(r rune) rune {
			if r == '"' || unicode.In(r, unicode.C) {
				return -1
			}
			return r
		}, w)
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// score runs score.py QRELS RUN and parses its "metric value" lines.
func score(ctx context.Context, cfg scifactConfig, run string) (string, map[string]float64, error) {
	cmd := exec.CommandContext(ctx, cfg.Python, cfg.Score, filepath.Join(cfg.Data, "qrels.tsv"), run)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", nil, fmt.Errorf("%s %s: %w: %s", cfg.Python, cfg.Score, err, ee.Stderr)
		}
		return "", nil, fmt.Errorf("%s %s: %w", cfg.Python, cfg.Score, err)
	}
	scores := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				scores[f[0]] = v
			}
		}
	}
	return string(out), scores, nil
}

func printScifact(w io.Writer, cfg scifactConfig, runs []scifactRun) {
	fmt.Fprintf(w, "## twindex on %s (join %s, depth %d)\n\n", filepath.Base(filepath.Clean(cfg.Data)), cfg.Join, cfg.Depth)
	for _, r := range runs {
		if r.ScoreOut != "" {
			fmt.Fprintf(w, "### %s: %s %s %s\n\n```\n%s```\n\n", r.Mode, filepath.Base(cfg.Python), cfg.Score, r.Path, r.ScoreOut)
		}
	}
	metrics := []string{"nDCG@10", "MAP@100", "R@100", "MRR@10"}
	fmt.Fprintln(w, "| run | nDCG@10 | MAP@100 | R@100 | MRR@10 | queries | no results | errors | ms/query |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range runs {
		fmt.Fprintf(w, "| %s", filepath.Base(r.Path))
		for _, m := range metrics {
			if v, ok := r.Scores[m]; ok {
				fmt.Fprintf(w, " | %.4f", v)
			} else {
				fmt.Fprint(w, " | -")
			}
		}
		fmt.Fprintf(w, " | %d | %d | %d | %.2f |\n", r.Queries, r.Empty, r.Errors, r.MSPerQ)
	}
}
