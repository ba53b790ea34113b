package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// OwnOptions configure an Owner; nil means defaults.
type OwnOptions struct {
	Log     *slog.Logger // nil: discard
	Version string       // of twindex, recorded in the owner file
	// NoWatch serves the index as it is: the Owner neither brings it up
	// to date on start nor watches its root.
	NoWatch bool
	// Poll, when positive, walks the root for changes this often instead
	// of watching it (for file systems without change events, such as
	// network mounts). The Owner polls every DefaultPoll on its own when
	// the system's file watches run out.
	Poll time.Duration
	// HTTP, when set, is an address (host:port; port 0 picks a free one)
	// to serve the HTTP API on too. An address that is not loopback needs
	// a Token (ErrNoToken otherwise).
	HTTP string
	// Token and CORS are the HTTP API's; see HTTPOptions.
	Token, CORS string
	// Idle, when positive, closes Owner.Idle once no request (local or
	// HTTP; an MCP stream over HTTP is one while it is open) has been in
	// progress for this long since the index was brought up to date.
	Idle time.Duration
}

// Owner serves a Host to the other processes of this machine, from the
// process that holds the index open: on the local endpoint in the index
// folder, which Dial finds. It records itself in the owner file, which
// Close removes (a killed Owner leaves it behind; RemoveStale cleans up).
// When the Host mirrors a folder, the Owner brings the index up to date
// with it on start, answering ErrStarting (503) meanwhile, then watches
// it: a file created, changed or deleted is reflected in searches within
// about a second (the changes are synced once they pause for 50 ms, or
// 500 ms after the first).
//
// Concurrency: the endpoint serves each request on its own goroutine;
// the Host serializes what must be. Close waits for every goroutine the
// Owner started.
type Owner struct {
	host     *Host
	svc      *Service
	log      *slog.Logger
	ep       *endpoint
	local    *http.Server
	http     *http.Server // nil without OwnOptions.HTTP
	httpAddr string

	ready chan struct{} // closed once the index is up to date
	idle  chan struct{} // closed once OwnOptions.Idle passed without requests
	// active counts the requests in progress, last is when one last
	// started or ended (since born, on the monotonic clock): for
	// OwnOptions.Idle and the warm-up's pauses.
	active, last atomic.Int64
	born         time.Time

	stop   context.CancelFunc // stops the watcher, the idle watch and the warm-up
	mu     sync.Mutex         // guards closed
	closed bool
	wg     sync.WaitGroup
}

// Own starts serving h on its local endpoint. It fails if the endpoint
// cannot be made; the caller holds h's index open, so any endpoint
// found there is stale and replaced.
func Own(h *Host, o *OwnOptions) (*Owner, error) {
	if o == nil {
		o = &OwnOptions{}
	}
	ow := &Owner{host: h, log: o.Log, ready: make(chan struct{}), idle: make(chan struct{}), stop: func() {}, born: time.Now()}
	if ow.log == nil {
		ow.log = slog.New(slog.DiscardHandler)
	}
	ow.svc = New(h, &Options{Log: ow.log, Version: o.Version, Ready: ow.ready})
	var httpLn net.Listener
	if o.HTTP != "" {
		ln, err := net.Listen("tcp", o.HTTP)
		if err != nil {
			return nil, fmt.Errorf("listen on %s: %w", o.HTTP, err)
		}
		addr := ln.Addr().(*net.TCPAddr)
		if !addr.IP.IsLoopback() && o.Token == "" {
			ln.Close()
			return nil, fmt.Errorf("%w: %s is reachable from other machines", ErrNoToken, addr)
		}
		httpLn, ow.httpAddr = ln, "http://"+addr.String()
	}
	ep, err := listenLocal(h.Info().Dir)
	if err != nil {
		if httpLn != nil {
			httpLn.Close()
		}
		return nil, err
	}
	ow.ep = ep
	// The local endpoint serves the Engine to Clients and, like HTTP, the
	// API and MCP, without a token: only this user may reach it.
	var eng Engine = h
	info := h.Info()
	var w *watcher
	if !o.NoWatch && info.Root != "" {
		w = &watcher{host: h, log: ow.log, root: info.Root, indexDir: info.Dir, poll: o.Poll,
			freshCh: make(chan freshReq), unwatched: make(chan struct{})}
		if ordered {
			w.barrier = filepath.Join(info.Dir, endpointDir, barrierFile)
		}
		eng = watchedHost{h, w}
	}
	local := http.NewServeMux()
	local.Handle("/engine/", localHandler(eng, ow.checkReady))
	local.Handle("/", ow.svc.Handler(nil))
	ow.local = &http.Server{
		Handler:           ow.track(local),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(ow.log.Handler(), slog.LevelWarn),
	}
	ow.wg.Go(func() {
		if err := ow.local.Serve(ep.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			ow.log.Error("local endpoint stopped", "error", err)
		}
	})
	if httpLn != nil {
		ow.http = httpServer(ow.track(ow.svc.Handler(&HTTPOptions{Token: o.Token, CORS: o.CORS,
			Loopback: httpLn.Addr().(*net.TCPAddr).IP.IsLoopback()})), ow.log)
		ow.wg.Go(func() {
			if err := ow.http.Serve(httpLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				ow.log.Error("HTTP server stopped", "error", err)
			}
		})
	}
	owned := &Owned{PID: os.Getpid(), Socket: ep.ln.Addr().String(), HTTP: ow.httpAddr, Version: o.Version, Protocol: protocol,
		Started: time.Now().UTC().Truncate(time.Second), Info: h.Info()}
	if err := ep.record(owned); err != nil {
		ow.Close(context.Background())
		return nil, err
	}
	ow.log.Info("serving the index to this machine", "index", owned.Dir, "socket", owned.Socket)
	ctx, stop := context.WithCancel(context.Background())
	ow.stop = stop
	if o.Idle > 0 {
		ow.wg.Go(func() { ow.watchIdle(ctx, o.Idle) })
	}
	ow.wg.Go(func() { ow.warm(ctx) })
	if w == nil {
		close(ow.ready)
		return ow, nil
	}
	ow.wg.Go(func() { w.run(ctx, func() { close(ow.ready) }) })
	return ow, nil
}

// warm fills the index's cache of folded text once the index is up to
// date (index.Index.WarmFolds), pausing up to warmPause before each chunk
// while requests are in progress (an MCP stream over HTTP is one for as
// long as it is open), so that the first broad searches cost what later
// ones do.
func (ow *Owner) warm(ctx context.Context) {
	if !ow.untilReady(ctx) {
		return
	}
	start := time.Now()
	n, err := ow.host.ix.WarmFolds(ctx, func() {
		for end := time.Now().Add(warmPause); ow.active.Load() > 0 && ctx.Err() == nil && time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
		}
	})
	if err != nil && ctx.Err() == nil {
		ow.log.Warn("warming the cache of folded text", "error", err)
		return
	}
	ow.log.Info("warmed the cache of folded text", "documents", n, "took", time.Since(start).Round(time.Millisecond))
}

// untilReady waits until the index is up to date, and reports false
// when ctx ended first.
func (ow *Owner) untilReady(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-ow.ready:
		return true
	}
}

// warmPause bounds the warm-up's wait for requests in progress before
// each chunk of documents it folds.
const warmPause = 50 * time.Millisecond

// track counts h's requests in progress and when one last started or
// ended, for OwnOptions.Idle and the warm-up's pauses.
func (ow *Owner) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ow.active.Add(1)
		ow.last.Store(int64(time.Since(ow.born)))
		defer func() {
			ow.last.Store(int64(time.Since(ow.born)))
			ow.active.Add(-1)
		}()
		h.ServeHTTP(w, r)
	})
}

// watchIdle closes ow.idle once no request has been in progress for d
// since the Owner became ready, or returns when ctx ends.
func (ow *Owner) watchIdle(ctx context.Context, d time.Duration) {
	if !ow.untilReady(ctx) {
		return
	}
	ow.last.Store(int64(time.Since(ow.born)))
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// active first: a request that starts and ends between the two
		// loads leaves last new.
		busy := ow.active.Load() > 0
		since := time.Since(ow.born) - time.Duration(ow.last.Load())
		if !busy && since >= d {
			close(ow.idle)
			return
		}
		t.Reset(max(d-since, d/10))
	}
}

// checkReady returns ErrStarting until the index is up to date.
func (ow *Owner) checkReady() error {
	select {
	case <-ow.ready:
		return nil
	default:
		return ErrStarting
	}
}

// Ready is closed once the Owner has brought the index up to date and
// serves requests.
func (ow *Owner) Ready() <-chan struct{} { return ow.ready }

// Idle is closed once OwnOptions.Idle has passed with no request in
// progress; never without it. The Owner goes on serving: its owner
// decides to Close it.
func (ow *Owner) Idle() <-chan struct{} { return ow.idle }

// Service is the Owner's MCP tools and HTTP API, to serve over more
// transports (stdio).
func (ow *Owner) Service() *Service { return ow.svc }

// HTTPAddr is the HTTP API's URL, http://HOST:PORT, or "" without one.
func (ow *Owner) HTTPAddr() string { return ow.httpAddr }

// Close stops serving: new requests are refused, requests in progress
// (writes included) finish until ctx ends, then the endpoint and the
// owner file are removed. The Host stays open: its owner closes it.
func (ow *Owner) Close(ctx context.Context) error {
	ow.mu.Lock()
	if ow.closed {
		ow.mu.Unlock()
		return nil
	}
	ow.closed = true
	ow.mu.Unlock()
	ow.stop()
	ow.svc.EndStreams()
	var errs []error
	for _, srv := range []*http.Server{ow.http, ow.local} {
		if srv == nil {
			continue
		}
		if err := srv.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stop serving: %w", err))
			srv.Close()
		}
	}
	ow.svc.Close()
	ow.wg.Wait()
	ow.ep.remove()
	return errors.Join(errs...)
}
