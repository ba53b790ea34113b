package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// cliConfig is one run of the cli command.
type cliConfig struct {
	Corpus  string
	Queries stringList
	Twindex string
	Ref     string // fts5_ref.py's NAME.summary.json; "" for none
	Dir     string
	Passes  int
}

func cliCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := cliConfig{}
	fs := flag.NewFlagSet("cli", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus `NAME.jsonl` (shared/bench/make_corpus.py); required")
	fs.Var(&cfg.Queries, "queries", "a query `file` in the shape of queries.jsonl; repeatable; required")
	fs.StringVar(&cfg.Twindex, "twindex", "", "the twindex `binary` to run; required")
	fs.StringVar(&cfg.Ref, "ref", "", "FTS5 `NAME.summary.json` (fts5_ref.py) to print twindex/FTS5 ratios against")
	fs.StringVar(&cfg.Dir, "dir", "", "index `dir` (must be empty or absent; kept); default a temp dir, removed at the end")
	fs.IntVar(&cfg.Passes, "passes", 3, "batch searches per mode, each a process")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench cli --corpus NAME.jsonl --queries queries.jsonl --twindex BIN [flags]

The yardstick through the CLI, as a user runs it, with default options:
builds the index with "twindex index --jsonl CORPUS" (the whole process
timed, with its peak RSS and the size on disk), then runs "twindex search
--queries FILE --mode M --limit 20 --format json" for each mode, --passes
times, each pass a new process: the queries as given (whole words, as
the CLI reads them without --prefix, and the fallback on), unlike the
yardstick's requests without the fallback. Each process runs the queries
twice: its first pass is what a one-off batch sees (no fold cache yet),
its second is timed as the yardstick and FTS5's reference time theirs,
after a warm-up pass. Per query the median of the processes' tookMs,
then p50/p95/p99 per mode and class of the second pass, the first's p50
beside it, and with --ref the ratios to FTS5's.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Corpus == "" || len(cfg.Queries) == 0 || cfg.Twindex == "" || cfg.Passes < 1 {
		fmt.Fprintln(stderr, "cli: --corpus, --queries and --twindex are required; --passes >= 1")
		fs.Usage()
		return errUsage
	}
	var ref *fts5Summary
	if cfg.Ref != "" {
		var err error
		if ref, err = readFTS5Summary(cfg.Ref); err != nil {
			return err
		}
	}
	res, err := cli(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	printCLI(stdout, res, ref)
	return nil
}

// cliResult is what cli measured.
type cliResult struct {
	Corpus            string
	Build             time.Duration
	BuildRSS, Disk    int64
	Loadavg, LoadPost string
	Classes           []string
	// Lat holds, per mode and class, each query's median tookMs over the
	// passes in a process's second pass over the queries, sorted; First
	// the same of its first pass.
	Lat, First map[string]map[string][]time.Duration
	// Wall is each mode's batch process, start to exit, per pass.
	Wall map[string][]time.Duration
}

func cli(ctx context.Context, cfg cliConfig, log io.Writer) (*cliResult, error) {
	var qs []benchQuery
	for _, path := range cfg.Queries {
		q, err := readQueries(path)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q...)
	}
	dir := cfg.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "twindex-cli-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "idx")
	} else if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("--dir %s is not empty; cli builds a fresh index", dir)
	}
	res := &cliResult{Corpus: strings.SplitN(filepath.Base(cfg.Corpus), ".", 2)[0], Loadavg: loadavg(),
		Lat: map[string]map[string][]time.Duration{}, First: map[string]map[string][]time.Duration{}, Wall: map[string][]time.Duration{}}
	for _, q := range qs {
		if !slices.Contains(res.Classes, q.Class) {
			res.Classes = append(res.Classes, q.Class)
		}
	}
	res.Classes = append(res.Classes, "all")
	fmt.Fprintf(log, "cli %s: twindex index --jsonl into %s, loadavg %s\n", res.Corpus, dir, res.Loadavg)
	run, err := runTimed(ctx, cfg.Twindex, "index", "--quiet", "--jsonl", cfg.Corpus, "--index", dir)
	if err != nil {
		return nil, err
	}
	res.Build, res.BuildRSS = run.wall, run.maxRSS
	if res.Disk, err = dirBytes(dir); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "  built in %.2f s, peak RSS %.0f MiB, %.1f MiB on disk\n", res.Build.Seconds(), mib(res.BuildRSS), mib(res.Disk))

	// The queries of every file in one file, in order, twice.
	qfile := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+".queries.jsonl")
	if err := writeJSONL(qfile, append(slices.Clip(qs), qs...)); err != nil {
		return nil, err
	}
	defer os.Remove(qfile)
	first, second := map[latKey][]time.Duration{}, map[latKey][]time.Duration{}
	for pass := range cfg.Passes {
		for _, m := range modes {
			t0 := time.Now()
			ts, err := batchSearch(ctx, cfg.Twindex, dir, qfile, string(m))
			if err != nil {
				return nil, err
			}
			res.Wall[string(m)] = append(res.Wall[string(m)], time.Since(t0))
			for qid, d := range ts {
				if len(d) != 2 {
					return nil, fmt.Errorf("twindex search --queries --mode %s answered query %s %d times, want 2", m, qid, len(d))
				}
				first[latKey{m, qid}] = append(first[latKey{m, qid}], d[0])
				second[latKey{m, qid}] = append(second[latKey{m, qid}], d[1])
			}
		}
		fmt.Fprintf(log, "  pass %d of %d\n", pass+1, cfg.Passes)
	}
	res.Lat, res.First = medians(qs, second), medians(qs, first)
	res.LoadPost = loadavg()
	return res, nil
}

// medians returns, per mode and class, each query's median of took,
// sorted.
func medians(qs []benchQuery, took map[latKey][]time.Duration) map[string]map[string][]time.Duration {
	out := map[string]map[string][]time.Duration{}
	for _, m := range modes {
		out[string(m)] = map[string][]time.Duration{}
		for _, q := range qs {
			ds := took[latKey{m, q.ID}]
			if len(ds) == 0 {
				continue
			}
			slices.Sort(ds)
			d := ds[len(ds)/2]
			out[string(m)][q.Class] = append(out[string(m)][q.Class], d)
			out[string(m)]["all"] = append(out[string(m)]["all"], d)
		}
		for _, l := range out[string(m)] {
			slices.Sort(l)
		}
	}
	return out
}

// batchSearch runs one twindex search --queries process and returns each
// query's tookMs by ID, in the order the batch answered it.
func batchSearch(ctx context.Context, bin, dir, qfile, mode string) (map[string][]time.Duration, error) {
	cmd := exec.CommandContext(ctx, bin, "search", "--index", dir, "--queries", qfile, "--mode", mode, "--limit", "20", "--format", "json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	took := map[string][]time.Duration{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			ID     string  `json:"id"`
			TookMs float64 `json:"tookMs"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, fmt.Errorf("twindex search --queries: %w", err)
		}
		took[r.ID] = append(took[r.ID], time.Duration(r.TookMs*float64(time.Millisecond)))
	}
	err = cmd.Wait()
	var xe *exec.ExitError
	if errors.As(err, &xe) && xe.ExitCode() == 1 {
		err = nil // no query found anything
	}
	if err != nil {
		return nil, fmt.Errorf("twindex search --queries --mode %s: %w: %s", mode, err, strings.TrimSpace(stderr.String()))
	}
	return took, sc.Err()
}

func printCLI(w io.Writer, r *cliResult, ref *fts5Summary) {
	fmt.Fprintf(w, "## the CLI, %s: loadavg before %s, after %s\n\n", r.Corpus, r.Loadavg, r.LoadPost)
	fmt.Fprintf(w, "- twindex index --jsonl: %.2f s (the whole process), peak RSS %.0f MiB, %.1f MiB on disk\n", r.Build.Seconds(), mib(r.BuildRSS), mib(r.Disk))
	for _, m := range modes {
		var ws []string
		for _, d := range r.Wall[string(m)] {
			ws = append(ws, fmt.Sprintf("%.2f", d.Seconds()))
		}
		fmt.Fprintf(w, "- twindex search --queries --mode %s, whole processes: %s s\n", m, strings.Join(ws, ", "))
	}
	fmt.Fprintf(w, "\ntookMs: per query the median of the processes, then p50 / p95 / p99 over the queries, of each process's second pass over them (as the yardstick and FTS5's reference, after a warm-up pass); the first pass's p50 after.\n\n")
	fmt.Fprintln(w, "| mode | class | queries | p50 ms | p95 ms | p99 ms | p50 / FTS5 p50 | p95 / FTS5 p95 | first pass p50 ms | first pass p50 / FTS5 p50 |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, m := range modes {
		for _, c := range r.Classes {
			l := r.Lat[string(m)][c]
			if len(l) == 0 {
				continue
			}
			p50, p95, p99, f50 := at(l, 50), at(l, 95), at(l, 99), at(r.First[string(m)][c], 50)
			r50, r95, rf50 := "-", "-", "-"
			if ref != nil {
				for _, f := range ref.Latency {
					if f.Mode == string(m) && f.Class == c {
						r50 = ratio(float64(p50.Microseconds()), float64(f.P50))
						r95 = ratio(float64(p95.Microseconds()), float64(f.P95))
						rf50 = ratio(float64(f50.Microseconds()), float64(f.P50))
					}
				}
			}
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", m, c, len(l), ms(p50), ms(p95), ms(p99), r50, r95, ms(f50), rf50)
		}
	}
	if ref != nil {
		fmt.Fprintf(w, "\n- build / FTS5's (insert + optimize, %.2f s): %s\n", ref.LoadTotalS, ratio(r.Build.Seconds(), ref.LoadTotalS))
		fmt.Fprintf(w, "- on disk / FTS5's DB file (%.1f MiB): %s\n", mib(ref.DBBytes), ratio(float64(r.Disk), float64(ref.DBBytes)))
	}
}
