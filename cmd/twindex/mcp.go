package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

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
the root found by walking up from PATH, as for the other commands.

When a server ('twindex serve', or another agent's 'twindex mcp') owns the
index, this one forwards every call to it: any number of agents share one
index and one watcher. Else it owns the index itself, as 'twindex serve'
does: it brings it up to date, watches the folder, and serves the other
commands on this machine while it runs.`

func runMCP(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "mcp", "twindex mcp [PATH] [--index DIR] [flags]", mcpHelp)
	idx := fs.indexFlag()
	root := fs.String("root", "", "the `folder` the index mirrors (the same as PATH)")
	level := fs.String("log-level", "info", "log to stderr at this `level`: debug, info, warn or error")
	fs.oneOf("log-level", "debug", "info", "warn", "error")
	maxSize := fs.Int64("max-size", defaultMaxSize, "index_path skips files larger than this many `bytes`")
	lang := fs.langFlag()
	wf := fs.watchFlags()
	emb := fs.embedFlags(e)
	rr := fs.rerankFlags(e)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	log, err := logger(e, *level)
	if err != nil {
		return err
	}
	if *maxSize <= 0 {
		return usageErr("", "--max-size must be positive")
	}
	loc, err := ownedLocation(e, "mcp", *idx, *root, pos)
	if err != nil {
		return err
	}
	opts := &index.Options{MaxDocBytes: folder.DocLimit(*maxSize)}
	if err := setLang(opts, *lang); err != nil {
		return err
	}
	if err := emb.options(e, opts); err != nil {
		return err
	}
	if err := rr.options(e, opts); err != nil {
		return err
	}
	// A server owns the index: forward to it, so that any number of
	// agents share one index. Else own it, serving the other commands
	// too. An agent that forwards takes the index over when its owner goes.
	var mu sync.Mutex // guards host and owner, set when this process owns the index
	var host *server.Host
	var owner *server.Owner
	connect := func() (server.Engine, error) {
		if c := dialOwner(&loc); c != nil {
			log.Info("forwarding to the server that owns the index", "index", loc.Dir, "pid", c.Owned().PID)
			return c, nil
		}
		h, o, err := takeOwnership(ctx, &loc, opts, *maxSize, wf.options(log))
		if err != nil {
			// Another agent's server may have taken it in the meantime.
			if c := dialOwner(&loc); c != nil {
				log.Info("forwarding to the server that owns the index", "index", loc.Dir, "pid", c.Owned().PID)
				return c, nil
			}
			return nil, err
		}
		mu.Lock()
		host, owner = h, o
		mu.Unlock()
		return h, nil
	}
	eng, err := connect()
	if err != nil {
		return err
	}
	if err := checkServedLang(eng, *lang, loc.Dir); err != nil {
		eng.Close()
		return err
	}
	var srv *server.Service
	if owner != nil {
		srv = owner.Service()
	} else {
		eng = server.NewRelay(eng, func() (server.Engine, error) {
			log.Warn("the server that owned the index is gone: taking over")
			return connect()
		})
		srv = server.New(eng, &server.Options{Log: log, Version: buildVersion()})
	}
	log.Info("serving", "index", loc.Dir, "root", eng.Info().Root)
	err = srv.ServeMCP(ctx, server.Stdio(e.stdin, e.stdout))
	srv.Close()
	mu.Lock()
	defer mu.Unlock()
	if owner != nil {
		if rerr := release(host, owner, loc.Dir); rerr != nil {
			return rerr
		}
	} else {
		eng.Close()
	}
	log.Info("stopped")
	// Stdin closing is how a client says goodbye; Ctrl-C is a stop too.
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp session: %w", err)
	}
	return nil
}
