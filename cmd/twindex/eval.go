package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// evalMetrics are printed in this order, named as score.py names them.
var evalMetrics = []string{"nDCG@10", "MAP@100", "R@100", "MRR@10"}

// runEntry is one line of a TREC run.
type runEntry struct {
	qid, doc string
	score    float64 // as written in the run file, read back
}

func runEval(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "eval", "twindex eval --docs DOCS.jsonl --queries QUERIES.jsonl --qrels QRELS.tsv [flags]", `  twindex eval --docs scifact/docs.jsonl --queries scifact/queries.jsonl --qrels scifact/qrels.tsv
  twindex eval ... --mode text --run run.txt && python3 score.py scifact/qrels.tsv run.txt

Builds a temporary in-memory index of DOCS (JSONL as for 'twindex index';
"_id" and "text" are accepted for "id" and "body"), runs every query of
QUERIES ({"id","text"} or {"_id","text"} per line; top 100 hits) and
scores the run against QRELS ("qid docid rel" or "qid 0 docid rel" per
line, a header line is skipped) with the definitions of score.py
(trec_eval's): nDCG@10, MAP@100, R@100 (Recall@100), MRR@10, averaged over
the queries with at least one judged relevant (rel > 0) document; a judged
query without results scores 0. Bad lines are reported and skipped (exit 2
after printing the scores).`)
	docs := fs.String("docs", "", "documents, JSONL `FILE`")
	queries := fs.String("queries", "", "queries, JSONL `FILE`")
	qrelsPath := fs.String("qrels", "", "relevance judgments, TSV `FILE`")
	mode := fs.String("mode", "auto", "the legs that run, as for search: auto, substring or text")
	runPath := fs.String("run", "", "also write the TREC run to `FILE`")
	asJSON := fs.Bool("json", false, "print the scores as JSON")
	quiet := fs.Bool("quiet", false, "no progress or timings on stderr")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *docs == "" || *queries == "" || *qrelsPath == "" {
		return usageErr("run 'twindex eval --help'", "want --docs, --queries and --qrels and no arguments")
	}
	m, err := index.ParseMode(*mode)
	if err != nil || m.Runs(index.LegVector) {
		return usageErr("run 'twindex eval --help'", "--mode: unknown mode %q (want a mode without the vector leg: eval embeds nothing)", *mode)
	}
	qrels, qorder, err := readQrels(*qrelsPath)
	if err != nil {
		return err
	}
	// A bulk load in batches: scorch indexes it faster in memory.
	ix, err := index.OpenMemory(&index.Options{Backend: index.Scorch})
	if err != nil {
		return err
	}
	defer ix.Close()
	start := time.Now()
	bad, err := ingestJSONL(ctx, e, folder.Apply(ix), ix.Dir(), *docs, 1<<20, true)
	if err != nil {
		return err
	}
	n, _ := ix.Count()
	if !*quiet {
		fmt.Fprintf(e.stderr, "twindex eval: indexed %d documents in %s\n", n, time.Since(start).Round(time.Millisecond))
	}

	start = time.Now()
	var run []runEntry
	var runText strings.Builder
	nq := 0
	err = eachLine(*queries, func(line []byte, no int) error {
		id, text, err := parseQueryLine(line, no)
		if err != nil {
			bad++
			fmt.Fprintf(e.stderr, "%s:%d: %s\n", *queries, no, err)
			return nil
		}
		if id == "" && text == "" {
			return nil
		}
		nq++
		res, err := ix.Search(ctx, index.Request{Query: text, Mode: m, Limit: index.MaxLimit})
		if errors.Is(err, index.ErrEmptyQuery) {
			return nil // no results, scores 0
		}
		if err != nil {
			return searchErr(err, text)
		}
		for i, h := range res.Hits {
			s := formatScore(h.Score)
			f, _ := strconv.ParseFloat(s, 64)
			run = append(run, runEntry{qid: id, doc: trecID(h.ID), score: f})
			fmt.Fprintf(&runText, "%s Q0 %s %d %s twindex\n", id, trecID(h.ID), i+1, s)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(e.stderr, "twindex eval: ran %d queries in %s\n", nq, time.Since(start).Round(time.Millisecond))
	}
	if *runPath != "" {
		if err := os.WriteFile(*runPath, []byte(runText.String()), 0o644); err != nil {
			return usageErr("", "write run: %w", err)
		}
	}
	means, scored, empty := evaluate(qrels, qorder, run)
	if *asJSON {
		out := map[string]any{"queries": scored, "noResults": empty}
		for _, m := range evalMetrics {
			out[m] = means[m]
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		for _, m := range evalMetrics {
			fmt.Fprintf(e.stdout, "%-8s %.4f\n", m, means[m])
		}
		fmt.Fprintf(e.stdout, "queries  %d  (no results: %d)\n", scored, empty)
	}
	if bad > 0 {
		return usageErr("", "%d bad line(s) skipped (reported above)", bad)
	}
	return nil
}

// eachLine calls fn for every line of a file with its number from 1.
func eachLine(name string, fn func(line []byte, no int) error) error {
	f, err := os.Open(name)
	if err != nil {
		return usageErr("", "%w", err)
	}
	defer f.Close()
	lr := newLineReader(f, 16<<20)
	for {
		line, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return usageErr("", "%s:%d: %w", name, lr.n, err)
		}
		if err := fn(line, lr.n); err != nil {
			return err
		}
	}
}

// readQrels reads judgments as score.py does: 3 or 4 whitespace-separated
// fields, the last an integer relevance (a line where it is not, such as a
// header, is skipped), the one before it the document; a later line for
// the same pair wins. It returns the query IDs in order of first appearance.
func readQrels(name string) (map[string]map[string]int, []string, error) {
	qrels := map[string]map[string]int{}
	var order []string
	err := eachLine(name, func(line []byte, _ int) error {
		p := strings.Fields(string(line))
		if len(p) != 3 && len(p) != 4 {
			return nil
		}
		rel, err := strconv.Atoi(p[len(p)-1])
		if err != nil {
			return nil
		}
		q := qrels[p[0]]
		if q == nil {
			q = map[string]int{}
			qrels[p[0]] = q
			order = append(order, p[0])
		}
		q[p[len(p)-2]] = rel
		return nil
	})
	return qrels, order, err
}

// evaluate scores a run as score.py does and returns the mean of each
// metric over the judged queries with a relevant document, their number,
// and how many of them have no results.
func evaluate(qrels map[string]map[string]int, order []string, run []runEntry) (map[string]float64, int, int) {
	byQuery := map[string][]runEntry{}
	for _, r := range run {
		byQuery[r.qid] = append(byQuery[r.qid], r)
	}
	sums := map[string]float64{}
	n, empty := 0, 0
	for _, q := range order {
		judged := qrels[q]
		relevant := 0
		for _, r := range judged {
			if r > 0 {
				relevant++
			}
		}
		if relevant == 0 {
			continue
		}
		n++
		if len(byQuery[q]) == 0 {
			empty++
		}
		s := scoreQuery(judged, relevant, ranked(byQuery[q]))
		for _, m := range evalMetrics {
			sums[m] += s[m]
		}
	}
	means := map[string]float64{}
	for _, m := range evalMetrics {
		if n > 0 {
			means[m] = sums[m] / float64(n)
		}
	}
	return means, n, empty
}

// ranked orders a query's run as trec_eval does: score descending, ties by
// document ID descending, a repeated document keeping its first place.
func ranked(entries []runEntry) []string {
	entries = slices.Clone(entries)
	slices.SortStableFunc(entries, func(a, b runEntry) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(b.doc, a.doc)
	})
	seen := map[string]bool{}
	var out []string
	for _, r := range entries {
		if !seen[r.doc] {
			seen[r.doc] = true
			out = append(out, r.doc)
		}
	}
	return out
}

func scoreQuery(judged map[string]int, relevant int, docs []string) map[string]float64 {
	dcg := 0.0
	for i, d := range docs[:min(10, len(docs))] {
		dcg += float64(max(judged[d], 0)) / math.Log2(float64(i+2))
	}
	var ideal []int
	for _, r := range judged {
		if r > 0 {
			ideal = append(ideal, r)
		}
	}
	slices.SortFunc(ideal, func(a, b int) int { return b - a })
	idcg := 0.0
	for i, g := range ideal[:min(10, len(ideal))] {
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	hits, ap, rr := 0, 0.0, 0.0
	for i, d := range docs[:min(100, len(docs))] {
		if judged[d] > 0 {
			hits++
			ap += float64(hits) / float64(i+1)
			if rr == 0 && i < 10 {
				rr = 1 / float64(i+1)
			}
		}
	}
	return map[string]float64{
		"nDCG@10": dcg / idcg,
		"MAP@100": ap / float64(relevant),
		"R@100":   float64(hits) / float64(relevant),
		"MRR@10":  rr,
	}
}
