package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/server"
)

// searchFlags are the flags of `twindex search`.
type searchFlags struct {
	index, mode, role, under, since, until, order, format, queries string
	syntax, fuzzy, boostProject, boostSession                      string
	kinds, projects, tags                                          stringList
	limit, offset, fallback, expand, rerank                        int
	explain, json, noSync, quiet, prefix, serve                    bool
	maxSize                                                        int64
	// ripgrep's
	filesOnly, count                 bool
	limitSet                         bool   // --limit or -k was given
	lineNumbers, heading             choice // -n/-N, --heading/--no-heading
	context, after, before, maxCount int
	color                            string
	emb                              *embedFlags
	rr                               *rerankFlags
	lang                             *string
}

const searchHelp = `  twindex search "open file"                    search the current folder (indexed on first use)
  twindex search "open file" "$(go env GOROOT)/src" -t code -k 5
  twindex search OpenStore -C 2                 matching lines with two lines of context
  twindex search -l pelican | xargs wc -l       the paths of all hits, best first
  twindex search Reader --mode substring --json | jq '.hits[].id'
  twindex search --syntax raw 'title:config* NOT (test OR mock)'
  twindex search cofnig --fuzzy auto
  twindex search -- -race                       a query that starts with -
  echo "open file" | twindex search -           the query from stdin
  twindex search --queries queries.jsonl --format trec > run.txt

Output (text) is ripgrep's: each hit's matching lines, best hit first;
on a terminal a heading with the path, then line:text, matches in color;
in a pipe path:text (path:line:text with -n). -l prints the paths only,
-c path:N, the lines of each hit with a match: both for every hit unless
-k is given. Context lines use - where matches use :, and -- separates
groups that are not contiguous. A hit found by its title (or vector, or
links) has no such line: under a heading it shows its snippet, in a pipe
its path alone. Paths of files are printed as PATH was given (relative
to the current folder without one). Matching folds case and accents in
both legs, so there is no smart case: the substring leg and the trigram
index hold folded text, as FTS5's trigram tokenizer does with
case_sensitive 0.

Syntax: simple (default) takes every character literally and "quotes" make
a phrase; a word matches whole words, not as a prefix, unless --prefix is
given or the query ends with a * (pelic*): then its last word also matches
as a prefix, as typed in a search box. raw is SQLite FTS5's query syntax:
AND OR NOT (uppercase), (groups), "phrases", prefix*, NEAR(a b, N),
title:word, {title body}:word, -title:word, ^initial; a malformed query
exits 2 pointing at the error.

Tolerance: --fuzzy auto|1|2 lets the words also match the indexed words
within that many edits (auto: 0 up to 2 letters, 1 up to 5, 2 beyond), at a
lower weight, in one ranking with the exact matches; hits matched only
approximately are marked fuzzy. When fewer than --fallback hits (default 3)
match, the search ranks again with the words fuzzy (auto), and when a word
is in no document, with that word fuzzy. A search that finds nothing says
"no results" on stderr, suggests the nearest indexed words ("did you
mean"), and names the filter (--kind, --under, --offset, ...) that left
nothing.

PATH (default ".") is a folder or file under the index root; results are
limited to it. Before searching, the index is brought up to date with PATH:
new and changed files (size or mtime differ, then content hash) are indexed
and deleted ones removed; --no-sync skips this. .gz files are searched by
their decompressed text, HTML and document XML by their text.

Formats: text (above), json ({"query","mode","hits":[...],"total",
"nextOffset","truncated","tookMs"}; each hit with its "line" and "column",
and its "lines" with -A, -B, -C or -m; snippets are HTML-escaped with
<mark>), jsonl (one hit per line), trec ("qid Q0 docid rank score twindex").

--queries FILE runs one query per line: {"id","text"} JSON or plain text
(id = line number); output is one JSON result per query (with "id" and
"tookMs"), or a TREC run with --format trec.

Exit status: 0 results, 1 no results, 2 usage or query error, 3 index error.`

// parseSearch reads search's flags and checks those that depend on each
// other; pos are the arguments left.
func parseSearch(e *env, args []string) (f *searchFlags, pos []string, err error) {
	f = &searchFlags{}
	fs := newFlagSet(e, "search", "twindex search QUERY [PATH] [flags]", searchHelp)
	fs.StringVar(&f.index, "index", "", fs.indexFlagUsage())
	fs.StringVar(&f.mode, "mode", "auto", "the legs that run: substring (exact, case-insensitive), text (stemmed words, BM25), vector (nearest embeddings; needs --embed-url), or legs joined with + and fused: auto = substring+text, hybrid = all three")
	fs.StringVar(&f.syntax, "syntax", "simple", "simple (every character literal) or raw (SQLite FTS5 syntax: AND OR NOT NEAR ( ) \"phrase\" prefix* title: ^)")
	fs.StringVar(&f.fuzzy, "fuzzy", "off", "off, auto, 1 or 2: also match words within that many edits, at a lower weight")
	fs.BoolVar(&f.prefix, "prefix", false, "the last word also matches as a prefix, as typed in a search box (a * at the end of the query does the same)")
	fs.IntVar(&f.fallback, "fallback", index.DefaultFallback, "when fewer hits than this match exactly, add fuzzy matches; 0 turns it off")
	fs.IntVar(&f.expand, "expand", 0, "add the documents linked to the top 5 hits, up to `N` hops away (JSONL \"links\")")
	fs.StringVar(&f.boostProject, "boost-project", "", "rank hits from this `project` higher (x1.5)")
	fs.StringVar(&f.boostSession, "boost-session", "", "rank hits from this `session` higher (x1.2)")
	fs.oneOf("mode", "auto", "substring", "text", "vector", "hybrid", "substring+text", "text+vector", "substring+vector")
	fs.oneOf("syntax", "simple", "raw")
	fs.oneOf("fuzzy", "off", "auto", "1", "2")
	f.emb = fs.embedFlags(e)
	f.lang = fs.langFlag()
	f.rr = fs.rerankFlags(e)
	fs.IntVar(&f.rerank, "rerank", -1, "with --rerank-url, reorder the first `N` hits of the first page by the reranker's scores (default: the whole page; 0 turns it off)")
	fs.Var(&f.kinds, "kind", "only documents of this `kind` (code, test, doc, config, other, ...); repeatable")
	fs.alias("t", "kind")
	fs.oneOf("kind", "code", "test", "doc", "config", "other")
	fs.Var(&f.projects, "project", "only this `project`; repeatable")
	fs.Var(&f.tags, "tag", "only documents with this `tag`; repeatable (any of)")
	fs.StringVar(&f.role, "role", "", "only documents with this `role`")
	fs.StringVar(&f.under, "under", "", "only the document with this `ID` and everything below it (a folder: src/index)")
	fs.StringVar(&f.since, "since", "", "only documents at or after this ISO-8601 `date` or datetime (files: modification time)")
	fs.StringVar(&f.until, "until", "", "only documents before this ISO-8601 `date` or datetime")
	fs.StringVar(&f.order, "order", "score", "score, date_asc or date_desc")
	fs.oneOf("order", "score", "date_asc", "date_desc")
	fs.IntVar(&f.limit, "limit", index.DefaultLimit, fmt.Sprintf("hits per page, 1..%d (top k); -l and -c print every hit unless it is given (then 1..%d)", index.MaxLimit, index.MaxBareLimit))
	fs.alias("k", "limit")
	fs.IntVar(&f.offset, "offset", 0, "skip this many hits (the nextOffset of the previous page)")
	fs.BoolVar(&f.explain, "explain", false, "show how each hit was ranked")
	fs.StringVar(&f.format, "format", "text", "text (as ripgrep prints matches), json, jsonl or trec")
	fs.oneOf("format", "text", "json", "jsonl", "trec")
	fs.BoolVar(&f.filesOnly, "files-with-matches", false, "print only the paths of the hits, best first: all of them unless --limit is given")
	fs.alias("l", "files-with-matches")
	fs.BoolVar(&f.count, "count", false, "print each hit's path and how many of its lines hold a match (path:N): all hits unless --limit is given")
	fs.alias("c", "count")
	fs.choice(&f.lineNumbers, "line-number", "print line numbers (the default on a terminal)", "no-line-number", "no line numbers")
	fs.alias("n", "line-number")
	fs.alias("N", "no-line-number")
	fs.IntVar(&f.context, "context", 0, fmt.Sprintf("show `N` lines before and after each matching line (at most %d)", index.MaxContext))
	fs.alias("C", "context")
	fs.IntVar(&f.after, "after-context", 0, "show `N` lines after each matching line")
	fs.alias("A", "after-context")
	fs.IntVar(&f.before, "before-context", 0, "show `N` lines before each matching line")
	fs.alias("B", "before-context")
	fs.IntVar(&f.maxCount, "max-count", 0, fmt.Sprintf("show at most `N` matching lines of each hit (default %d)", index.DefaultMaxLines))
	fs.alias("m", "max-count")
	fs.choice(&f.heading, "heading", "print each hit's path above its lines (the default on a terminal)", "no-heading", "start every line with its path (the default in a pipe)")
	fs.StringVar(&f.color, "color", "auto", "auto (on a terminal, without NO_COLOR), always or never")
	fs.oneOf("color", "auto", "always", "never")
	fs.BoolVar(&f.json, "json", false, "short for --format json")
	fs.StringVar(&f.queries, "queries", "", "run every query in `FILE` (- for stdin): JSON {\"id\",\"text\"} or plain lines")
	fs.BoolVar(&f.noSync, "no-sync", false, "search the index as it is, without bringing it up to date first")
	fs.Int64Var(&f.maxSize, "max-size", defaultMaxSize, "when syncing, skip files larger than this many `bytes`")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress or summary on stderr")
	fs.BoolVar(&f.serve, "serve", false, "when no server owns the folder's index, start one in the background after this search succeeds ('twindex serve --idle 15m'): later searches go through it and skip the folder's walk (env TWINDEX_SERVE=1)")
	if pos, err = fs.parse(args); err != nil {
		return nil, nil, err
	}
	serveSet := false
	fs.Visit(func(fl *flag.Flag) {
		f.limitSet = f.limitSet || fl.Name == "limit" || fl.Name == "k"
		serveSet = serveSet || fl.Name == "serve"
	})
	if !serveSet {
		if f.serve, err = serveEnv(e); err != nil {
			return nil, nil, err
		}
	}
	if f.json {
		f.format = "json"
	}
	switch f.format {
	case "text", "json", "jsonl", "trec":
	default:
		return nil, nil, usageErr("run 'twindex search --help'", "unknown --format %q (want text, json, jsonl or trec)", f.format)
	}
	if err := f.checkGrep(); err != nil {
		return nil, nil, err
	}
	return f, pos, nil
}

func runSearch(ctx context.Context, e *env, args []string) (err error) {
	f, pos, err := parseSearch(e, args)
	if err != nil {
		return err
	}
	var q, path string
	switch {
	case f.queries != "" && len(pos) <= 1:
		path = "."
		if len(pos) == 1 {
			path = pos[0]
		}
	case f.queries == "" && (len(pos) == 1 || len(pos) == 2):
		q, path = pos[0], "."
		if len(pos) == 2 {
			path = pos[1]
		}
	default:
		return usageErr("run 'twindex search --help'", "want QUERY [PATH] (or --queries FILE [PATH]), got %d arguments", len(pos))
	}
	if q == "-" && f.queries == "" {
		if q, err = readQuery(e); err != nil {
			return err
		}
	}
	req, err := f.request(f.rr.url != "")
	if err != nil {
		return err
	}
	pathGiven := len(pos) == 2 || (f.queries != "" && len(pos) == 1)

	loc, err := locate(e, f.index, path)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(path)
	doSync := !f.noSync && (!loc.Explicit || loc.Root != "" || pathGiven)
	if doSync {
		if _, err := os.Stat(abs); err != nil {
			return usageErr("", "%w", err)
		}
		if loc.Root == "" {
			loc.Root = abs
			if !isDirPath(abs) {
				loc.Root = filepath.Dir(abs)
			}
		}
	}
	// Read-only, a search writes nothing to the bleve indexes (scorch would
	// persist a snapshot on Open, with fsyncs); a sync that finds changes
	// opens the index again for writing.
	opts := &index.Options{MaxDocBytes: folder.DocLimit(f.maxSize), ReadOnly: true}
	if err := f.emb.options(e, opts); err != nil {
		return err
	}
	if err := setLang(opts, *f.lang); err != nil {
		return err
	}
	if err := f.rr.options(e, opts); err != nil {
		return err
	}
	restoreGC := func() {}
	if f.queries == "" {
		restoreGC = tuneSearchGC(e)
		// One search reads each document's folded text once: a cache
		// of it would be filled for no later search.
		opts.CacheBytes = -1
	} else {
		limitMemory(e)
	}
	mode := openExisting
	if doSync {
		mode = openFill
	}
	existed := loc.Exists
	eng, filled, err := loc.engine(e, opts, mode, f.maxSize)
	if err != nil {
		return err
	}
	if f.serve && loc.Root != "" {
		defer func() { // after the Close below: the server opens the index for writing
			// eng is the engine the search ended with: a reopen for writing
			// may have found a server that started meanwhile.
			if _, owned := eng.(*server.Client); !owned && ctx.Err() == nil && (err == nil || errors.Is(err, errNoResults)) {
				startServer(e, &loc, f)
			}
		}()
	}
	defer func() { eng.Close() }()
	if err := checkServedLang(eng, *f.lang, loc.Dir); err != nil {
		return err
	}
	var ahead *searchAhead
	if doSync {
		_, owned := eng.(*server.Client)
		if !owned {
			if err := loc.RecordRoot(loc.Root); err != nil {
				return err
			}
		}
		// On an index that was there before, the search runs beside the
		// sync (a walk whose stats are mostly the kernel's): when the sync
		// finds nothing to write, the index searched is the folder's and
		// the result stands; else it is dropped and the search runs after.
		if !owned && existed && f.queries == "" {
			r := req
			r.Query, r.Prefix = lastWordPrefix(q, r)
			ahead = startAhead(ctx, eng, underRoot(eng, r, abs))
		}
		rep, err := syncFolder(ctx, e, eng, abs, syncOptions{quiet: f.quiet, writes: restoreGC})
		if ahead != nil && (err != nil || rep.Written+rep.Removed > 0) {
			ahead.drop()
			ahead = nil
		}
		if errors.Is(err, index.ErrReadOnly) {
			// The folder changed: write in what the walk found.
			so := syncOptions{quiet: f.quiet, writes: restoreGC}
			if ro := (*folder.ReadOnlyError)(nil); errors.As(err, &ro) {
				so.walk = ro.Walk
			}
			if err := eng.Close(); err != nil {
				return indexErr(err, loc.Dir)
			}
			o := *opts
			o.ReadOnly = false
			if eng, filled, err = loc.engine(e, &o, mode, f.maxSize); err != nil {
				return err
			}
			_, err = syncFolder(ctx, e, eng, abs, so)
		}
		if err != nil {
			return err
		}
		if err := filled(ctx); err != nil {
			return err
		}
	}
	req = underRoot(eng, req, abs)
	out := &output{e: e, format: f.format, color: f.useColor(e), batch: f.queries != ""}
	if f.format == "text" {
		arg := ""
		if pathGiven {
			arg = path
		}
		out.grepOpts = f.grepOptions(isTerminal(e.stdout), eng.Info().Root, abs, arg)
	}
	if f.queries != "" {
		return runQueries(ctx, e, eng, out, f.queries, req)
	}
	req.Query, req.Prefix = lastWordPrefix(q, req)
	start := time.Now()
	var res *index.Result
	if ahead != nil {
		res, start, err = ahead.wait()
	} else {
		res, err = eng.Search(ctx, req)
	}
	// -l and -c without --limit list every hit, page after page. -c's
	// bare pages count each hit's lines: the Go tree's 6,640 files
	// holding "err" take 288 ms (rg -c: 90 ms), its 1,378 holding "fd"
	// 125 ms (rg: 73 ms).
	for pages := 1; err == nil && f.listsAll() && res.NextOffset != nil && pages <= res.Total/req.Limit; pages++ {
		req.Offset = *res.NextOffset
		var next *index.Result
		if next, err = eng.Search(ctx, req); err == nil {
			res.Hits, res.NextOffset = append(res.Hits, next.Hits...), next.NextOffset
		}
	}
	if err != nil {
		return searchErr(err, q)
	}
	if err := out.result("1", q, res, time.Since(start)); err != nil {
		return err
	}
	if len(res.Hits) == 0 {
		explainEmpty(ctx, e, eng, req, res, f.under != "")
		return errNoResults
	}
	return nil
}

// listsPaths reports whether the search prints the paths of its hits
// alone (-l of the text format, outside a batch).
func (f *searchFlags) listsPaths() bool {
	return f.filesOnly && f.format == "text" && f.queries == ""
}

// countsLines reports whether the search prints the count of its hits'
// matching lines alone (-c of the text format, outside a batch).
func (f *searchFlags) countsLines() bool {
	return f.count && f.format == "text" && f.queries == ""
}

// listsAll reports whether the search prints every hit, as rg -l and -c
// print every file: -l or -c of the text format, outside a batch, without
// --limit.
func (f *searchFlags) listsAll() bool {
	return (f.filesOnly || f.count) && f.format == "text" && f.queries == "" && !f.limitSet
}

// lastWordPrefix reads a * at the end of a simple-syntax query as
// --prefix: the * goes and the last word also matches as a prefix. Raw
// syntax has word* itself; a * after a space, or alone, stays a character.
func lastWordPrefix(q string, req index.Request) (string, bool) {
	if req.Syntax != index.SyntaxRaw {
		if t, ok := strings.CutSuffix(q, "*"); ok && strings.TrimSpace(t) != "" && !strings.HasSuffix(t, " ") {
			return t, true
		}
	}
	return q, req.Prefix
}

// readQuery reads the query from stdin: all of it, less the final
// newline.
func readQuery(e *env) (string, error) {
	b, err := io.ReadAll(io.LimitReader(e.stdin, index.MaxQueryBytes+2))
	if err != nil {
		return "", usageErr("", "read the query from stdin: %w", err)
	}
	q := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if len(q) > index.MaxQueryBytes {
		return "", usageErr("", "the query on stdin is over %d bytes", index.MaxQueryBytes)
	}
	return q, nil
}

// request builds the engine request from the flags, checking what the
// engine would refuse so the message names the flag. reranker says
// whether --rerank-url is set.
func (f *searchFlags) request(reranker bool) (index.Request, error) {
	req := index.Request{
		Prefix:   f.prefix,
		Lines:    f.lineOptions(),
		Fallback: f.fallback, Kinds: f.kinds, Projects: f.projects, Tags: f.tags, Role: f.role,
		Under: strings.TrimSuffix(filepath.ToSlash(f.under), "/"), Limit: f.limit, Offset: f.offset,
		Explain: f.explain,
	}
	hint := "run 'twindex search --help'"
	var err error
	if req.Syntax, err = index.ParseSyntax(f.syntax); err != nil {
		return req, usageErr(hint, "--syntax: %w", err)
	}
	if req.Fuzzy, err = index.ParseFuzzy(f.fuzzy); err != nil {
		return req, usageErr(hint, "--fuzzy: %w", err)
	}
	if req.Mode, err = index.ParseMode(f.mode); err != nil {
		return req, usageErr(hint, "--mode: %w", err)
	}
	if req.Order, err = index.ParseOrder(f.order); err != nil {
		return req, usageErr(hint, "--order: %w", err)
	}
	if f.expand < 0 {
		return req, usageErr(hint, "--expand must not be negative")
	}
	if f.expand > 0 {
		req.Expand = &index.Expand{Depth: f.expand}
	}
	if f.boostProject != "" || f.boostSession != "" {
		req.Boost = &index.Boost{Project: f.boostProject, Session: f.boostSession}
	}
	switch {
	case f.fallback == 0:
		req.Fallback = -1
	case f.fallback < 0:
		return req, usageErr(hint, "--fallback must not be negative (0 turns it off)")
	}
	// -l prints paths only and -c counts of lines: the hits need no
	// text, and there may be more of them.
	maxLimit := index.MaxLimit
	if f.listsPaths() || f.countsLines() {
		req.Bare, maxLimit = true, index.MaxBareLimit
		if !f.limitSet {
			// Every hit in a page if it can: each page is a search,
			// and the Go tree's 6,640 files holding "err" took 127 ms
			// to list in pages of 1,000, 88 ms in one (rg -l: 75 ms).
			req.Limit = index.MaxBareLimit
		}
	}
	if req.Limit < 1 || req.Limit > maxLimit {
		return req, usageErr(hint, "--limit %d out of range 1..%d", req.Limit, maxLimit)
	}
	if f.offset < 0 {
		return req, usageErr(hint, "--offset must not be negative")
	}
	switch {
	case f.rerank > index.MaxLimit || f.rerank < -1:
		return req, usageErr(hint, "--rerank %d out of range 0..%d", f.rerank, index.MaxLimit)
	case f.rerank > 0 && !reranker:
		return req, usageErr(hint, "--rerank needs --rerank-url")
	case f.rerank > 0 && req.Bare:
		return req, usageErr(hint, "-l and -c print hits in the engine's order: --rerank has no text to rerank them by")
	case f.rerank > 0:
		req.Rerank = f.rerank
	case f.rerank == -1 && reranker && !req.Bare:
		req.Rerank = f.limit
	}
	if f.since != "" {
		if req.Since, err = server.ParseTime(f.since); err != nil {
			return req, usageErr(hint, "--since: %w", err)
		}
	}
	if f.until != "" {
		if req.Until, err = server.ParseTime(f.until); err != nil {
			return req, usageErr(hint, "--until: %w", err)
		}
	}
	if !req.Since.IsZero() && !req.Until.IsZero() && !req.Until.After(req.Since) {
		return req, usageErr(hint, "--until must be after --since")
	}
	return req, nil
}

// searchErr maps a Search error: query and request errors exit 2 with a
// hint, the rest are index errors.
func searchErr(err error, q string) error {
	var qe *query.Error
	switch {
	case errors.Is(err, index.ErrEmptyQuery):
		return &exitError{code: exitUsage, err: fmt.Errorf("nothing to search for in %q", q),
			hint: "type a word, or at least a few characters, e.g. twindex search \"open file\""}
	case errors.As(err, &qe):
		// The caret drawing starts a line of its own, so it stays aligned.
		return &exitError{code: exitUsage, err: fmt.Errorf("%w\n%s", err, qe.Caret()),
			hint: "the raw syntax is SQLite FTS5's; --syntax simple takes every character literally"}
	case errors.Is(err, index.ErrInvalidRequest):
		return &exitError{code: exitUsage, err: err, hint: "run 'twindex search --help'"}
	case errors.Is(err, context.Canceled):
		return err
	}
	return indexErr(err, "the index")
}

// underRoot returns req searching under abs, the folder searched, when
// the index has a root and no --under is given.
func underRoot(eng server.Engine, req index.Request, abs string) index.Request {
	if root := eng.Info().Root; req.Under == "" && root != "" {
		if id, ok := folder.RelID(root, abs); ok {
			req.Under = id
		}
	}
	return req
}

// searchAhead is a search run beside the sync of the folder it
// searches: when the sync finds nothing to write, the index it searched
// is the folder's and its result stands.
type searchAhead struct {
	cancel context.CancelFunc
	done   chan struct{}
	start  time.Time
	res    *index.Result
	err    error
}

func startAhead(ctx context.Context, eng server.Engine, req index.Request) *searchAhead {
	ctx, cancel := context.WithCancel(ctx)
	a := &searchAhead{cancel: cancel, done: make(chan struct{}), start: time.Now()}
	go func() {
		defer close(a.done)
		a.res, a.err = eng.Search(ctx, req)
	}()
	return a
}

// wait returns the search's result and when it started.
func (a *searchAhead) wait() (*index.Result, time.Time, error) {
	<-a.done
	a.cancel()
	return a.res, a.start, a.err
}

// drop cancels the search and waits for it to end.
func (a *searchAhead) drop() {
	a.cancel()
	<-a.done
}
