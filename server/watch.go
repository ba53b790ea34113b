package server

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/twindex/twindex/folder"
)

// Debouncing: the paths that changed are synced once events pause for
// settle, or once the first of them is maxDelay old, so a burst of writes
// (a checkout, a build) costs one sync and a lone save is searchable in
// well under a second.
const (
	settle   = 50 * time.Millisecond
	maxDelay = 500 * time.Millisecond
	// DefaultPoll is how often the folder is walked when it cannot be
	// watched.
	DefaultPoll = 2 * time.Second
)

// errWatchesOut is returned by addTree when the system has no more file
// watches to give (Linux: fs.inotify.max_user_watches; kqueue: open
// files).
var errWatchesOut = errors.New("no more file watches")

// watcher keeps a Host's index in step with its root: it watches every
// folder a sync walks (new ones as they appear, never ignored ones), and
// syncs the paths that changed; or, when the system's watches run out or
// polling is asked for, syncs the whole root every poll interval.
//
// Concurrency: run is one goroutine, the watcher's only user.
type watcher struct {
	host           *Host
	log            *slog.Logger
	root, indexDir string
	poll           time.Duration // > 0: poll from the start
	fsw            *fsnotify.Watcher
	add            func(string) error // fsw.Add; tests make watches run out
	watched        int                // folders watched
	// barrier is the file whose event shows the watcher has seen every
	// change before it (fresh.go); "" where events carry no order.
	barrier string
	// freshCh takes clients' requests to sync what changed; unwatched is
	// closed once the watch loop no longer takes them.
	freshCh   chan freshReq
	unwatched chan struct{}
	// walked is the Host's count of writes when a client's sync last
	// walked the root (watchedHost.Sync).
	walked atomic.Uint64
}

// run brings the index up to date, calls ready, then keeps it so until
// ctx ends.
func (w *watcher) run(ctx context.Context, ready func()) {
	if w.poll == 0 {
		if err := w.start(); err != nil {
			w.fallBack(err)
		}
	}
	w.sync(ctx, "first sync")
	ready()
	if w.fsw != nil {
		w.watch(ctx)
	}
	if w.unwatched != nil {
		close(w.unwatched)
	}
	if ctx.Err() == nil {
		w.pollEvery(ctx)
	}
}

// start watches every folder under the root.
func (w *watcher) start() error {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	w.fsw = fsw
	if w.add == nil {
		w.add = fsw.Add
	}
	if err := w.addTree(w.root); err != nil {
		return err
	}
	w.watchBarrier()
	w.log.Info("watching", "root", w.root, "folders", w.watched)
	return nil
}

// fallBack switches to polling after err, saying why and what to do.
func (w *watcher) fallBack(err error) {
	if w.fsw != nil {
		w.fsw.Close()
		w.fsw = nil
	}
	w.poll = DefaultPoll
	w.log.Warn("cannot watch the folder for changes: polling it instead (raise fs.inotify.max_user_watches and max_user_instances with sysctl on Linux, or the open file limit on macOS, to watch it)",
		"root", w.root, "every", w.poll, "watched", w.watched, "error", err)
}

// addTree watches dir and every folder below it that a sync walks. A
// folder made while the tree is listed, before its parent is watched,
// has no event and is not in the list: so the tree is listed again
// once every folder listed is watched, until a listing finds no folder
// that is not. Cost: two walks of the folders, as a rule.
func (w *watcher) addTree(dir string) error {
	added := map[string]bool{}
	for {
		dirs, err := folder.Folders(w.root, w.indexDir, dir)
		if err != nil {
			w.log.Warn("cannot list folders to watch", "folder", dir, "error", err)
			return nil
		}
		more := false
		for _, d := range dirs {
			if added[d] {
				continue
			}
			added[d], more = true, true
			err := w.add(d)
			switch {
			case err == nil:
				w.watched++
			case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
				return errors.Join(errWatchesOut, err)
			case errors.Is(err, fs.ErrNotExist):
				// Gone already: its parent's event says so.
			default:
				w.log.Warn("cannot watch a folder", "folder", d, "error", err)
			}
		}
		if !more {
			return nil
		}
	}
}

// watch syncs what changed, debounced, until ctx ends or watching fails
// (then fsw is nil and the caller polls).
func (w *watcher) watch(ctx context.Context) {
	defer func() {
		if w.fsw != nil {
			w.fsw.Close()
		}
	}()
	pending := map[string]bool{}
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if err := w.event(ev, pending); err != nil {
				w.fallBack(err)
				return
			}
			if len(pending) == 0 {
				continue
			}
			if first.IsZero() {
				first = time.Now()
			}
			timer.Reset(min(settle, time.Until(first.Add(maxDelay))))
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// Events were lost (the kernel's queue overflowed): only a
			// sync of everything is sure to catch up.
			w.log.Warn("file events lost: syncing the whole folder", "error", err)
			pending = map[string]bool{w.root: true}
			first = time.Now()
			timer.Reset(0)
		case <-timer.C:
			scopes := make([]string, 0, len(pending))
			for p := range pending {
				scopes = append(scopes, p)
			}
			pending, first = map[string]bool{}, time.Time{}
			w.sync(ctx, "changes", scopes...)
		case req := <-w.freshCh:
			r, err := w.freshen(ctx, pending)
			req.reply <- r
			if err != nil {
				w.fallBack(err)
				return
			}
			if len(pending) == 0 {
				first = time.Time{}
				timer.Stop()
			}
		}
	}
}

// event records in pending the path an event says changed, and watches a
// new folder at once, so that what is made in it right after is seen.
func (w *watcher) event(ev fsnotify.Event, pending map[string]bool) error {
	if ev.Op == fsnotify.Chmod || w.isBarrier(ev) {
		return nil // permissions or times: the content is the same
	}
	p := ev.Name
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.fsw.Remove(p) // if it was a watched folder; inotify may have done it
	}
	fi, err := os.Lstat(p)
	isDir := err == nil && fi.IsDir()
	if name := filepath.Base(p); name == ".gitignore" || name == ".twindexignore" {
		// What is ignored changed: everything in the folder may be in or
		// out now, folders to watch included.
		dir := filepath.Dir(p)
		if !folder.Ignored(w.root, w.indexDir, dir, true) {
			pending[dir] = true
			return w.addTree(dir)
		}
		return nil
	}
	if folder.Ignored(w.root, w.indexDir, p, isDir) {
		return nil
	}
	pending[p] = true
	if isDir && ev.Has(fsnotify.Create) {
		return w.addTree(p)
	}
	return nil
}

// pollEvery syncs the whole root every poll interval until ctx ends.
func (w *watcher) pollEvery(ctx context.Context) {
	t := time.NewTicker(w.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.sync(ctx, "poll")
		}
	}
}

// sync syncs scopes (the root when none) and logs what changed.
func (w *watcher) sync(ctx context.Context, why string, scopes ...string) (*folder.Report, error) {
	rep, err := w.host.sync(ctx, nil, nil, scopes...)
	switch {
	case ctx.Err() != nil:
	case err != nil:
		w.log.Error("sync failed", "why", why, "error", err)
	case rep.Written+rep.Removed > 0 || why == "first sync":
		w.log.Info("synced", "why", why, "written", rep.Written, "removed", rep.Removed, "unchanged", rep.Unchanged,
			"took", rep.Elapsed.Round(time.Millisecond))
	default:
		w.log.Debug("synced", "why", why, "scopes", len(scopes), "took", rep.Elapsed.Round(time.Millisecond))
	}
	if err == nil {
		for _, r := range rep.Invalid {
			w.log.Info("skipped a file the index refused", "id", r.ID, "reason", r.Reason)
		}
		if n := len(rep.Oversize); n > 0 {
			w.log.Debug("skipped files over the size limit", "files", n, "max", rep.Oversize[:min(n, 5)])
		}
	}
	return rep, err
}
