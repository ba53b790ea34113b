package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// coldConfig is one run of the cold command.
type coldConfig struct {
	Corpus   string
	Queries  stringList // query files in the shape of queries.jsonl
	Given    stringList // more queries, class "given"
	Twindex  string     // the twindex binary
	Before   string     // another twindex binary, run beside it; "" for none
	DB       string     // fts5_ref.py's NAME.db; "" leaves sqlite3 out
	Dir      string     // work directory; "" means a temp dir, removed afterwards
	Rounds   int
	PerClass int  // queries per class, evenly spread; 0 means all
	NoServe  bool // leave out the phase with twindex serve running
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func coldCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := coldConfig{}
	fs := flag.NewFlagSet("cold", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Corpus, "corpus", "", "corpus `NAME.jsonl` (shared/bench/make_corpus.py); required")
	fs.Var(&cfg.Queries, "queries", "a query `file` in the shape of queries.jsonl (make_queries.py, twindex-bench tail); repeatable; required")
	fs.Var(&cfg.Given, "query", "one more query `text`, in a class of its own (\"given\"); repeatable")
	fs.StringVar(&cfg.Twindex, "twindex", "", "the twindex `binary` to run (CGO_ENABLED=0 go build ./cmd/twindex); required")
	fs.StringVar(&cfg.Before, "before", "", "another twindex `binary` (the tree before a change), whose two searches run beside --twindex's in every round, query by query; adds their columns and ratios")
	fs.StringVar(&cfg.DB, "db", "", "fts5_ref.py's `NAME.db` of the same corpus, for the sqlite3 CLI; none leaves it out")
	fs.StringVar(&cfg.Dir, "dir", "", "work `dir` for the corpus files and their index (kept, reused); default a temp dir, removed at the end")
	fs.IntVar(&cfg.Rounds, "rounds", 3, "rounds over the queries; the tools alternate in each")
	fs.IntVar(&cfg.PerClass, "per-class", 20, "queries per class, spread evenly over each file's class; 0 for all")
	fs.BoolVar(&cfg.NoServe, "no-serve", false, "leave out the rounds with twindex serve owning the index")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: twindex-bench cold --corpus NAME.jsonl --queries queries.jsonl --twindex BIN [flags]

Times whole processes, start to exit, page cache warm: what a user waits
for at a prompt. Writes the corpus as files (one per document: its body,
at its ID), indexes the folder with "twindex index DIR" (timed), then for
every query and round runs, in an order that alternates between rounds:

  twindex            twindex search --limit 20 --format json Q DIR (syncs DIR first)
  twindex no-sync    the same with --no-sync
  rg                 rg -i -F -l Q DIR (the query as one literal; a quoted
                     phrase without its quotes)
  sqlite3            sqlite3 -readonly DB with fts5_ref.py's auto query (top
                     20 of the RRF of trigram and porter, with snippets)
  twindex (before), twindex no-sync (before)
                     the two twindex searches of the --before binary: runs
                     minutes apart drift more than a change moves them;
                     alternated with the others query by query, their
                     ratios resolve it

and, unless --no-serve, with "twindex serve DIR" owning the index, the two
twindex searches again (they forward to it) beside rg. Then, apart, since
each writes the index:

  twindex edited     the default search after one file's mtime is set to
                     now, as an editor's save does: the search finds it,
                     opens the index for writing and writes it again; an
                     untimed one of the same binary runs first, so that
                     each follows its own binary's write
  twindex edited (before)
                     the same with the --before binary
  twindex add/remove, twindex add/remove (before)
                     the same after a file is made, or the one made
                     before is deleted, in turn

beside rg. Per tool and class: p50/p95/p99 over the queries of the median
over the rounds, and ratios.

`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.Corpus == "" || len(cfg.Queries) == 0 || cfg.Twindex == "" || cfg.Rounds < 1 || cfg.PerClass < 0 {
		fmt.Fprintln(stderr, "cold: --corpus, --queries and --twindex are required; --rounds >= 1")
		fs.Usage()
		return errUsage
	}
	res, err := cold(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	printCold(stdout, res)
	return nil
}

// coldTool is one way to answer a query, run as a process.
type coldTool struct {
	name  string
	serve bool // run while twindex serve owns the index
	// change, when set, is made to the files before each run, in a
	// phase of its own: changeEdit or changeAddRemove.
	change string
	// writes: a search after a change that writes the index, which an untimed
	// one of the same binary precedes, so that the timed search follows
	// its own binary's write, as a user's follows their last one (a
	// writer notes the store's state it leaves, which spares the next
	// process the check of the store, and one binary's note is not
	// another's).
	writes bool
	argv   func(q benchQuery) []string
}

// The changes made before a coldTool's runs.
const (
	changeEdit      = "edited"     // one file's mtime set to now
	changeAddRemove = "add/remove" // a file made, or the one made before deleted
)

// rgBeside names rg's runs in each change's phase.
var rgBeside = map[string]string{changeEdit: "the edits", changeAddRemove: "add/remove"}

// coldResult is what cold measured.
type coldResult struct {
	Corpus            string
	Docs, Files       int
	Build             time.Duration // twindex index DIR, the whole process
	BuildRSS          int64         // its peak RSS, bytes
	Loadavg, LoadPost string
	Classes           []string
	Tools             []string
	// Lat holds, per tool and class, each query's median over the
	// rounds, sorted.
	Lat map[string]map[string][]time.Duration
	// Failed counts the runs that exited with an error, per tool.
	Failed map[string]int
}

func cold(ctx context.Context, cfg coldConfig, log io.Writer) (*coldResult, error) {
	qs, err := coldQueries(cfg)
	if err != nil {
		return nil, err
	}
	bin, err := filepath.Abs(cfg.Twindex)
	if err != nil {
		return nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "twindex-cold-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	files := filepath.Join(dir, "files")
	res := &coldResult{Corpus: strings.SplitN(filepath.Base(cfg.Corpus), ".", 2)[0], Loadavg: loadavg(),
		Lat: map[string]map[string][]time.Duration{}, Failed: map[string]int{}}
	var edited string // the file an editor saves before each edited search
	if res.Docs, res.Files, edited, err = writeCorpusFiles(cfg.Corpus, files); err != nil {
		return nil, err
	}
	defer os.Remove(madeBeside(edited)) // the corpus as written, for a later run in --dir
	fmt.Fprintf(log, "cold %s: %d documents as %d files in %s\n", res.Corpus, res.Docs, res.Files, files)
	if _, err := os.Stat(filepath.Join(files, ".twindex")); err != nil {
		run, err := runTimed(ctx, bin, "index", "--quiet", files)
		if err != nil {
			return nil, fmt.Errorf("twindex index: %w", err)
		}
		res.Build, res.BuildRSS = run.wall, run.maxRSS
		fmt.Fprintf(log, "  twindex index: %.2f s, peak RSS %.0f MiB\n", res.Build.Seconds(), mib(res.BuildRSS))
	}

	searchWith := func(bin string, extra ...string) func(benchQuery) []string {
		return func(q benchQuery) []string {
			return append(append([]string{bin, "search", "--limit", "20", "--format", "json"}, extra...), "--", q.Text, files)
		}
	}
	search := func(extra ...string) func(benchQuery) []string { return searchWith(bin, extra...) }
	rg := coldTool{name: "rg", argv: func(q benchQuery) []string { return []string{"rg", "-i", "-F", "-l", "--", rgLiteral(q.Text), files} }}
	tools := []coldTool{{name: "twindex", argv: search()}, {name: "twindex no-sync", argv: search("--no-sync")}, rg}
	if cfg.DB != "" {
		tools = append(tools, coldTool{name: "sqlite3", argv: func(q benchQuery) []string {
			return []string{"sqlite3", "-readonly", cfg.DB, fts5AutoSQL(q.Text)}
		}})
	}
	if cfg.Before != "" {
		before, err := filepath.Abs(cfg.Before)
		if err != nil {
			return nil, err
		}
		tools = append(tools, coldTool{name: "twindex (before)", argv: searchWith(before)},
			coldTool{name: "twindex no-sync (before)", argv: searchWith(before, "--no-sync")})
	}
	for _, change := range []string{changeEdit, changeAddRemove} {
		tools = append(tools, coldTool{name: "twindex " + change, change: change, writes: true, argv: search()})
		if cfg.Before != "" {
			before, err := filepath.Abs(cfg.Before)
			if err != nil {
				return nil, err
			}
			tools = append(tools, coldTool{name: "twindex " + change + " (before)", change: change, writes: true, argv: searchWith(before)})
		}
		tools = append(tools, coldTool{name: "rg (beside " + rgBeside[change] + ")", change: change, argv: rg.argv})
	}
	if !cfg.NoServe {
		tools = append(tools,
			coldTool{name: "twindex (served)", serve: true, argv: search()},
			coldTool{name: "twindex no-sync (served)", serve: true, argv: search("--no-sync")},
			coldTool{name: "rg (beside the server)", serve: true, argv: rg.argv})
	}
	for _, t := range tools {
		res.Tools = append(res.Tools, t.name)
	}
	for _, q := range qs {
		if !slices.Contains(res.Classes, q.Class) {
			res.Classes = append(res.Classes, q.Class)
		}
	}
	// Warm the page cache and the index's side files (the first search of
	// a new index notes its checked segments).
	for _, t := range tools {
		if t.serve || t.change != "" {
			continue
		}
		if _, err := runTimed(ctx, t.argv(qs[0])...); err != nil {
			return nil, fmt.Errorf("%s: %w", t.name, err)
		}
	}

	samples := map[string]map[string][]time.Duration{} // tool -> qid -> runs
	for _, t := range tools {
		samples[t.name] = map[string][]time.Duration{}
	}
	for round := range cfg.Rounds {
		for _, phase := range []string{"", " (served)", " (" + changeEdit + ")", " (" + changeAddRemove + ")"} {
			served := phase == " (served)"
			change := ""
			if !served && phase != "" {
				change = phase[2 : len(phase)-1]
			}
			var ts []coldTool
			for _, t := range tools {
				if t.serve == served && t.change == change {
					ts = append(ts, t)
				}
			}
			if len(ts) == 0 {
				continue
			}
			stop := func() error { return nil }
			if served {
				if stop, err = startServe(ctx, bin, files, log); err != nil {
					return nil, err
				}
			}
			fmt.Fprintf(log, "  round %d%s: %d queries x %d tools\n", round+1, phase, len(qs), len(ts))
			for i, q := range qs {
				order := slices.Clone(ts)
				if (round+i)%2 == 1 {
					slices.Reverse(order)
				}
				for _, t := range order {
					if t.writes {
						if err := changeFiles(t.change, edited); err != nil {
							return nil, err
						}
						if _, err := runTimed(ctx, t.argv(q)...); err != nil && ctx.Err() == nil {
							res.Failed[t.name]++
							fmt.Fprintf(log, "  %s %q (untimed): %v\n", t.name, q.Text, err)
						}
					}
					if err := changeFiles(t.change, edited); err != nil {
						return nil, err
					}
					run, err := runTimed(ctx, t.argv(q)...)
					if ctx.Err() != nil {
						stop()
						return nil, ctx.Err()
					}
					if err != nil {
						res.Failed[t.name]++
						fmt.Fprintf(log, "  %s %q: %v\n", t.name, q.Text, err)
						continue
					}
					samples[t.name][q.ID] = append(samples[t.name][q.ID], run.wall)
				}
			}
			if err := stop(); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range tools {
		res.Lat[t.name] = map[string][]time.Duration{}
		for _, q := range qs {
			runs := samples[t.name][q.ID]
			if len(runs) == 0 {
				continue
			}
			slices.Sort(runs)
			m := runs[len(runs)/2]
			res.Lat[t.name][q.Class] = append(res.Lat[t.name][q.Class], m)
			res.Lat[t.name]["all"] = append(res.Lat[t.name]["all"], m)
		}
		for _, l := range res.Lat[t.name] {
			slices.Sort(l)
		}
	}
	res.Classes = append(res.Classes, "all")
	res.LoadPost = loadavg()
	return res, nil
}

// coldQueries reads the query files and keeps cfg.PerClass queries of each
// class of each file, spread evenly, then the given ones.
func coldQueries(cfg coldConfig) ([]benchQuery, error) {
	var out []benchQuery
	for _, path := range cfg.Queries {
		qs, err := readQueries(path)
		if err != nil {
			return nil, err
		}
		var classes []string
		for _, q := range qs {
			if !slices.Contains(classes, q.Class) {
				classes = append(classes, q.Class)
			}
		}
		for _, c := range classes {
			var in []benchQuery
			for _, q := range qs {
				if q.Class == c {
					in = append(in, q)
				}
			}
			n := len(in)
			if cfg.PerClass > 0 {
				n = min(n, cfg.PerClass)
			}
			for i := range n {
				out = append(out, in[i*len(in)/n])
			}
		}
	}
	for i, text := range cfg.Given {
		out = append(out, benchQuery{ID: fmt.Sprintf("given-%02d", i), Class: "given", Text: text})
	}
	if len(out) == 0 {
		return nil, errors.New("no queries")
	}
	return out, nil
}

// changeFiles makes change to the files: edited is a corpus file, beside
// which add/remove makes a file of its own (madeBeside) or deletes it.
func changeFiles(change, edited string) error {
	switch change {
	case changeEdit:
		now := time.Now()
		return os.Chtimes(edited, now, now)
	case changeAddRemove:
		made := madeBeside(edited)
		if err := os.Remove(made); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return os.WriteFile(made, []byte("a file made by twindex-bench cold\n"), 0o644)
	}
	return nil
}

// madeBeside is the file that add/remove makes and deletes beside the
// corpus file edited.
func madeBeside(edited string) string {
	return filepath.Join(filepath.Dir(edited), "twindex-bench-cold-made.txt")
}

// writeCorpusFiles writes each document's body to dir/ID, unless dir
// exists already (a kept --dir), and returns the number of documents and
// of files (documents whose IDs would leave dir are not written) and the
// path of the first file.
func writeCorpusFiles(corpus, dir string) (docs, files int, first string, err error) {
	_, statErr := os.Stat(dir)
	fresh := errors.Is(statErr, os.ErrNotExist)
	err = eachJSONL(corpus, func(d *benchDoc) error {
		docs++
		rel := filepath.FromSlash(d.ID)
		if !filepath.IsLocal(rel) {
			return nil
		}
		files++
		p := filepath.Join(dir, rel)
		if first == "" {
			first = p
		}
		if !fresh {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(d.Body), 0o644)
	})
	return docs, files, first, err
}

// rgLiteral is the text rg looks for: the query as one literal, a quoted
// phrase without its quotes.
func rgLiteral(q string) string {
	if len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' {
		return q[1 : len(q)-1]
	}
	return q
}

// fts5AutoSQL is fts5_ref.py's auto query (build_sql("auto")) for text,
// with its match expressions inlined as SQL literals: the top 20 of the
// RRF (k 60) of the top 60 of the trigram and porter tables, with a
// snippet each. Tokens under three characters are dropped from the
// trigram side, as fts5_ref.py drops them.
func fts5AutoSQL(text string) string {
	quote := func(toks []string) string {
		var q []string
		for _, t := range toks {
			q = append(q, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
		}
		return strings.Join(q, " AND ")
	}
	toks := strings.Fields(text)
	var long []string
	for _, t := range toks {
		if len([]rune(t)) >= 3 {
			long = append(long, t)
		}
	}
	lit := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	type leg struct{ name, table, expr string }
	var legs []leg
	if e := quote(toks); e != "" {
		legs = append(legs, leg{"txt", "fts_text", e})
	}
	if e := quote(long); e != "" {
		legs = append(legs, leg{"tri", "fts_tri", e})
	}
	if len(legs) == 0 {
		return "SELECT 1 WHERE 0"
	}
	var ctes, union, snips []string
	for _, l := range legs {
		ctes = append(ctes, fmt.Sprintf(`%s AS (SELECT rid, row_number() OVER (ORDER BY r) AS pos FROM
  (SELECT rowid AS rid, rank AS r FROM %s WHERE %s MATCH %s ORDER BY rank LIMIT 60))`, l.name, l.table, l.table, lit(l.expr)))
		union = append(union, "SELECT rid, pos FROM "+l.name)
		snips = append(snips, fmt.Sprintf("(SELECT snippet(%s, -1, '[', ']', '…', 32) FROM %s WHERE %s MATCH %s AND rowid = f.rid)",
			l.table, l.table, l.table, lit(l.expr)))
	}
	return fmt.Sprintf(`WITH %s,
fused AS (SELECT rid, sum(1.0 / (60 + pos)) AS score, min(pos) AS best
  FROM (%s) GROUP BY rid ORDER BY score DESC, best, rid LIMIT 20)
SELECT (SELECT id FROM fts_text WHERE rowid = f.rid), coalesce(%s, NULL)
FROM fused f ORDER BY score DESC, best, rid`, strings.Join(ctes, ",\n"), strings.Join(union, " UNION ALL "), strings.Join(snips, ", "))
}

// timedRun is one process's wall time, start to exit, and peak RSS.
type timedRun struct {
	wall   time.Duration
	maxRSS int64
}

// runTimed runs argv with its output discarded. Exit status 1 (no
// results, no match) is not an error.
func runTimed(ctx context.Context, argv ...string) (timedRun, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	run := timedRun{wall: time.Since(t0)}
	if cmd.ProcessState != nil {
		run.maxRSS = maxRSS(cmd.ProcessState)
	}
	var xe *exec.ExitError
	if errors.As(err, &xe) && xe.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return run, fmt.Errorf("%s: %w: %s", strings.Join(argv[:min(2, len(argv))], " "), err, strings.TrimSpace(stderr.String()))
	}
	return run, nil
}

// startServe starts twindex serve on dir and returns once it answers
// searches; stop ends it with SIGTERM and waits.
func startServe(ctx context.Context, bin, dir string, log io.Writer) (stop func() error, err error) {
	cmd := exec.Command(bin, "serve", dir)
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop = func() error {
		if err := terminate(cmd.Process); err != nil {
			return err
		}
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("twindex serve: %w", err)
		}
		return nil
	}
	owner := filepath.Join(dir, ".twindex", "serve", "owner.json")
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(owner); err == nil {
			if _, err := runTimed(ctx, bin, "stats", "--index", filepath.Join(dir, ".twindex")); err == nil {
				return stop, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			stop()
			return nil, fmt.Errorf("twindex serve %s: not serving after 2 minutes", dir)
		}
	}
}

// printCold writes cold's tables: latency per tool and class, then the
// ratios of twindex's to rg's and sqlite3's, and to the --before binary's.
func printCold(w io.Writer, r *coldResult) {
	fmt.Fprintf(w, "## cold processes, %s: %d documents (%d files), loadavg before %s, after %s\n\n", r.Corpus, r.Docs, r.Files, r.Loadavg, r.LoadPost)
	if r.Build > 0 {
		fmt.Fprintf(w, "- twindex index DIR: %.2f s, peak RSS %.0f MiB\n", r.Build.Seconds(), mib(r.BuildRSS))
	}
	for _, t := range r.Tools {
		if n := r.Failed[t]; n > 0 {
			fmt.Fprintf(w, "- %s: %d runs failed (see the log)\n", t, n)
		}
	}
	fmt.Fprintf(w, "\nWall ms, process start to exit: per query the median of the rounds, then p50 / p95 / p99 over the class's queries.\n\n")
	fmt.Fprintf(w, "| class | queries | %s |\n|---|--:|%s\n", strings.Join(r.Tools, " | "), strings.Repeat("--:|", len(r.Tools)))
	for _, c := range r.Classes {
		n := len(r.Lat[r.Tools[0]][c])
		fmt.Fprintf(w, "| %s | %d |", c, n)
		for _, t := range r.Tools {
			l := r.Lat[t][c]
			fmt.Fprintf(w, " %s / %s / %s |", ms(at(l, 50)), ms(at(l, 95)), ms(at(l, 99)))
		}
		fmt.Fprintln(w)
	}
	pairs := [][2]string{{"twindex", "rg"}, {"twindex no-sync", "rg"}, {"twindex", "sqlite3"}, {"twindex no-sync", "sqlite3"},
		{"twindex (served)", "rg (beside the server)"}, {"twindex no-sync (served)", "rg (beside the server)"},
		{"twindex", "twindex (before)"}, {"twindex no-sync", "twindex no-sync (before)"},
		{"twindex edited", "rg (beside the edits)"}, {"twindex edited", "twindex edited (before)"},
		{"twindex add/remove", "rg (beside add/remove)"}, {"twindex add/remove", "twindex add/remove (before)"}}
	var cols []string
	for _, p := range pairs {
		if r.Lat[p[0]] != nil && r.Lat[p[1]] != nil {
			cols = append(cols, p[0]+" / "+p[1])
		}
	}
	fmt.Fprintf(w, "\nRatios of p50 (and p95):\n\n| class | %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("--:|", len(cols)))
	for _, c := range r.Classes {
		fmt.Fprintf(w, "| %s |", c)
		for _, p := range pairs {
			a, b := r.Lat[p[0]], r.Lat[p[1]]
			if a == nil || b == nil {
				continue
			}
			fmt.Fprintf(w, " %s (%s) |", ratio(float64(at(a[c], 50)), float64(at(b[c], 50))),
				ratio(float64(at(a[c], 95)), float64(at(b[c], 95))))
		}
		fmt.Fprintln(w)
	}
}
