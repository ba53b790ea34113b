package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// serveLoadConfig is one serve-load run.
type serveLoadConfig struct {
	Corpus    string // NAME.jsonl from make_corpus.py
	Queries   string // queries.jsonl from make_queries.py
	Dir       string // index directory; "" means a temp dir, removed afterwards
	Batch     int    // documents per PUT /v1/docs
	Searchers int    // concurrent searching clients
	Top       int    // hits per search
	Mode      string // search mode
	Passes    int    // passes over the queries in the idle phase
	NoReload  bool   // skip the phase that loads the corpus again over itself
}

func serveLoadCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := serveLoadConfig{}
	fs := flag.NewFlagSet("serve-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus `NAME.jsonl` (shared/bench/make_corpus.py); required")
	fs.StringVar(&cfg.Queries, "queries", "", "`queries.jsonl` (shared/bench/make_queries.py); required")
	fs.StringVar(&cfg.Dir, "dir", "", "index `dir` (must be empty or absent; kept); default a temp dir, removed at the end")
	fs.IntVar(&cfg.Batch, "batch", 500, "documents per PUT /v1/docs (1..1000)")
	fs.IntVar(&cfg.Searchers, "searchers", 2, "clients searching at once")
	fs.IntVar(&cfg.Top, "top", 20, "hits per search (1..50)")
	fs.StringVar(&cfg.Mode, "mode", "auto", "search mode")
	fs.IntVar(&cfg.Passes, "passes", 3, "passes over the queries in the idle phase")
	fs.BoolVar(&cfg.NoReload, "no-reload", false, "skip the third phase, which loads the corpus again over the full index")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench serve-load --corpus NAME.jsonl --queries queries.jsonl [flags]

Serves a new index over HTTP on 127.0.0.1 (server.Own, in this process)
and times searches (POST /v1/search) by concurrent clients in three
phases: while the corpus streams in through PUT /v1/docs into the empty
index; on the full index, idle; and while the corpus streams in again,
replacing every document. Prints latency percentiles per phase and the
ratios of the loaded phases' to the idle phase's.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Corpus == "" || cfg.Queries == "" || cfg.Batch < 1 || cfg.Batch > 1000 || cfg.Searchers < 1 || cfg.Top < 1 || cfg.Top > 50 {
		fs.Usage()
		return errUsage
	}
	rows, err := serveLoad(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	printServeLoad(stdout, cfg, rows)
	return nil
}

// loadRow is one phase's figures.
type loadRow struct {
	Phase    string
	Searches int
	Errors   int
	Lat      []time.Duration // per search, sorted
	Puts     []time.Duration // per PUT, sorted; none when idle
	Docs     int
	Took     time.Duration
}

func serveLoad(ctx context.Context, cfg serveLoadConfig, log io.Writer) ([]loadRow, error) {
	qs, err := readQueries(cfg.Queries)
	if err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "twindex-serve-load-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "idx")
	}
	ix, err := index.Open(dir, nil)
	if err != nil {
		return nil, err
	}
	h := server.NewHost(ix, nil)
	defer h.Close()
	ow, err := server.Own(h, &server.OwnOptions{HTTP: "127.0.0.1:0", Version: "serve-load"})
	if err != nil {
		return nil, err
	}
	defer ow.Close(context.Background())
	url := ow.HTTPAddr()
	fmt.Fprintf(log, "serving %s on %s\n", dir, url)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: cfg.Searchers + 1}}

	var rows []loadRow
	phase := func(name string, load bool) error {
		fmt.Fprintf(log, "phase %s ...\n", name)
		row := loadRow{Phase: name}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var mu sync.Mutex
		var wg sync.WaitGroup
		budget := cfg.Passes * len(qs) // searches of the idle phase
		start := time.Now()
		for g := range cfg.Searchers {
			wg.Go(func() {
				for n := g; ; n += cfg.Searchers {
					if ctx.Err() != nil || !load && n >= budget {
						return
					}
					q := qs[n%len(qs)]
					body, _ := json.Marshal(map[string]any{"query": q.Text, "mode": cfg.Mode, "limit": cfg.Top})
					t0 := time.Now()
					err := post(ctx, hc, http.MethodPost, url+"/v1/search", body)
					d := time.Since(t0)
					mu.Lock()
					if err != nil && ctx.Err() == nil {
						row.Errors++
						if row.Errors <= 3 {
							fmt.Fprintf(log, "search %q: %v\n", q.Text, err)
						}
					} else if err == nil {
						row.Searches++
						row.Lat = append(row.Lat, d)
					}
					mu.Unlock()
				}
			})
		}
		var lerr error
		if load {
			lerr = streamCorpus(ctx, hc, url, cfg, &row, log)
			cancel()
		}
		wg.Wait()
		row.Took = time.Since(start)
		slices.Sort(row.Lat)
		slices.Sort(row.Puts)
		rows = append(rows, row)
		return lerr
	}
	if err := phase("load", true); err != nil {
		return rows, err
	}
	if err := phase("idle", false); err != nil {
		return rows, err
	}
	if !cfg.NoReload {
		if err := phase("reload", true); err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// streamCorpus PUTs the corpus in batches and times each PUT.
func streamCorpus(ctx context.Context, hc *http.Client, url string, cfg serveLoadConfig, row *loadRow, log io.Writer) error {
	var batch []map[string]any
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		body, err := json.Marshal(map[string]any{"docs": batch})
		if err != nil {
			return err
		}
		t0 := time.Now()
		if err := post(ctx, hc, http.MethodPut, url+"/v1/docs", body); err != nil {
			return err
		}
		row.Puts = append(row.Puts, time.Since(t0))
		row.Docs += len(batch)
		if len(row.Puts)%10 == 0 {
			fmt.Fprintf(log, "  %d documents\n", row.Docs)
		}
		batch = batch[:0]
		return nil
	}
	err := eachJSONL(cfg.Corpus, func(d *benchDoc) error {
		doc, err := d.doc()
		if err != nil {
			return err
		}
		j := map[string]any{"id": doc.ID, "kind": doc.Kind, "title": doc.Title, "body": doc.Body, "parent": doc.Parent,
			"tags": doc.Tags, "project": doc.Project}
		if !doc.Time.IsZero() {
			j["ts"] = doc.Time.Format(time.RFC3339)
		}
		batch = append(batch, j)
		if len(batch) == cfg.Batch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// post sends a JSON body and fails on any status but 200.
func post(ctx context.Context, hc *http.Client, method, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status + ": " + string(bytes.TrimSpace(b)))
	}
	return nil
}

func printServeLoad(w io.Writer, cfg serveLoadConfig, rows []loadRow) {
	fmt.Fprintf(w, "## serve-load: %s, %d searchers (%s, top %d), PUT batches of %d\n\n", filepath.Base(cfg.Corpus), cfg.Searchers, cfg.Mode, cfg.Top, cfg.Batch)
	fmt.Fprintln(w, "| phase | searches | errors | p50 ms | p90 ms | p99 ms | max ms | docs/s | PUT p50 ms | PUT p99 ms |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var idle time.Duration
	for _, r := range rows {
		if r.Phase == "idle" {
			idle = at(r.Lat, 99)
		}
	}
	for _, r := range rows {
		rate, putP50, putP99 := "-", "-", "-"
		if r.Docs > 0 {
			rate = fmt.Sprintf("%.0f", float64(r.Docs)/r.Took.Seconds())
			putP50, putP99 = ms(at(r.Puts, 50)), ms(at(r.Puts, 99))
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n", r.Phase, r.Searches, r.Errors,
			ms(at(r.Lat, 50)), ms(at(r.Lat, 90)), ms(at(r.Lat, 99)), ms(at(r.Lat, 100)), rate, putP50, putP99)
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		if r.Phase != "idle" && idle > 0 && len(r.Lat) > 0 {
			fmt.Fprintf(w, "p99 %s / p99 idle: %.1fx\n", r.Phase, float64(at(r.Lat, 99))/float64(idle))
		}
	}
}

// at is the p-th percentile of sorted durations (100: the largest).
func at(xs []time.Duration, p int) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	i := len(xs) * p / 100
	if i >= len(xs) {
		i = len(xs) - 1
	}
	return xs[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
