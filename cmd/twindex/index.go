package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

func runIndex(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "index", "twindex index [PATH...] [--jsonl FILE|-] [flags]", `  twindex index .                               index the current folder (incremental)
  twindex index --jsonl docs.jsonl              add or replace documents from a JSONL file
  twindex index --lang fr ~/notes               a new index of French text (stemming, stop words)
  gen-docs | twindex index --jsonl - --index /tmp/idx

PATH defaults to "." unless --jsonl is given. Folders are walked honoring
.gitignore and .twindexignore files; .git, index folders, symlinks, binary
files (a NUL byte in the first 8 KiB) and files over --max-size are skipped,
and skipped oversize files are reported on stderr with their count.

JSONL: one document per line, {"id","kind","title","body","parent","tags",
"role","project","source","ts","meta"} ("_id" and "text" are accepted for
"id" and "body"; ts is RFC 3339 or a date). A document with an existing ID
replaces it. Bad lines are skipped and reported as FILE:LINE: reason on
stderr; every good line is indexed, before and after a bad one; the exit
status is then 2. Documents go in batches of 500, each all-or-nothing: after
Ctrl-C the committed batches stay (exit 130). When stderr is not a terminal
(and without --quiet), each committed batch is reported there as
"twindex: committed through line N": lines up to N are on disk and
searchable, even if the process dies right after.`)
	idx := fs.indexFlag()
	jsonl := fs.String("jsonl", "", "read documents from a JSONL `FILE` (- for stdin)")
	maxSize := fs.Int64("max-size", defaultMaxSize, "skip files larger than this many `bytes`")
	quiet := fs.Bool("quiet", false, "no progress or summary on stderr")
	emb := fs.embedFlags(e)
	lang := fs.langFlag()
	paths, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(paths) == 0 && *jsonl == "" {
		paths = []string{"."}
	}
	if *maxSize <= 0 {
		return usageErr("", "--max-size must be positive")
	}
	opts := &index.Options{MaxDocBytes: folder.DocLimit(*maxSize)}
	if err := emb.options(e, opts); err != nil {
		return err
	}
	if err := setLang(opts, *lang); err != nil {
		return err
	}
	limitMemory(e)

	base := "."
	if len(paths) > 0 {
		base = paths[0]
	}
	loc, err := locate(e, *idx, base)
	if err != nil {
		return err
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return usageErr("", "%w", err)
		}
	}
	if !loc.Explicit && !loc.Exists && len(paths) > 1 {
		// No index yet: one for all the paths, at their common folder.
		root, err := commonRoot(paths)
		if err != nil {
			return err
		}
		l, err := folder.Locate("", root)
		if err != nil {
			return usageErr("", "%w", err)
		}
		loc.Location = l
	}
	if loc.Explicit && loc.Root == "" && len(paths) > 0 {
		if loc.Root, err = commonRoot(paths); err != nil {
			return err
		}
	}
	eng, filled, err := loc.engine(e, opts, openFill, *maxSize)
	if err != nil {
		return err
	}
	defer eng.Close()
	if err := checkServedLang(eng, *lang, loc.Dir); err != nil {
		return err
	}
	if _, owned := eng.(*server.Client); len(paths) > 0 && !owned {
		if err := loc.RecordRoot(loc.Root); err != nil {
			return err
		}
	}
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		if _, err := syncFolder(ctx, e, eng, abs, syncOptions{quiet: *quiet, always: true}); err != nil {
			return err
		}
	}
	bad := 0
	if *jsonl != "" {
		write := func(ctx context.Context, upserts []index.Doc, removes []string) (index.Applied, error) {
			return eng.Write(ctx, &server.Writes{Upsert: upserts, Remove: removes})
		}
		if bad, err = ingestJSONL(ctx, e, write, loc.Dir, *jsonl, opts.MaxDocBytes, *quiet); err != nil {
			return err
		}
	}
	if err := filled(ctx); err != nil {
		return err
	}
	if err := eng.Close(); err != nil {
		return indexErr(err, loc.Dir)
	}
	if bad > 0 {
		return &exitError{code: exitUsage, err: fmt.Errorf("%d bad line(s) in %s skipped; every other line was indexed", bad, *jsonl),
			hint: "fix the lines reported above and run the same command again (documents are replaced by ID)"}
	}
	return nil
}

func commonRoot(paths []string) (string, error) {
	var root string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", usageErr("", "%w", err)
		}
		if !isDirPath(abs) {
			abs = filepath.Dir(abs)
		}
		if root == "" {
			root = abs
			continue
		}
		for {
			if _, ok := folder.RelID(root, abs); ok {
				break
			}
			root = filepath.Dir(root)
		}
	}
	return root, nil
}

// ingestJSONL writes the documents of a JSONL file or stdin ("-") with
// write and returns the number of bad lines, each reported on stderr as
// NAME:LINE: reason. dir names the index in errors.
//
// A goroutine reads and parses the lines a batch ahead of the writes:
// decoding the JSON took about a tenth of a build, and the engine's
// writes leave time for it.
func ingestJSONL(ctx context.Context, e *env, write folder.WriteFunc, dir, name string, maxText int, quiet bool) (int, error) {
	var r io.Reader = e.stdin
	label := "<stdin>"
	total := 0
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return 0, usageErr("", "%w", err)
		}
		defer f.Close()
		r, label = f, name
		total = countLines(name)
	}
	bad := 0
	report := func(where, reason string) {
		bad++
		fmt.Fprintf(e.stderr, "%s: %s\n", where, reason)
	}
	bt := &folder.Writer{Write: write, Invalid: func(where string, err error) { report(where, err.Error()) },
		Warn: func(msg string) { fmt.Fprintf(e.stderr, "twindex: warning: %s\n", msg) }}
	lr := newLineReader(r, 6*maxText+(1<<20))
	prog := newProgress(e, quiet, "indexing", total)
	defer prog.done()
	// last is the number of the last line handed to bt: every line up to
	// it is durable once bt has flushed.
	committed, last := 0, 0
	// Off a terminal no progress line is drawn; a line per commit tells a
	// script or a log what is durable, so a killed run can be resumed.
	logCommits := !quiet && !isTerminal(e.stderr)
	bt.OnFlush = func() {
		committed = last
		if logCommits {
			fmt.Fprintf(e.stderr, "twindex: committed through line %d\n", last)
		}
	}
	lines := make(chan parsedLine, folder.BatchDocs)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	wg.Go(func() { readDocs(lr, label, maxText, lines, stop) })
	for {
		if err := ctx.Err(); err != nil {
			return bad, interrupted(label, committed)
		}
		pl, ok := <-lines
		if !ok {
			break
		}
		switch {
		case pl.readErr != nil:
			return bad, usageErr("", "read %s: %w", label, pl.readErr)
		case pl.bad != "":
			report(pl.where, pl.bad)
			continue
		}
		prog.update(pl.line)
		last = pl.line
		if err := bt.Upsert(ctx, pl.doc, pl.where); err != nil {
			if errors.Is(err, context.Canceled) {
				return bad, interrupted(label, committed)
			}
			return bad, indexErr(err, dir)
		}
	}
	if ctx.Err() != nil {
		return bad, interrupted(label, committed)
	}
	if err := bt.Flush(ctx); err != nil {
		return bad, indexErr(err, dir)
	}
	prog.done()
	if !quiet {
		fmt.Fprintf(e.stderr, "twindex: indexed %d documents from %s", bt.Written, label)
		if bad > 0 {
			fmt.Fprintf(e.stderr, "; %d bad line(s) skipped", bad)
		}
		fmt.Fprintln(e.stderr)
	}
	return bad, nil
}

// parsedLine is one JSONL line as readDocs hands it on: a document, a
// bad line's reason, or the error that ended the reading.
type parsedLine struct {
	doc     index.Doc
	line    int
	where   string // NAME:LINE
	bad     string // why the line is skipped
	readErr error
}

// readDocs reads and parses the lines of lr into out, in order, until the
// end of the input, a read error (the last line sent) or stop; then it
// closes out.
func readDocs(lr *lineReader, label string, maxText int, out chan<- parsedLine, stop <-chan struct{}) {
	defer close(out)
	for {
		line, err := lr.next()
		if err == io.EOF {
			return
		}
		pl := parsedLine{line: lr.n, where: fmt.Sprintf("%s:%d", label, lr.n)}
		switch {
		case errors.Is(err, errLineTooLong):
			pl.bad = fmt.Sprintf("line longer than %d bytes", lr.max)
		case err != nil:
			pl.readErr = err
		case len(bytes.TrimSpace(line)) == 0:
			continue
		default:
			if pl.doc, err = parseDocLine(line, maxText); err != nil {
				pl.bad = err.Error()
			}
		}
		select {
		case out <- pl:
		case <-stop:
			return
		}
		if pl.readErr != nil {
			return
		}
	}
}

func interrupted(label string, line int) error {
	return &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted: %s is indexed up to line %d; nothing after it was written", label, line),
		hint: "run the same command again to finish (documents are replaced by ID)"}
}

// countLines counts a file's lines for the progress ETA; 0 if unknown.
func countLines(name string) int {
	f, err := os.Open(name)
	if err != nil {
		return 0
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte("\n"))
			last = buf[k-1]
		}
		if err != nil {
			break
		}
	}
	if last != '\n' {
		n++
	}
	return n
}
