// Command twindex-bench measures twindex against the project's references:
// the yardstick (speed, size and answers next to SQLite FTS5 on a corpus made
// from the Go tree, shared/bench) and SciFact relevance (shared/eval).
//
// Results go to stdout as markdown tables; progress goes to stderr.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

const usage = `usage: twindex-bench <command> [flags]

Commands:
  yardstick  build an on-disk index from a bench corpus, time it, time every
             query in the modes auto, substring and text, and write results and
             a summary in the shapes of shared/bench/fts5_ref.py
  scifact    index the SciFact collection in memory, write TREC runs (top 100)
             per mode and score them with shared/eval/score.py
  typos      measure fuzzy matching's precision on title words of a collection
             with one injected typo each
  symbols    pick symbols of the Go tree that one file defines, or rank the
             defining file when each is searched
  tail       write the tail query set (short words, common pairs, short
             beside long, phrases) drawn from a bench corpus
  serve-load search latency through the HTTP API while a corpus streams in
             through PUT /v1/docs, against the same searches on an idle index
  cold       whole twindex search processes against rg and the sqlite3 CLI on
             the corpus written out as files, per query class
  cli        the yardstick through the twindex binary: index --jsonl, then
             search --queries with default options

Run "twindex-bench <command> -h" for a command's flags.

Examples:
  twindex-bench yardstick --corpus /tmp/benchcorpus/small.jsonl \
      --queries /tmp/benchcorpus/queries.jsonl --out /tmp/benchcorpus \
      --ref /tmp/benchcorpus/small.summary.json
  python3 shared/bench/compare.py /tmp/benchcorpus/small.results.jsonl \
      /tmp/benchcorpus/small.twindex.results.jsonl
  twindex-bench tail --corpus /tmp/benchcorpus/full.jsonl --out /tmp/benchcorpus/tail.jsonl
  python3 shared/bench/fts5_ref.py /tmp/benchcorpus/full.jsonl \
      /tmp/benchcorpus/tail.jsonl /tmp/benchcorpus/tail
  twindex-bench yardstick --corpus /tmp/benchcorpus/full.jsonl \
      --queries /tmp/benchcorpus/queries.jsonl --out /tmp/benchcorpus \
      --ref /tmp/benchcorpus/full.summary.json --tail /tmp/benchcorpus/tail.jsonl \
      --tail-ref /tmp/benchcorpus/tail/full.summary.json
  twindex-bench scifact --data shared/eval/scifact --out /tmp/scifact/twindex --mode all
  twindex-bench serve-load --corpus /tmp/bench/full.jsonl --queries /tmp/bench/queries.jsonl
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command and returns the process exit code: 0 on success,
// 1 on failure, 2 on bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "yardstick":
		err = yardstickCmd(ctx, args[1:], stdout, stderr)
	case "scifact":
		err = scifactCmd(ctx, args[1:], stdout, stderr)
	case "typos":
		err = typosCmd(ctx, args[1:], stdout, stderr)
	case "symbols":
		err = symbolsCmd(ctx, args[1:], stdout, stderr)
	case "tail":
		err = tailCmd(ctx, args[1:], stdout, stderr)
	case "serve-load":
		err = serveLoadCmd(ctx, args[1:], stdout, stderr)
	case "cold":
		err = coldCmd(ctx, args[1:], stdout, stderr)
	case "cli":
		err = cliCmd(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "twindex-bench: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	switch {
	case err == nil, err == errHelp:
		return 0
	case err == errUsage:
		return 2
	default:
		fmt.Fprintf(stderr, "twindex-bench %s: %s\n", args[0], err)
		return 1
	}
}
