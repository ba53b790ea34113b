package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
)

// modes in the order fts5_ref.py runs them.
var modes = []index.Mode{index.ModeSubstring, index.ModeText, index.ModeAuto}

// yardstickConfig is one yardstick run.
type yardstickConfig struct {
	Corpus  string // NAME.jsonl from make_corpus.py
	Queries string // queries.jsonl from make_queries.py
	Out     string // directory for NAME.twindex.{results.jsonl,summary.json}
	Dir     string // index directory; "" means a temp dir, removed afterwards
	Ref     string // FTS5 NAME.summary.json to compare with; "" for none
	// Tail is a second query set (the tail command's), timed in the same
	// passes and reported apart; TailRef is FTS5's summary of it.
	Tail, TailRef string
	Batch         int  // documents per Apply
	Passes        int  // timed passes after the warm-up
	Top           int  // hits per query
	NoSync        bool // index.Options.NoSync
	// NoOptimize skips Optimize: the queries run on the segments the
	// writes and the background merges left.
	NoOptimize bool
	// NoBulk opens the index without index.Options.BulkLoad, which a load
	// that ends with Optimize otherwise sets.
	NoBulk bool
	// Tolerance also times text mode with prefixes and fuzzy matching.
	Tolerance bool
	// Scan compares every substring total with a scan of the corpus.
	Scan bool
	// CPUProfile, when set, is the prefix of two CPU profiles:
	// PREFIX.build.pprof (Apply and Optimize) and PREFIX.query.pprof (the
	// timed passes).
	CPUProfile string
}

func yardstickCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := yardstickConfig{}
	fs := flag.NewFlagSet("yardstick", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus `NAME.jsonl` (shared/bench/make_corpus.py); required")
	fs.StringVar(&cfg.Queries, "queries", "", "`queries.jsonl` (shared/bench/make_queries.py); required")
	fs.StringVar(&cfg.Out, "out", "", "output `dir` for NAME.twindex.results.jsonl and NAME.twindex.summary.json; required")
	fs.StringVar(&cfg.Dir, "dir", "", "index `dir` (must be empty or absent; kept); default a temp dir, removed at the end")
	fs.StringVar(&cfg.Ref, "ref", "", "FTS5 `NAME.summary.json` (fts5_ref.py) to print twindex/FTS5 ratios against")
	fs.StringVar(&cfg.Tail, "tail", "", "a second query set, `tail.jsonl` (twindex-bench tail), timed in the same passes and reported apart")
	fs.StringVar(&cfg.TailRef, "tail-ref", "", "FTS5's `NAME.summary.json` of the --tail queries (fts5_ref.py CORPUS tail.jsonl DIR)")
	fs.IntVar(&cfg.Batch, "batch", 1000, "documents per Apply")
	fs.IntVar(&cfg.Passes, "passes", 3, "timed passes over the queries after one warm-up pass")
	fs.IntVar(&cfg.Top, "top", 20, "hits per query (1..100)")
	fs.BoolVar(&cfg.NoSync, "nosync", false, "skip fsync of the store on commit (index.Options.NoSync)")
	fs.BoolVar(&cfg.NoOptimize, "no-optimize", false, "skip Optimize after the writes (optimize_s is then 0), and BulkLoad with it")
	fs.BoolVar(&cfg.NoBulk, "no-bulk", false, "open the index without index.Options.BulkLoad: merge as the writes come")
	fs.BoolVar(&cfg.Tolerance, "tolerance", false, "also time text mode as typed, with a raw prefix and with fuzzy auto, against exact")
	fs.BoolVar(&cfg.Scan, "scan", false, "check every substring total against a scan of the corpus (every leaf a substring of the folded title or body)")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write CPU profiles of the build and of the timed passes to `PREFIX`.build.pprof and PREFIX.query.pprof")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench yardstick --corpus NAME.jsonl --queries queries.jsonl --out DIR [flags]

Builds an on-disk index from the corpus in batches (timed: Apply, then Optimize),
measures its size and the peak RSS, then runs one warm-up pass and --passes timed
passes over every query in the modes substring, text and auto (top 20, snippets
always built), as complete words (no as-you-type prefix) without the fuzzy
fallback, since FTS5 matches exactly. Per query the median of the passes, then
p50/p95 per mode and class, as shared/bench/fts5_ref.py reports, and p99. With
--tail, the tail query set runs in the same passes, reported apart. Writes
OUT/NAME.twindex.results.jsonl (and NAME.twindex.tail.results.jsonl; for
shared/bench/compare.py) and OUT/NAME.twindex.summary.json; prints markdown.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Corpus == "" || cfg.Queries == "" || cfg.Out == "" {
		fmt.Fprintln(stderr, "yardstick: --corpus, --queries and --out are required")
		fs.Usage()
		return errUsage
	}
	sum, err := yardstick(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	var ref, tailRef *fts5Summary
	if cfg.Ref != "" {
		if ref, err = readFTS5Summary(cfg.Ref); err != nil {
			return err
		}
	}
	if cfg.TailRef != "" {
		if tailRef, err = readFTS5Summary(cfg.TailRef); err != nil {
			return err
		}
	}
	printYardstick(stdout, sum, ref, tailRef)
	return nil
}

// resultLine is one line of NAME.twindex.results.jsonl, the shape of
// fts5_ref.py's results that compare.py reads.
type resultLine struct {
	QID   string   `json:"qid"`
	Class string   `json:"class"`
	Mode  string   `json:"mode"`
	Text  string   `json:"text"`
	Total int      `json:"total"`
	IDs   []string `json:"ids"`
	Error string   `json:"error,omitempty"`
}

// summary is NAME.twindex.summary.json.
type summary struct {
	Engine        string                 `json:"engine"`
	Corpus        string                 `json:"corpus"`
	Docs          int                    `json:"docs"`
	Queries       int                    `json:"queries"`
	TailQueries   int                    `json:"tail_queries,omitempty"`
	GoVersion     string                 `json:"go"`
	NProc         int                    `json:"nproc"`
	LoadavgPre    string                 `json:"loadavg_before"`
	Loadavg       string                 `json:"loadavg"`
	Batch         int                    `json:"batch"`
	BulkLoad      bool                   `json:"bulk_load"` // index.Options.BulkLoad
	Passes        int                    `json:"passes"`
	ReadS         float64                `json:"read_s"`  // decoding the corpus, not in build_s
	BuildS        float64                `json:"build_s"` // sum of Apply calls
	OptimizeS     float64                `json:"optimize_s"`
	BuildTotalS   float64                `json:"build_total_s"`        // build_s + optimize_s
	DiskBytes     int64                  `json:"disk_bytes"`           // files under the index dir after Close
	DiskOptimized int64                  `json:"disk_bytes_optimized"` // same, after Optimize with the index open
	StoreBytes    int64                  `json:"store_bytes"`
	TextBytes     int64                  `json:"text_bytes"`
	TrigramBytes  int64                  `json:"trigram_bytes"`
	RSSBefore     int64                  `json:"rss_before_bytes"`     // VmRSS before opening the index
	PeakRSS       int64                  `json:"peak_rss_bytes"`       // VmHWM at the end
	PeakRSSBuild  int64                  `json:"peak_rss_build_bytes"` // VmHWM after Optimize
	Errors        int                    `json:"errors"`
	ScanChecked   int                    `json:"scan_checked,omitempty"` // queries whose substring total --scan checked
	ScanDiffers   int                    `json:"scan_differs"`           // of them, those a scan counts differently
	Latency       []latencyRow           `json:"latency"`
	Tolerance     []toleranceRow         `json:"tolerance,omitempty"`
	Slowest       map[string][]slowQuery `json:"slowest"`
	// TailLatency and TailSlowest are Latency and Slowest of the --tail
	// queries.
	TailLatency []latencyRow           `json:"tail_latency,omitempty"`
	TailSlowest map[string][]slowQuery `json:"tail_slowest,omitempty"`
}

// latencyRow has fts5_ref.py's latency keys; CPU is the process's, all threads.
type latencyRow struct {
	Mode        string `json:"mode"`
	Class       string `json:"class"`
	Run         int    `json:"run"`
	ZeroHit     int    `json:"zero_hit"`
	MedianTotal int    `json:"median_total"`
	P50         int64  `json:"p50_us"`
	P95         int64  `json:"p95_us"`
	P99         int64  `json:"p99_us"`
	P50CPU      int64  `json:"p50_cpu_us"`
}

type slowQuery struct {
	QID    string `json:"qid"`
	Class  string `json:"class"`
	Text   string `json:"text"`
	Total  int    `json:"total"`
	Median int64  `json:"median_us"`
}

// sample is one timed search: wall and process CPU, µs.
type sample struct{ wall, cpu int64 }

func yardstick(ctx context.Context, cfg yardstickConfig, log io.Writer) (*summary, error) {
	if cfg.Batch < 1 || cfg.Passes < 1 || cfg.Top < 1 || cfg.Top > index.MaxLimit {
		return nil, fmt.Errorf("--batch and --passes must be >= 1, --top in 1..%d", index.MaxLimit)
	}
	name := strings.SplitN(filepath.Base(cfg.Corpus), ".", 2)[0]
	qs, err := readQueries(cfg.Queries)
	if err != nil {
		return nil, err
	}
	var tail []benchQuery
	if cfg.Tail != "" {
		if tail, err = readQueries(cfg.Tail); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "twindex-bench-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	} else if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("--dir %s is not empty; the yardstick builds a fresh index", dir)
	}

	sum := &summary{Engine: "twindex", Corpus: name, Queries: len(qs), TailQueries: len(tail), GoVersion: runtime.Version(),
		NProc: runtime.NumCPU(), LoadavgPre: loadavg(), Batch: cfg.Batch, BulkLoad: !cfg.NoOptimize && !cfg.NoBulk, Passes: cfg.Passes,
		RSSBefore: procStatusBytes("VmRSS")}
	fmt.Fprintf(log, "yardstick %s: index in %s, loadavg %s\n", name, dir, sum.LoadavgPre)

	// A load that ends with Optimize is what BulkLoad is for.
	ix, err := index.Open(dir, &index.Options{NoSync: cfg.NoSync, BulkLoad: sum.BulkLoad})
	if err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			ix.Close()
		}
	}()

	// Build: stream the corpus, Apply every cfg.Batch docs; only Apply is timed.
	var b index.Batch
	var build time.Duration
	start := time.Now()
	apply := func() error {
		t0 := time.Now()
		_, err := ix.Apply(ctx, &b)
		build += time.Since(t0)
		b.Reset()
		if err != nil {
			return fmt.Errorf("apply after %d docs: %w", sum.Docs, err)
		}
		if sum.Docs%(10*cfg.Batch) == 0 {
			fmt.Fprintf(log, "  %d docs, %.1f s in Apply\n", sum.Docs, build.Seconds())
		}
		return nil
	}
	stopProfile, err := startCPUProfile(cfg.CPUProfile, "build")
	if err != nil {
		return nil, err
	}
	err = eachJSONL(cfg.Corpus, func(bd *benchDoc) error {
		d, err := bd.doc()
		if err != nil {
			return err
		}
		b.Upsert(d)
		sum.Docs++
		if b.Len() >= cfg.Batch {
			return apply()
		}
		return ctx.Err()
	})
	if err == nil && b.Len() > 0 {
		err = apply()
	}
	if err != nil {
		return nil, err
	}
	sum.ReadS = round2((time.Since(start) - build).Seconds())
	sum.BuildS = round2(build.Seconds())
	t0 := time.Now()
	if !cfg.NoOptimize {
		if err := ix.Optimize(ctx); err != nil {
			return nil, fmt.Errorf("optimize: %w", err)
		}
	}
	sum.OptimizeS = round2(time.Since(t0).Seconds())
	if err := stopProfile(); err != nil {
		return nil, err
	}
	sum.BuildTotalS = round2(build.Seconds() + time.Since(t0).Seconds())
	sum.PeakRSSBuild = procStatusBytes("VmHWM")
	st, err := ix.Stats()
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	if st.Docs != sum.Docs {
		fmt.Fprintf(log, "  warning: index has %d docs, corpus %d lines (repeated ids?)\n", st.Docs, sum.Docs)
	}
	sum.StoreBytes, sum.TextBytes, sum.TrigramBytes = st.StoreBytes, st.TextBytes, st.TrigramBytes
	if sum.DiskOptimized, err = dirBytes(dir); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "  built %d docs: apply %.2f s + optimize %.2f s (reading %.2f s untimed); %.1f MiB\n",
		sum.Docs, sum.BuildS, sum.OptimizeS, sum.ReadS, mib(sum.DiskOptimized))

	if stopProfile, err = startCPUProfile(cfg.CPUProfile, "query"); err != nil {
		return nil, err
	}
	sets := [][]benchQuery{qs, tail}
	results, lat, err := runQueries(ctx, ix, sets, cfg, log)
	if err != nil {
		return nil, err
	}
	if err := stopProfile(); err != nil {
		return nil, err
	}
	if cfg.Tolerance {
		if sum.Tolerance, err = tolerance(ctx, ix, qs, cfg, log); err != nil {
			return nil, err
		}
	}
	closed = true
	if err := ix.Close(); err != nil {
		return nil, fmt.Errorf("close: %w", err)
	}
	if sum.DiskBytes, err = dirBytes(dir); err != nil {
		return nil, err
	}
	sum.PeakRSS = procStatusBytes("VmHWM")
	sum.Loadavg = loadavg()
	for _, set := range results {
		for _, r := range set {
			if r.Error != "" {
				sum.Errors++
			}
		}
	}
	if cfg.Scan {
		sum.ScanChecked = len(qs) + len(tail)
		if sum.ScanDiffers, err = scanCheck(cfg.Corpus, sets, results, log); err != nil {
			return nil, err
		}
	}
	sum.Latency, sum.Slowest = latencyTable(qs, results[0], lat[0])
	if len(tail) > 0 {
		sum.TailLatency, sum.TailSlowest = latencyTable(tail, results[1], lat[1])
		if err := writeJSONL(filepath.Join(cfg.Out, name+".twindex.tail.results.jsonl"), results[1]); err != nil {
			return nil, err
		}
	}
	if err := writeJSONL(filepath.Join(cfg.Out, name+".twindex.results.jsonl"), results[0]); err != nil {
		return nil, err
	}
	js, err := json.MarshalIndent(sum, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(cfg.Out, name+".twindex.summary.json"), append(js, '\n'), 0o644); err != nil {
		return nil, err
	}
	return sum, nil
}

type latKey struct {
	mode index.Mode
	qid  string
}

// runQueries runs pass 0 (warm-up, records the answers) and cfg.Passes timed
// passes, each over every query of every set in every mode, as fts5_ref.py
// orders them; it returns each set's answers and samples.
func runQueries(ctx context.Context, ix *index.Index, sets [][]benchQuery, cfg yardstickConfig, log io.Writer) ([][]resultLine, []map[latKey][]sample, error) {
	results := make([][]resultLine, len(sets))
	lats := make([]map[latKey][]sample, len(sets))
	n := 0
	for i := range sets {
		lats[i] = map[latKey][]sample{}
		n += len(sets[i])
	}
	for pass := 0; pass <= cfg.Passes; pass++ {
		t0 := time.Now()
		for set, qs := range sets {
			lat := lats[set]
			for _, q := range qs {
				for _, m := range modes {
					w0, c0 := time.Now(), processCPU()
					res, err := ix.Search(ctx, exactRequest(q.Text, m, cfg.Top))
					s := sample{time.Since(w0).Microseconds(), (processCPU() - c0).Microseconds()}
					if ctx.Err() != nil {
						return nil, nil, ctx.Err()
					}
					if pass > 0 {
						lat[latKey{m, q.ID}] = append(lat[latKey{m, q.ID}], s)
						continue
					}
					r := resultLine{QID: q.ID, Class: q.Class, Mode: string(m), Text: q.Text, IDs: []string{}}
					switch {
					case errors.Is(err, index.ErrEmptyQuery):
					case err != nil:
						r.Error = err.Error()
					default:
						r.Total = res.Total
						for _, h := range res.Hits {
							r.IDs = append(r.IDs, h.ID)
						}
					}
					results[set] = append(results[set], r)
				}
			}
		}
		what := "warm-up"
		if pass > 0 {
			what = fmt.Sprintf("pass %d", pass)
		}
		fmt.Fprintf(log, "  %s: %d queries x %d modes in %.1f s\n", what, n, len(modes), time.Since(t0).Seconds())
	}
	return results, lats, nil
}

// latencyTable makes fts5_ref.py's table: per query the median of the timed
// passes, then p50/p95 (and p99) across the queries of each mode and class
// ("all" too).
func latencyTable(qs []benchQuery, results []resultLine, lat map[latKey][]sample) ([]latencyRow, map[string][]slowQuery) {
	var classes []string
	for _, q := range qs {
		if !slices.Contains(classes, q.Class) {
			classes = append(classes, q.Class)
		}
	}
	classes = append(classes, "all")
	var rows []latencyRow
	slowest := map[string][]slowQuery{}
	for _, m := range modes {
		for _, c := range classes {
			var wall, cpu []int64
			var totals []int
			row := latencyRow{Mode: string(m), Class: c}
			var slow []slowQuery
			for _, r := range results {
				if r.Mode != string(m) || (c != "all" && r.Class != c) {
					continue
				}
				row.Run++
				if len(r.IDs) == 0 {
					row.ZeroHit++
				}
				totals = append(totals, r.Total)
				ss := lat[latKey{m, r.QID}]
				w, u := median(ss, func(s sample) int64 { return s.wall }), median(ss, func(s sample) int64 { return s.cpu })
				wall, cpu = append(wall, w), append(cpu, u)
				slow = append(slow, slowQuery{QID: r.QID, Class: r.Class, Text: r.Text, Total: r.Total, Median: w})
			}
			slices.Sort(totals)
			if len(totals) > 0 {
				row.MedianTotal = totals[len(totals)/2]
			}
			row.P50, row.P95, row.P99, row.P50CPU = pct(wall, 50), pct(wall, 95), pct(wall, 99), pct(cpu, 50)
			rows = append(rows, row)
			if c == "all" {
				slices.SortStableFunc(slow, func(a, b slowQuery) int { return int(b.Median - a.Median) })
				slowest[string(m)] = slow[:min(5, len(slow))]
			}
		}
	}
	return rows, slowest
}

// median is fts5_ref.py's sorted(xs)[len//2].
func median(ss []sample, f func(sample) int64) int64 {
	if len(ss) == 0 {
		return 0
	}
	xs := make([]int64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// pct is fts5_ref.py's percentile: sorted(xs)[min(n-1, int(p/100*n))].
func pct(xs []int64, p int) int64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[min(len(xs)-1, p*len(xs)/100)]
}

func writeJSONL[T any](path string, rows []T) error {
	var sb strings.Builder
	for _, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// startCPUProfile writes a CPU profile to PREFIX.PHASE.pprof until the
// returned stop is called; with no prefix it does nothing.
func startCPUProfile(prefix, phase string) (stop func() error, err error) {
	if prefix == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(prefix + "." + phase + ".pprof")
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
