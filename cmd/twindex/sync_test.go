package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// The sync calls writes once before it writes files in, and not when it
// has nothing to write: a search sets its collector back there.
func TestSyncCallsWrites(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("pelican "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Open(filepath.Join(root, folder.IndexDirName), nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := server.NewHost(ix, &server.HostOptions{Root: root})
	defer eng.Close()
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	for _, want := range []int{1, 0} { // three files to write, then none
		calls := 0
		rep, err := syncFolder(context.Background(), e, eng, root, syncOptions{quiet: true, writes: func() { calls++ }})
		if err != nil || calls != want {
			t.Fatalf("sync writing %d: writes called %d times, want %d (%v)", rep.Written, calls, want, err)
		}
	}
}
