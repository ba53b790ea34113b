package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

const mcpHelp = `  twindex mcp --index ~/notes/.twindex          serve one index to an MCP client

An MCP server over stdio for AI agents: tools search, get, upsert, remove,
index_path and stats on the same index the CLI uses. stdout carries only
protocol messages; logs go to stderr. The server exits when stdin closes,
closing the index.

Client configuration (Claude Desktop, Cursor, ...):
  {"mcpServers": {"twindex": {"command": "twindex",
    "args": ["mcp", "--index", "/path/to/folder/.twindex"]}}}

The index is created if missing; without --index it is .twindex/ at the root
found by walking up from the current folder, as for the other commands.`

func runMCP(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "mcp", "twindex mcp [--index DIR] [flags]", mcpHelp)
	idx := fs.indexFlag()
	level := fs.String("log-level", "info", "log to stderr at this `level`: debug, info, warn or error")
	maxSize := fs.Int64("max-size", defaultMaxSize, "index_path skips files larger than this many `bytes`")
	emb := fs.embedFlags(e)
	rr := fs.rerankFlags(e)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("run 'twindex mcp --help'", "want no arguments, got %q", pos)
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return usageErr("", "unknown --log-level %q (want debug, info, warn or error)", *level)
	}
	if *maxSize <= 0 {
		return usageErr("", "--max-size must be positive")
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv}))

	loc, err := locate(e, *idx, ".")
	if err != nil {
		return err
	}
	if loc.Root == "" && filepath.Base(loc.Dir) == folder.IndexDirName {
		// A folder's own .twindex/ given with --index: its file IDs are
		// relative to that folder, as when it was found by walking up.
		loc.Root = filepath.Dir(loc.Dir)
	}
	opts := &index.Options{MaxDocBytes: folder.DocLimit(*maxSize)}
	if err := emb.options(e, opts); err != nil {
		return err
	}
	if err := rr.options(e, opts); err != nil {
		return err
	}
	ix, err := loc.open(opts, true)
	if err != nil {
		return err
	}
	srv := server.New(ix, loc.Location, &server.Options{Log: log, MaxSize: *maxSize, Reranker: opts.Reranker != nil, Version: buildVersion()})
	log.Info("serving", "index", loc.Dir, "root", loc.Root)
	err = srv.ServeMCP(ctx, server.Stdio(e.stdin, e.stdout))
	if cerr := srv.Close(); cerr != nil {
		return indexErr(cerr, loc.Dir)
	}
	log.Info("stopped")
	// Stdin closing is how a client says goodbye; Ctrl-C is a stop too.
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp session: %w", err)
	}
	return nil
}
