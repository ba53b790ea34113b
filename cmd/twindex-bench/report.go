package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// fts5Summary is the part of fts5_ref.py's NAME.summary.json compared here.
type fts5Summary struct {
	Corpus string `json:"corpus"`
	Docs   int    `json:"docs"`
	SQLite string `json:"sqlite"`
	Load   map[string]struct {
		InsertS   float64 `json:"insert_s"`
		OptimizeS float64 `json:"optimize_s"`
	} `json:"load"`
	DBBytes    int64 `json:"db_bytes"`
	TableBytes map[string]struct {
		Index   int64 `json:"index"`
		Content int64 `json:"content"`
	} `json:"table_bytes"`
	LoadTotalS float64 `json:"load_total_s"`
	Loadavg    string  `json:"loadavg"`
	Latency    []struct {
		Mode        string `json:"mode"`
		Class       string `json:"class"`
		Run         int    `json:"run"`
		ZeroHit     int    `json:"zero_hit"`
		MedianTotal int    `json:"median_total"`
		P50         micros `json:"p50_us"`
		P95         micros `json:"p95_us"`
		P50CPU      micros `json:"p50_cpu_us"`
		P50IDs      micros `json:"p50_us_ids"`
		P95IDs      micros `json:"p95_us_ids"`
	} `json:"latency"`
}

// micros is a latency in µs of fts5_ref.py's summary, which writes "-"
// (read as 0) for a class that ran no query, as substring mode runs none
// of one or two characters.
type micros int64

func (m *micros) UnmarshalJSON(b []byte) error {
	if string(b) == `"-"` {
		*m = 0
		return nil
	}
	return json.Unmarshal(b, (*int64)(m))
}

func readFTS5Summary(path string) (*fts5Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s fts5Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// printYardstick writes the run's tables in BASELINE.md's layout and, with
// ref (and tailRef, of the tail queries), the twindex/FTS5 ratios.
func printYardstick(w io.Writer, s *summary, ref, tailRef *fts5Summary) {
	fmt.Fprintf(w, "## twindex, %s: %d docs, %d queries, %s, nproc %d, loadavg before %s, after %s\n\n",
		s.Corpus, s.Docs, s.Queries, s.GoVersion, s.NProc, s.LoadavgPre, s.Loadavg)
	bulk := ""
	if s.BulkLoad {
		bulk = ", BulkLoad"
	}
	fmt.Fprintf(w, "- build: Apply %.2f s (batches of %d%s) + Optimize %.2f s = %.2f s; reading the corpus %.2f s, untimed\n",
		s.BuildS, s.Batch, bulk, s.OptimizeS, s.BuildTotalS, s.ReadS)
	fmt.Fprintf(w, "- on disk: %.1f MiB after Close (%.1f MiB after Optimize, open): store %.1f, text index %.1f, trigram index %.1f MiB (Stats)\n",
		mib(s.DiskBytes), mib(s.DiskOptimized), mib(s.StoreBytes), mib(s.TextBytes), mib(s.TrigramBytes))
	fmt.Fprintf(w, "- peak RSS (VmHWM): %.1f MiB after the build, %.1f MiB at the end; %.1f MiB before opening the index\n",
		mib(s.PeakRSSBuild), mib(s.PeakRSS), mib(s.RSSBefore))
	if s.ScanChecked > 0 {
		fmt.Fprintf(w, "- substring totals against a scan of the corpus (--scan): %d of %d queries differ\n", s.ScanDiffers, s.ScanChecked)
	}
	if s.Errors > 0 {
		fmt.Fprintf(w, "- search errors: %d (see \"error\" in the results file)\n", s.Errors)
	}
	fmt.Fprintf(w, "\nLatency µs: per query the median of %d timed passes, then p50/p95/p99 across queries; top 20 with snippets. CPU = process CPU, all threads.\n\n", s.Passes)
	printLatency(w, s.Latency, s.Slowest)
	if len(s.TailLatency) > 0 {
		fmt.Fprintf(w, "\nThe tail (%d queries, --tail), in the same passes:\n\n", s.TailQueries)
		printLatency(w, s.TailLatency, s.TailSlowest)
	}
	printTolerance(w, s.Tolerance)
	if ref != nil {
		printRatios(w, s, ref)
	}
	if tailRef != nil && len(s.TailLatency) > 0 {
		fmt.Fprintf(w, "\n### The tail: twindex / FTS5 (%s)\n\n", tailRef.Loadavg)
		printLatencyRatios(w, s.TailLatency, tailRef)
	}
}

func printLatency(w io.Writer, rows []latencyRow, slowest map[string][]slowQuery) {
	fmt.Fprintln(w, "| mode | class | queries run | zero-hit | median total hits | p50 µs | p95 µs | p99 µs | p50 CPU µs |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %d | %d | %d |\n", r.Mode, r.Class, r.Run, r.ZeroHit, r.MedianTotal, r.P50, r.P95, r.P99, r.P50CPU)
	}
	fmt.Fprintf(w, "\nSlowest queries (median µs):\n\n| mode | qid | class | query | total | µs |\n|---|---|---|---|--:|--:|\n")
	for _, m := range modes {
		for _, q := range slowest[string(m)] {
			fmt.Fprintf(w, "| %s | %s | %s | `%s` | %d | %d |\n", m, q.QID, q.Class, q.Text, q.Total, q.Median)
		}
	}
}

func printRatios(w io.Writer, s *summary, ref *fts5Summary) {
	fmt.Fprintf(w, "\n### twindex / FTS5 (SQLite %s, %s: %d docs, loadavg after %s)\n\n", ref.SQLite, ref.Corpus, ref.Docs, ref.Loadavg)
	if ref.Docs != s.Docs {
		fmt.Fprintf(w, "**warning: the FTS5 summary is for %d docs, this run indexed %d**\n\n", ref.Docs, s.Docs)
	}
	var refOpt float64
	for _, l := range ref.Load {
		refOpt += l.OptimizeS
	}
	tri, txt := ref.TableBytes["fts_tri"], ref.TableBytes["fts_text"]
	fmt.Fprintln(w, "| measure | twindex | FTS5 | ratio |\n|---|--:|--:|--:|")
	row := func(name string, a, b float64, unit string) {
		fmt.Fprintf(w, "| %s | %.2f %s | %.2f %s | %s |\n", name, a, unit, b, unit, ratio(a, b))
	}
	row("build total (insert/Apply + optimize)", s.BuildTotalS, ref.LoadTotalS, "s")
	row("optimize", s.OptimizeS, refOpt, "s")
	row("on disk (after Close / DB file)", mib(s.DiskBytes), mib(ref.DBBytes), "MiB")
	row("trigram index (fts_tri _data+_idx)", mib(s.TrigramBytes), mib(tri.Index), "MiB")
	row("text index (fts_text _data+_idx)", mib(s.TextBytes), mib(txt.Index), "MiB")
	row("stored content (store / both tables' content)", mib(s.StoreBytes), mib(tri.Content+txt.Content), "MiB")

	fmt.Fprintln(w)
	printLatencyRatios(w, s.Latency, ref)
}

// printLatencyRatios writes twindex's p50 and p95 beside FTS5's, by mode
// and class, and twindex's p99 (fts5_ref.py reports none). A class FTS5
// ran no query of shows 0 µs and no ratio.
func printLatencyRatios(w io.Writer, rows []latencyRow, ref *fts5Summary) {
	fmt.Fprintln(w, "| mode | class | p50 µs twindex | p50 µs FTS5 | p50 ratio | p95 µs twindex | p95 µs FTS5 | p95 ratio | p99 µs twindex | p50 ratio vs FTS5 ids-only |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		for _, f := range ref.Latency {
			if f.Mode == r.Mode && f.Class == r.Class {
				fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %d | %d | %s | %d | %s |\n", r.Mode, r.Class,
					r.P50, f.P50, ratio(float64(r.P50), float64(f.P50)),
					r.P95, f.P95, ratio(float64(r.P95), float64(f.P95)),
					r.P99, ratio(float64(r.P50), float64(f.P50IDs)))
			}
		}
	}
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", a/b)
}
