package server

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// freshness is the most a change may take to show in searches.
const freshness = 2 * time.Second

// watched starts a watcher on a new index of a new folder, and returns
// the folder, the Host and the watcher's log.
func watched(t *testing.T, setup func(w *watcher)) (string, *Host, *syncBuffer) {
	t.Helper()
	root := t.TempDir()
	ix, err := index.Open(filepath.Join(root, folder.IndexDirName), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, &HostOptions{Root: root})
	logs := &syncBuffer{}
	w := &watcher{host: h, log: slog.New(slog.NewTextHandler(logs, nil)), root: root, indexDir: h.Info().Dir}
	if setup != nil {
		setup(w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		w.run(ctx, func() { close(ready) })
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		h.Close()
	})
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the first sync did not finish")
	}
	return root, h, logs
}

// syncBuffer is a log that tests read while the watcher writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// hits are the IDs a search finds, sorted.
func hits(t *testing.T, h *Host, q string) []string {
	t.Helper()
	res, err := h.Search(context.Background(), index.Request{Query: q, Fallback: -1, Limit: index.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, hit := range res.Hits {
		ids = append(ids, hit.ID)
	}
	slices.Sort(ids)
	return ids
}

func relID(t *testing.T, root, p string) string {
	t.Helper()
	id, ok := folder.RelID(root, p)
	if !ok {
		t.Fatalf("%s is outside %s", p, root)
	}
	return id
}

// await waits until q finds exactly want and returns how long it took;
// it fails the test after freshness.
func await(t *testing.T, h *Host, q string, want ...string) time.Duration {
	t.Helper()
	return awaitWithin(t, freshness, h, q, want...)
}

func awaitWithin(t *testing.T, limit time.Duration, h *Host, q string, want ...string) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		got := hits(t, h, q)
		if slices.Equal(got, want) {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("search %q: %v after %s, want %v", q, got, limit, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Files created, changed and deleted, in new folders too, show in
// searches within freshness; ignored folders stay out, and a changed
// ignore file brings its folder's files in or out.
func TestWatcher(t *testing.T) {
	root, h, logs := watched(t, nil)
	var lat []time.Duration
	for i := range 10 {
		word := fmt.Sprintf("quokka%c", 'a'+i)
		p := filepath.Join(root, fmt.Sprintf("d%d", i%3), "deeper", fmt.Sprintf("f%d.txt", i))
		writeFile(t, p, word+" created")
		lat = append(lat, await(t, h, word, relID(t, root, p)))
		writeFile(t, p, "changed to "+word+"x")
		lat = append(lat, await(t, h, word+"x", relID(t, root, p)))
		os.Remove(p)
		lat = append(lat, await(t, h, word+"x"))
	}
	slices.Sort(lat)
	t.Logf("freshness over %d changes: p50 %s, p90 %s, max %s", len(lat),
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*9/10].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))

	// A folder moved away and back in.
	writeFile(t, filepath.Join(root, "m", "in.txt"), "wombat")
	await(t, h, "wombat", "m/in.txt")
	if err := os.Rename(filepath.Join(root, "m"), filepath.Join(root, "n")); err != nil {
		t.Fatal(err)
	}
	await(t, h, "wombat", "n/in.txt")
	writeFile(t, filepath.Join(root, "n", "second.txt"), "wombat again")
	await(t, h, "wombat", "n/in.txt", "n/second.txt")

	// Ignored: never indexed; ignore rules that change apply at once.
	writeFile(t, filepath.Join(root, ".gitignore"), "build/\n")
	writeFile(t, filepath.Join(root, "build", "out.txt"), "platypus")
	writeFile(t, filepath.Join(root, "src", "a.txt"), "platypus")
	await(t, h, "platypus", "src/a.txt")
	writeFile(t, filepath.Join(root, ".gitignore"), "src/\n")
	await(t, h, "platypus", "build/out.txt")
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("errors logged:\n%s", logs)
	}
}

// Where the system's watches run out, the watcher says so and polls.
func TestWatchesRunOut(t *testing.T) {
	root, h, logs := watched(t, func(w *watcher) {
		w.add = func(string) error { return syscall.ENOSPC }
	})
	if !strings.Contains(logs.String(), "polling it instead") || !strings.Contains(logs.String(), "max_user_watches") {
		t.Fatalf("no word of polling in the log:\n%s", logs)
	}
	writeFile(t, filepath.Join(root, "x", "y", "z.txt"), "echidna")
	took := awaitWithin(t, DefaultPoll+freshness, h, "echidna", "x/y/z.txt")
	t.Logf("seen by polling after %s", took.Round(time.Millisecond))
}

// A folder made while the watcher lists the tree, after the listing and
// before its parent's watch, is watched all the same: the files then
// made in it show in searches.
func TestFolderMadeWhileListing(t *testing.T) {
	var made string
	root, h, _ := watched(t, func(w *watcher) {
		w.add = func(d string) error {
			if made == "" && d == w.root {
				made = filepath.Join(w.root, "late")
				if err := os.Mkdir(made, 0o755); err != nil {
					t.Error(err)
				}
			}
			return w.fsw.Add(d)
		}
	})
	if made == "" {
		t.Fatal("the root was never watched")
	}
	writeFile(t, filepath.Join(made, "f.txt"), "numbat")
	await(t, h, "numbat", relID(t, root, filepath.Join(made, "f.txt")))
	os.Remove(filepath.Join(made, "f.txt"))
	await(t, h, "numbat")
}
