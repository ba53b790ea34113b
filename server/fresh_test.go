package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestClientSyncThroughWatcher checks that a Client's sync of a watched
// folder syncs the changes made just before it, without a walk of the
// folder (where the platform orders file events: Linux), and walks it
// where the watcher cannot tell.
func TestClientSyncThroughWatcher(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    *OwnOptions
		walk bool
	}{
		{"watching", nil, !ordered},
		{"polling", &OwnOptions{Poll: DefaultPoll}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for i := range 20 {
				writeFile(t, filepath.Join(root, fmt.Sprintf("f%02d.txt", i)), fmt.Sprintf("file %d", i))
			}
			dir := filepath.Join(root, ".twindex")
			ix, err := index.Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			h := NewHost(ix, &HostOptions{Root: root})
			defer h.Close()
			ow, err := Own(h, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			defer ow.Close(context.Background())
			<-ow.Ready()
			c, err := Dial(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			ctx := context.Background()
			for i := range 5 {
				// Changed, then synced at once: well within the watcher's
				// debounce (50 ms), which is not what makes it seen.
				p := filepath.Join(root, fmt.Sprintf("new%d.txt", i))
				if err := os.WriteFile(p, []byte(fmt.Sprintf("pelican %d", i)), 0o644); err != nil {
					t.Fatal(err)
				}
				rep, err := c.Sync(ctx, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				walked := rep.Unchanged > 0
				if walked != tc.walk {
					t.Errorf("sync %d: %+v; want a walk %v", i, rep, tc.walk)
				}
				res, err := c.Search(ctx, index.Request{Query: fmt.Sprintf("pelican %d", i), Mode: index.ModeSubstring})
				if err != nil || res.Total != 1 {
					t.Fatalf("search after sync %d: %v, %v; want the new file", i, res, err)
				}
			}
			// A write leaves the index unlike the folder (the file stays):
			// the next sync walks it, as one without a server would, and
			// puts the document back; the one after trusts the watcher.
			if _, err := c.Write(ctx, &Writes{Remove: []string{"f00.txt"}}); err != nil {
				t.Fatal(err)
			}
			for i, wantWalk := range []bool{true, tc.walk} {
				rep, err := c.Sync(ctx, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				if walked := rep.Unchanged > 0; walked != wantWalk {
					t.Errorf("sync %d after the write: %+v; want a walk %v", i, rep, wantWalk)
				}
			}
			if _, err := c.Get("f00.txt"); err != nil {
				t.Errorf("f00.txt after the syncs: %v", err)
			}
		})
	}
}
