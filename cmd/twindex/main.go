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
	"log"
	"os"
	"os/signal"
	"strings"
)

func main() {
	// bleve writes with the log package from its background goroutines:
	// benign races ("got err removing file", a segment removed twice by
	// two cleanups) and recoveries it continues past. None is the user's
	// to act on; twindex reports a damaged index itself (check, exit 3).
	// Printed, the first made a served and a direct run of the same
	// command differ on stderr (TestServeForwardsCLI, once in 16 runs).
	log.SetOutput(io.Discard)
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
	// index is the global --index given before the command, used by
	// commands whose own --index is not set.
	index string
	// describe, when set, makes a command hand over its flags instead of
	// running (flagSet.describe).
	describe func(*flagSet)
	// interrupted is closed by the first Ctrl-C (run's context), for
	// waits that take no context.
	interrupted <-chan struct{}
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
		{"completion", "print a bash, zsh or fish completion script", runCompletion},
		{"man", "print the manual page (man -l <(twindex man))", runMan},
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
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, interrupted: ctx.Done()}
	args, err := globalFlags(e, args)
	if err != nil {
		fmt.Fprintf(stderr, "twindex: %s\nhint: run 'twindex help'\n", err)
		return exitUsage
	}
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

// globalFlags reads the flags given before the command (--index DIR)
// into e and returns the rest, the command first.
func globalFlags(e *env, args []string) ([]string, error) {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--index" || a == "-index":
			if len(args) < 2 {
				return nil, errors.New("flag needs an argument: --index")
			}
			e.index, args = args[1], args[2:]
		case strings.HasPrefix(a, "--index=") || strings.HasPrefix(a, "-index="):
			e.index, args = a[strings.IndexByte(a, '=')+1:], args[1:]
		case a == "--":
			return args[1:], nil
		default:
			return args, nil
		}
	}
	return args, nil
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

// The parts of the main help, which the man page prints too.
const (
	helpAbout = "indexed, ranked, incremental search for folders and documents"
	helpStart = `  twindex search "open file"            index the folder on first use, then search it
  twindex search --help                 every search flag
  twindex completion bash|zsh|fish      shell completion; twindex man: the manual`
	helpIndex = `The index of a folder lives in .twindex/ at the root of its git
repository (or at the folder searched, outside one), and is found again
by walking up from the searched path as git does; a .gitignore in it keeps
it out of git status. A folder that cannot be written (Go's module cache,
a read-only tree) has its index in the user cache folder instead
(~/.cache/twindex/), and is never modified. --index DIR (before or after
the command) or $TWINDEX_INDEX put the index elsewhere. While 'twindex
serve' or 'twindex mcp' runs on an index, the other commands send their
requests to it and print the same.`
	helpExit = `  0    results (or success)
  1    no results
  2    usage or query error, or bad JSONL lines
  3    index error: locked, corrupt, newer schema, drift found by check
  130  interrupted (Ctrl-C); committed batches stay, the rest is picked up next run`
)

func mainUsage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "twindex: %s.\n\nUsage:\n  twindex [--index DIR] <command> [flags] [args]\n\nCommands:\n", helpAbout)
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(&b, "\nStart here:\n%s\n\n%s\n\nExit codes:\n%s\n", helpStart, helpIndex, helpExit)
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
