//go:build !js && !wasip1

package index_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/damage"
)

// damageSegment damages a segment file in place, without truncating it
// unless how says so: an open index maps the file, and a shrunk mapping
// faults the process.
func damageSegment(t *testing.T, path, how string) {
	t.Helper()
	switch how {
	case "removed":
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	case "truncated":
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, fi.Size()-20); err != nil {
			t.Fatal(err)
		}
	case "zeroed":
		damage.Rewrite(t, path, func(b []byte) { clear(b) })
	case "flipped":
		damage.Rewrite(t, path, damage.FlipMiddle)
	}
}

// TestDamagedSegmentIsAnError breaks a bleve segment file under a search
// and checks that the search fails rather than finding nothing: FTS5-based
// tools answered an engine failure with an empty result. A segment
// damaged at rest is a *CorruptError from Open naming the file (zap itself
// would open a zeroed or truncated segment as an empty one); a removed
// one makes scorch fall back to an older snapshot, which Open brings back
// in step from the store; a segment damaged under an open index fails
// the next search that reads it.
func TestDamagedSegmentIsAnError(t *testing.T) {
	base := t.TempDir()
	ix := mustOpen(t, base, nil)
	mustUpsert(t, ix, corpus...)
	req := index.Request{Query: "authenticated"}
	want := ids(search(t, ix, req))
	if len(want) == 0 {
		t.Fatal("the query finds nothing to begin with")
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	segs, err := filepath.Glob(filepath.Join(base, "*", "*.zap"))
	if err != nil || len(segs) < 2 {
		t.Fatalf("segments %v, %v", segs, err)
	}
	copyIndex := func(t *testing.T) string {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, seg := range segs {
		rel, _ := filepath.Rel(base, seg)
		for _, how := range []string{"zeroed", "truncated", "flipped", "removed"} {
			t.Run(rel+"/"+how, func(t *testing.T) {
				dir := copyIndex(t)
				damageSegment(t, filepath.Join(dir, rel), how)
				ix, err := index.Open(dir, nil)
				if how == "removed" {
					if err != nil {
						t.Fatalf("Open: %v", err)
					}
					defer ix.Close()
					if got := ids(search(t, ix, req)); !slices.Equal(got, want) {
						t.Errorf("after Open: %v, want %v", got, want)
					}
					return
				}
				var ce *index.CorruptError
				if !errors.As(err, &ce) || ce.Path != filepath.Join(dir, rel) {
					t.Errorf("Open: %v, want a *CorruptError naming %s", err, rel)
				}
				if err == nil {
					ix.Close()
				}
			})
		}
		t.Run(rel+"/under an open index", func(t *testing.T) {
			dir := copyIndex(t)
			ix := mustOpen(t, dir, nil)
			damageSegment(t, filepath.Join(dir, rel), "flipped")
			if r, err := ix.Search(ctx, req); err == nil {
				t.Errorf("Search: %v and no error", ids(r))
			}
		})
	}
}
