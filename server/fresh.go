package server

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/twindex/twindex/folder"
)

// A client's sync (a CLI search) of a watched folder need not walk it:
// the watcher has seen every change, or is about to. To know it has seen
// every change made before the request, it writes a barrier file in the
// endpoint folder, which it watches with the same inotify instance as
// the root's folders: inotify queues one instance's events in the order
// they happen, so once the barrier's event arrives, every earlier change
// has arrived too. Then it syncs what changed, at once. Where events of
// different folders carry no such order (kqueue, Windows), or while the
// watcher polls, a client's sync walks the folder.
const (
	barrierFile = "barrier"
	// barrierWait bounds the wait for the barrier's event; past it the
	// client's sync walks the folder.
	barrierWait = time.Second
)

// ordered says whether the platform's file events keep their order
// across folders (Linux's inotify).
var ordered = runtime.GOOS == "linux"

// freshReq asks the watcher to sync every change made before it.
type freshReq struct {
	reply chan freshReply
}

// freshReply is the watcher's answer: ok false means it could not tell
// (the caller walks the folder instead).
type freshReply struct {
	rep *folder.Report
	err error
	ok  bool
}

// watchedHost is a Host as the local endpoint serves it: a sync asks
// the watcher for the changes it has seen before walking the folder.
type watchedHost struct {
	*Host
	w *watcher
}

// Sync syncs what changed, through the watcher when it can tell (see
// fresh), else by a walk of scope. After a Write of the Host (twindex rm
// of a file's document, say) only a walk of the root brings the index
// back in step with the folder, as a sync without a server would; the
// watcher sees files, not writes. Writes made to the Host's index
// directly, around the Host, are not seen.
func (s watchedHost) Sync(ctx context.Context, scope string, progress func(done, total int)) (*folder.Report, error) {
	writes := s.writes.Load()
	if writes == s.w.walked.Load() {
		if r := s.w.fresh(ctx); r.ok {
			return r.rep, r.err
		}
	}
	rep, err := s.Host.Sync(ctx, scope, progress)
	if err == nil && (scope == "" || scope == s.info.Root) {
		s.w.walked.Store(writes)
	}
	return rep, err
}

// fresh asks the watch loop to sync every change made before the call
// (see barrierFile). It answers ok false at once when the watcher does
// not watch (it polls, or gave up watching).
func (w *watcher) fresh(ctx context.Context) freshReply {
	if w.barrier == "" {
		return freshReply{}
	}
	req := freshReq{reply: make(chan freshReply, 1)}
	select {
	case w.freshCh <- req:
	case <-w.unwatched:
		return freshReply{}
	case <-ctx.Done():
		return freshReply{err: ctx.Err(), ok: true}
	}
	select {
	case r := <-req.reply:
		return r
	case <-ctx.Done():
		return freshReply{err: ctx.Err(), ok: true}
	}
}

// freshen serves a freshReq in the watch loop: it writes the barrier,
// takes the events up to the barrier's own into pending, and syncs
// pending at once. failed is an error that ends watching (the caller
// falls back to polling), with the reply not ok.
func (w *watcher) freshen(ctx context.Context, pending map[string]bool) (r freshReply, failed error) {
	if err := os.WriteFile(w.barrier, []byte("."), 0o600); err != nil {
		w.log.Warn("cannot write the barrier file: syncing by a walk", "error", err)
		return freshReply{}, nil
	}
	timeout := time.NewTimer(barrierWait)
	defer timeout.Stop()
	for seen := false; !seen; {
		select {
		case <-ctx.Done():
			return freshReply{err: ctx.Err(), ok: true}, nil
		case <-timeout.C:
			w.log.Warn("the barrier's event did not come: syncing by a walk", "after", barrierWait)
			return freshReply{}, nil
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return freshReply{}, nil
			}
			if ev.Name == w.barrier {
				seen = true
				continue
			}
			if err := w.event(ev, pending); err != nil {
				return freshReply{}, err
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return freshReply{}, nil
			}
			w.log.Warn("file events lost: syncing the whole folder", "error", err)
			pending[w.root] = true
		}
	}
	if len(pending) == 0 {
		return freshReply{rep: &folder.Report{}, ok: true}, nil
	}
	scopes := slices.Collect(maps.Keys(pending))
	clear(pending)
	rep, err := w.sync(ctx, "a client's sync", scopes...)
	return freshReply{rep: rep, err: err, ok: true}, nil
}

// watchBarrier watches the barrier file's folder, in the index folder,
// which no sync walks.
func (w *watcher) watchBarrier() {
	if w.barrier == "" {
		return
	}
	if err := w.add(filepath.Dir(w.barrier)); err != nil {
		w.log.Warn("cannot watch the endpoint folder: clients' syncs walk the folder", "error", err)
		w.barrier = ""
	}
}

// isBarrier reports an event of the barrier's folder, which is not the
// root's to sync.
func (w *watcher) isBarrier(ev fsnotify.Event) bool {
	return w.barrier != "" && filepath.Dir(ev.Name) == filepath.Dir(w.barrier)
}
