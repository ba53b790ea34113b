package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

const mcpHelp = `  twindex mcp ~/notes                           serve a folder's index to an MCP client
  twindex mcp --index ~/idx --root ~/notes

An MCP server over stdio for AI agents: tools search, get, upsert, remove,
backlinks, index_path and stats on the same index the CLI uses. stdout
carries only protocol messages; logs go to stderr. The server exits when
stdin closes, closing the index.

Client configuration (Claude Desktop, Cursor, ...):
  {"mcpServers": {"twindex": {"command": "twindex",
    "args": ["mcp", "/path/to/folder"]}}}

PATH (or --root) is the folder the index mirrors, fixed for the server's
life: index_path refuses any path outside it and symbolic links that lead
out of it are not followed. Without either, it is the root the index
recorded (the folder holding .twindex/), or none: an index of documents
only. The index is created if missing; without --index it is .twindex/ at
the root found by walking up from PATH, as for the other commands.`

func runMCP(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "mcp", "twindex mcp [PATH] [--index DIR] [flags]", mcpHelp)
	idx := fs.indexFlag()
	root := fs.String("root", "", "the `folder` the index mirrors (the same as PATH)")
	level := fs.String("log-level", "info", "log to stderr at this `level`: debug, info, warn or error")
	maxSize := fs.Int64("max-size", defaultMaxSize, "index_path skips files larger than this many `bytes`")
	emb := fs.embedFlags(e)
	rr := fs.rerankFlags(e)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return usageErr("", "unknown --log-level %q (want debug, info, warn or error)", *level)
	}
	if *maxSize <= 0 {
		return usageErr("", "--max-size must be positive")
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv}))

	loc, err := ownedLocation(e, "mcp", *idx, *root, pos)
	if err != nil {
		return err
	}
	opts := &index.Options{MaxDocBytes: folder.DocLimit(*maxSize)}
	if err := emb.options(e, opts); err != nil {
		return err
	}
	if err := rr.options(e, opts); err != nil {
		return err
	}
	host, err := loc.host(opts, *maxSize)
	if err != nil {
		return err
	}
	srv := server.New(host, &server.Options{Log: log, Reranker: opts.Reranker != nil, Version: buildVersion()})
	log.Info("serving", "index", loc.Dir, "root", loc.Root)
	err = srv.ServeMCP(ctx, server.Stdio(e.stdin, e.stdout))
	srv.Close()
	if cerr := host.Close(); cerr != nil {
		return indexErr(cerr, loc.Dir)
	}
	log.Info("stopped")
	// Stdin closing is how a client says goodbye; Ctrl-C is a stop too.
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp session: %w", err)
	}
	return nil
}
