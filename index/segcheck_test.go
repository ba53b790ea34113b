//go:build !js && !wasip1

package index_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/damage"
)

// TestSegmentsCheckedOncePerState checks that Open reads a segment file
// for its checksum once per state of the file, as the record beside each
// bleve index notes it: a segment damaged without a change of size or
// modification time (as a bit flipped on the disk would be) opens unseen
// while the record holds it, and is a *CorruptError once the record is
// gone or the file's time changed.
func TestSegmentsCheckedOncePerState(t *testing.T) {
	base := t.TempDir()
	ix := mustOpen(t, base, nil)
	mustUpsert(t, ix, corpus...)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	// The first Open after the write notes the segments it checked.
	ix = mustOpen(t, base, nil)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	segs, err := filepath.Glob(filepath.Join(base, "text", "*.zap"))
	if err != nil || len(segs) != 1 {
		t.Fatalf("text segments %v, %v", segs, err)
	}
	rel, _ := filepath.Rel(base, segs[0])
	fi, err := os.Stat(segs[0])
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, dir, seg string)
		corrupt bool
	}{
		{"noted", func(*testing.T, string, string) {}, false},
		{"record removed", func(t *testing.T, dir, _ string) {
			if err := os.Remove(filepath.Join(dir, "text.checked")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"time changed", func(t *testing.T, _, seg string) {
			later := fi.ModTime().Add(time.Second)
			if err := os.Chtimes(seg, later, later); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			seg := filepath.Join(dir, rel)
			damage.Rewrite(t, seg, damage.FlipMiddle)
			if err := os.Chtimes(seg, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			tc.setup(t, dir, seg)
			ix, err := index.Open(dir, nil)
			var ce *index.CorruptError
			switch {
			case tc.corrupt && (!errors.As(err, &ce) || ce.Path != seg):
				t.Errorf("Open: %v, want a *CorruptError naming %s", err, seg)
			case !tc.corrupt && err != nil:
				t.Errorf("Open with the segment noted as checked: %v", err)
			}
			if err == nil {
				ix.Close()
			}
		})
	}
}
