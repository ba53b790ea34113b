package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// How a command opens its index.
type openMode int

const (
	openExisting openMode = iota // a read or write of an index that must exist
	openCreate                   // created if missing
	openFill                     // created if missing, filled, then optimized if new (location.fill)
)

// lockWait is how long a command that finds the index locked waits for
// the lock, or for an owner to serve it: a starting server takes the lock,
// then makes its endpoint, within milliseconds; a search holds it for tens
// of milliseconds; a server stopping (SIGTERM, --idle) releases it once
// its writes in progress are done.
const lockWait = 5 * time.Second

// lockWaitOf returns $TWINDEX_LOCK_WAIT, a duration (0: fail at once),
// else lockWait.
func lockWaitOf(e *env) (time.Duration, error) {
	v := e.getenv("TWINDEX_LOCK_WAIT")
	if v == "" {
		return lockWait, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, usageErr("set TWINDEX_LOCK_WAIT to a duration such as 500ms or 1m", "TWINDEX_LOCK_WAIT=%q is not a duration", v)
	}
	return d, nil
}

// lockNotice is how long whileLocked waits before it says so.
const lockNotice = 500 * time.Millisecond

// dialed sets what a Client of the owner says while the owner starts.
func dialed(e *env, c *server.Client) *server.Client {
	c.Starting = func() {
		fmt.Fprintf(e.stderr, "twindex: waiting for the server (pid %d) to bring the index up to date\n", c.Owned().PID)
	}
	return c
}

// engine returns the Engine of the index at l: a Client of the server
// that owns it when one does, so that any number of commands, agents and
// programs share one index; else the index opened in this process, after
// removing the endpoint files a killed server left. filled is as for
// location.fill, a no-op unless mode is openFill and the index is new.
// With opts.ReadOnly an existing index is opened read-only, unless it
// must be written first (index.ErrReadOnly): then it is opened for
// writing.
func (l *location) engine(e *env, opts *index.Options, mode openMode, maxSize int64) (eng server.Engine, filled func(context.Context) error, err error) {
	noop := func(context.Context) error { return nil }
	if l.Exists {
		c, err := server.Dial(l.Dir)
		switch {
		case err == nil:
			return dialed(e, c), noop, nil
		case !errors.Is(err, server.ErrNoOwner):
			return nil, nil, indexErr(err, l.Dir)
		}
	}
	var ix *index.Index
	c, err := whileLocked(e, e.interrupted, l.Dir, func() (err error) {
		ix, filled = nil, noop
		l.Exists = folder.IsIndex(l.Dir) // another process may have made it meanwhile
		if opts != nil && opts.ReadOnly {
			if l.Exists {
				ix, err = l.open(opts, false)
			}
			if !l.Exists || errors.Is(err, index.ErrReadOnly) {
				o := *opts
				o.ReadOnly = false
				opts, ix, err = &o, nil, nil
			}
		}
		switch {
		case ix != nil || err != nil:
		case mode == openFill:
			ix, filled, err = l.fill(opts)
		default:
			ix, err = l.open(opts, mode == openCreate)
		}
		return err
	})
	if c != nil {
		return dialed(e, c), noop, nil
	}
	if err != nil {
		return nil, nil, err
	}
	server.RemoveStale(l.Dir)
	return server.NewHost(ix, hostOptions(l, opts, maxSize)), filled, nil
}

// whileLocked calls open until it returns anything but index.ErrLocked,
// or a server owns the index in dir (its Client is returned), or lockWait
// ($TWINDEX_LOCK_WAIT) has passed, or stop is closed (context.Canceled); after lockNotice it
// says on stderr that it waits. A damaged store seen while another process
// holds the lock is taken for that process's write in progress (the store
// is checked before the lock is tried): it is retried, and lockWait ends
// with ErrLocked.
func whileLocked(e *env, stop <-chan struct{}, dir string, open func() error) (*server.Client, error) {
	wait, err := lockWaitOf(e)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	deadline, told := start.Add(wait), false
	var locked error
	for {
		err := open()
		_, damaged := errors.AsType[*index.CorruptError](err)
		switch {
		case errors.Is(err, index.ErrLocked):
			locked = err
		case locked != nil && damaged:
		default:
			return nil, err
		}
		if c, derr := server.Dial(dir); derr == nil {
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, locked
		}
		if !told && time.Since(start) > lockNotice {
			fmt.Fprintf(e.stderr, "twindex: %s is locked by another process; waiting up to %s\n", dir, wait)
			told = true
		}
		select {
		case <-stop:
			return nil, context.Canceled
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// openEngine is the Engine of the existing index for the current folder
// (or --index, or the folder of path-like arguments), for the commands
// that do not create one.
func openEngine(e *env, flagIndex string, args ...string) (server.Engine, location, error) {
	from := "."
	if len(args) > 0 {
		from = locateFrom(args[0])
	}
	loc, err := locate(e, flagIndex, from)
	if err != nil {
		return nil, loc, err
	}
	eng, _, err := loc.engine(e, nil, openExisting, defaultMaxSize)
	return eng, loc, err
}

// notOwned fails when a server owns the index at l, for the commands
// that need it to themselves (rebuild).
func (l *location) notOwned() error {
	c, err := server.Dial(l.Dir)
	if err != nil {
		return nil
	}
	defer c.Close()
	o := c.Owned()
	return &exitError{code: exitIndex, err: fmt.Errorf("%s is served by twindex (pid %d)", l.Dir, o.PID),
		hint: "stop that server (Ctrl-C, or kill " + fmt.Sprint(o.PID) + "), then run the command again"}
}

func hostOptions(l *location, opts *index.Options, maxSize int64) *server.HostOptions {
	return &server.HostOptions{Root: l.Root, MaxSize: maxSize, Reranker: opts != nil && opts.Reranker != nil}
}

// dialOwner returns a Client of the server that owns the index at l, or
// nil when none does.
func dialOwner(l *location) *server.Client {
	c, err := server.Dial(l.Dir)
	if err != nil {
		return nil
	}
	return c
}
