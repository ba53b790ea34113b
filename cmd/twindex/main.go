// Command twindex indexes folders and JSONL files and searches them: ranked,
// incremental full-text and substring search from the command line.
//
// Exit codes: 0 results, 1 no results, 2 usage or query error, 3 index
// error (locked, corrupt, newer schema, drift found by check), 130
// interrupted.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes, documented in help.
const (
	exitOK          = 0
	exitNoResults   = 1
	exitUsage       = 2
	exitIndex       = 3
	exitInterrupted = 130
)

// env is what a command may touch of the outside world, injected so tests
// can capture it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// command is one subcommand. run returns nil for success; errNoResults, an
// *exitError or any other error (exit 3) otherwise.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

func commands() []command {
	return []command{
		{"search", "search a folder (indexing it first) or an index", runSearch},
		{"index", "index folders or JSONL documents", runIndex},
		{"get", "print a stored document", runGet},
		{"links", "print the links of a document", runLinks},
		{"backlinks", "print the documents that link to an ID", runBacklinks},
		{"rm", "remove documents by ID", runRm},
		{"stats", "document counts and index sizes", runStats},
		{"check", "verify the store and both indexes agree", runCheck},
		{"optimize", "merge index segments and compact the store", runOptimize},
		{"rebuild", "rebuild both indexes from the store", runRebuild},
		{"eval", "measure ranking quality on a judged test collection", runEval},
		{"serve", "own an index, keep it fresh and serve it to other commands and programs", runServe},
		{"mcp", "serve the index to AI agents: an MCP server over stdio", runMCP},
		{"version", "print the version", runVersion},
		{"help", "show help for a command", runHelp},
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The first Ctrl-C cancels ctx so indexing stops after the current
	// batch; after that the default handling is back, so a second one
	// kills a process stuck on a read.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage())
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, mainUsage())
		return exitOK
	case "-version", "--version":
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name {
			return exitCode(e, c.name, c.run(ctx, e, args[1:]))
		}
	}
	fmt.Fprintf(stderr, "twindex: unknown command %q\nhint: run 'twindex help' for the list of commands\n", name)
	return exitUsage
}

// errNoResults makes a command exit 1 without a message, like grep.
var errNoResults = errors.New("no results")

// errHelp is returned after --help was printed.
var errHelp = errors.New("help shown")

// exitError carries an exit code and a hint for the user.
type exitError struct {
	code int
	err  error
	hint string
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(hint string, format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...), hint: hint}
}

func exitCode(e *env, name string, err error) int {
	if err == nil || errors.Is(err, errHelp) {
		return exitOK
	}
	if errors.Is(err, errNoResults) {
		return exitNoResults
	}
	code, hint := exitIndex, ""
	var xe *exitError
	if errors.As(err, &xe) {
		code, hint = xe.code, xe.hint
	} else if errors.Is(err, context.Canceled) {
		code = exitInterrupted
		err = errors.New("interrupted: what was committed stays, run again to pick up the rest")
	}
	fmt.Fprintf(e.stderr, "twindex %s: %s\n", name, err)
	if hint != "" {
		fmt.Fprintf(e.stderr, "hint: %s\n", strings.TrimSpace(hint))
	}
	return code
}

func mainUsage() string {
	var b strings.Builder
	b.WriteString(`twindex: indexed, ranked, incremental search for folders and documents.

Usage:
  twindex <command> [flags] [args]

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-9s %s\n", c.name, c.summary)
	}
	b.WriteString(`
Start here:
  twindex search "open file" .          index the folder on first use, then search it
  twindex search --help                 every search flag

The index lives in .twindex/ at the root of the folder, found by walking up
from the searched path like git does; --index DIR or $TWINDEX_INDEX override.
While 'twindex serve' or 'twindex mcp' runs on an index, the other commands
send their requests to it and print the same.

Exit codes:
  0    results (or success)
  1    no results
  2    usage or query error, or bad JSONL lines
  3    index error: locked, corrupt, newer schema, drift found by check
  130  interrupted (Ctrl-C); committed batches stay, the rest is picked up next run
`)
	return b.String()
}

func runHelp(_ context.Context, e *env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stdout, mainUsage())
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] && c.name != "help" {
			return c.run(context.Background(), e, []string{"--help"})
		}
	}
	return usageErr("run 'twindex help' for the list of commands", "unknown command %q", args[0])
}
