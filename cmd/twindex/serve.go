package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/signal"
	"syscall"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

const serveHelp = `  twindex serve                                  own the current folder's index and keep it fresh
  twindex serve ~/notes --http 127.0.0.1:7700    and serve it over HTTP too

Runs in the foreground and owns the index of PATH (default "."): it brings
the index up to date, then serves it to the other twindex commands, to any
number of 'twindex mcp' agents and, with --http, to programs over HTTP.
Every other command on this index (search, get, index, stats, ...) sends
its request here and prints what it always does. Ctrl-C or SIGTERM stops
it once the writes in progress are done; with --idle, so does a time
without requests ('twindex search --serve' starts one that way).

It watches PATH, every folder a search would walk (.gitignore and
.twindexignore honored, new folders included): a file created, changed or
deleted is found, or no longer found, within about a second. Where the
system runs out of file watches it walks the folder every 2 s instead and
says so in its log; --poll does that from the start.

A cluster (--node): several 'twindex serve --node NAME --index DIR' on one
or more machines hold the documents written to any of them between them,
on NATS JetStream (embedded, or --nats-url): every node answers the same
HTTP API as one server with all the documents would. See README, Cluster.
  twindex serve --node a --index /data/a --http 127.0.0.1:7701 \
    --cluster-listen 127.0.0.1:6201 --cluster-peers 127.0.0.1:6202,127.0.0.1:6203

HTTP API (--http), JSON in and out, the MCP tools' arguments and results:
  POST /v1/search, GET /v1/docs/{id}, POST /v1/docs/get, PUT /v1/docs,
  POST /v1/docs (new only), DELETE /v1/docs/{id}, POST /v1/docs/delete,
  GET /v1/backlinks/{id}, GET /v1/stats, POST /v1/index, GET /healthz,
  GET /v1/openapi.json, and MCP (streamable HTTP) at /mcp.
With $TWINDEX_TOKEN set, every request needs 'Authorization: Bearer TOKEN'.`

// shutdownGrace bounds how long a stopping server waits for requests in
// progress.
const shutdownGrace = 30 * time.Second

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "serve", "twindex serve [PATH] [--index DIR] [flags]", serveHelp)
	idx := fs.indexFlag()
	level := fs.String("log-level", "info", "log to stderr at this `level`: debug, info, warn or error")
	fs.oneOf("log-level", "debug", "info", "warn", "error")
	maxSize := fs.Int64("max-size", defaultMaxSize, "skip files larger than this many `bytes`")
	lang := fs.langFlag()
	wf := fs.watchFlags()
	httpAddr := fs.String("http", "", "also serve the HTTP API and MCP on this `address` (127.0.0.1:7700; port 0 picks one); an address other machines can reach needs $TWINDEX_TOKEN")
	cors := fs.String("cors", "", "let web pages from this `origin` (https://app.example) call the HTTP API")
	emb := fs.embedFlags(e)
	rr := fs.rerankFlags(e)
	cf := fs.clusterFlags()
	idle := fs.Duration("idle", 0, "exit after this long (e.g. 15m) with no request in progress from a command, an agent or HTTP; 0: never")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	log, err := logger(e, *level)
	if err != nil {
		return err
	}
	if cf.node != "" {
		if len(pos) > 0 {
			return usageErr("a node serves the documents written to the cluster, not a folder", "--node takes no PATH")
		}
		if *lang != "" {
			return usageErr("a cluster's shards are indexed in English", "--lang does not apply to --node")
		}
		if *idle != 0 {
			return usageErr("a node serves its cluster until it is stopped", "--idle does not apply to --node")
		}
		return runNode(ctx, e, cf, *idx, *httpAddr, *cors, log)
	}
	if cf.used() {
		return usageErr("run 'twindex serve --help'", "--cluster-listen, --cluster-peers, --nats-url and --shards need --node")
	}
	if *maxSize <= 0 {
		return usageErr("", "--max-size must be positive")
	}
	if *idle < 0 {
		return usageErr("", "--idle must not be negative")
	}
	if len(pos) == 0 {
		pos = []string{"."}
	}
	loc, err := ownedLocation(e, "serve", *idx, "", pos)
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
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	o := wf.options(log)
	o.HTTP, o.CORS, o.Token, o.Idle = *httpAddr, *cors, e.getenv("TWINDEX_TOKEN"), *idle
	if o.CORS != "" && o.HTTP == "" {
		return usageErr("run 'twindex serve --help'", "--cors needs --http")
	}
	host, owner, err := takeOwnership(ctx, &loc, opts, *maxSize, o)
	if errors.Is(err, server.ErrNoToken) {
		return usageErr("set TWINDEX_TOKEN to a secret that clients send as 'Authorization: Bearer $TWINDEX_TOKEN', or serve on 127.0.0.1",
			"%w", err)
	}
	if err != nil {
		return err
	}
	if a := owner.HTTPAddr(); a != "" {
		fmt.Fprintf(e.stderr, "listening on %s\n", a)
	}
	select {
	case <-ctx.Done():
		log.Info("stopping")
	case <-owner.Idle():
		log.Info("stopping: no request", "for", *idle)
	}
	return release(host, owner, loc.Dir)
}

// watchFlags say how a server keeps its index fresh.
type watchFlags struct {
	noWatch bool
	poll    time.Duration
}

func (fs *flagSet) watchFlags() *watchFlags {
	f := &watchFlags{}
	fs.BoolVar(&f.noWatch, "no-watch", false, "serve the index as it is: no sync on start, no watching the folder")
	fs.DurationVar(&f.poll, "poll", 0, "walk the folder for changes this often (e.g. 5s) instead of watching it, for network file systems")
	return f
}

func (f *watchFlags) options(log *slog.Logger) *server.OwnOptions {
	return &server.OwnOptions{Log: log, Version: buildVersion(), NoWatch: f.noWatch, Poll: f.poll}
}

// logger logs to stderr at level.
func logger(e *env, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, usageErr("", "unknown --log-level %q (want debug, info, warn or error)", level)
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv})), nil
}

// takeOwnership opens the index at loc and serves it to this machine. It
// fails with exit 3 when another process has the index: a server (named)
// or a command.
func takeOwnership(ctx context.Context, loc *location, opts *index.Options, maxSize int64, o *server.OwnOptions) (*server.Host, *server.Owner, error) {
	if loc.Exists {
		if err := loc.notOwned(); err != nil {
			return nil, nil, err
		}
	}
	var host *server.Host
	c, err := whileLocked(loc.e, ctx.Done(), loc.Dir, func() (err error) {
		host, err = loc.host(opts, maxSize)
		return err
	})
	if c != nil {
		c.Close()
		if err = loc.notOwned(); err == nil { // the owner went away meanwhile
			err = indexErr(index.ErrLocked, loc.Dir)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	owner, err := server.Own(host, o)
	if err != nil {
		host.Close()
		return nil, nil, fmt.Errorf("serve %s: %w", loc.Dir, err)
	}
	return host, owner, nil
}

// release stops serving, once the requests in progress are done, and
// closes the index.
func release(host *server.Host, owner *server.Owner, dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := owner.Close(ctx)
	if cerr := host.Close(); cerr != nil {
		return indexErr(cerr, dir)
	}
	return err
}
