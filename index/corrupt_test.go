//go:build !js && !wasip1

package index_test

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/damage"
	"github.com/twindex/twindex/storage"
)

// TestCorruptFiles damages each file of an index in turn and checks that
// nothing crashes: Open and Search either work or fail with an error, a
// damaged bleve index gives a *CorruptError naming it, and Open with
// RebuildCorrupt restores a bleve index from the store so that Check
// passes. Damage: every file truncated to half; in scorch's segment files,
// every 50th byte flipped; in bbolt files (the store, scorch's root.bolt),
// bytes flipped in the meta pages. Damage to the other pages of bbolt
// files, which storage.CheckFile walks before bbolt reads them, is
// storage's TestCheckFileDamage and cmd/twindex's TestRandomDamage.
func TestCorruptFiles(t *testing.T) {
	base := t.TempDir()
	ix := mustOpen(t, base, nil)
	mustUpsert(t, ix, corpus...)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(base, p)
			files = append(files, rel)
		}
		return nil
	})
	damages := map[string]func([]byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"flipped": func(b []byte) []byte {
			for i := 0; i < len(b); i += max(1, len(b)/50) {
				b[i] ^= 0xff
			}
			return b
		},
	}
	// In bbolt files, only the meta pages (the first two 4 KiB pages).
	metaFlipped := func(b []byte) []byte {
		for i := 16; i < min(len(b), 8192); i += 97 {
			b[i] ^= 0xff
		}
		return b
	}
	for _, file := range files {
		for how, damage := range damages {
			if how == "flipped" && strings.HasSuffix(file, ".db") || how == "flipped" && strings.HasSuffix(file, ".bolt") {
				how, damage = "meta flipped", metaFlipped
			}
			t.Run(file+"/"+how, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, file)
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, damage(b), 0o600); err != nil {
					t.Fatal(err)
				}
				bleveFile := !strings.HasPrefix(file, "store")
				ix, err := index.Open(dir, nil)
				if err != nil {
					var ce *index.CorruptError
					if bleveFile && !errors.As(err, &ce) {
						t.Errorf("Open: %v, want a *CorruptError", err)
					}
					if bleveFile && !strings.Contains(err.Error(), filepath.Dir(p)) {
						t.Errorf("Open: %v does not name %s", err, filepath.Dir(p))
					}
				} else {
					// Undetected damage (bbolt and scorch keep no checksums
					// on every page) must still give answers or errors.
					ix.Search(ctx, index.Request{Query: "authenticated"})
					ix.Check(ctx)
					ix.Close()
				}
				if !bleveFile {
					return // a damaged store is reported, not repaired
				}
				ix, err = index.Open(dir, &index.Options{RebuildCorrupt: true})
				if err != nil {
					t.Fatalf("Open with RebuildCorrupt: %v", err)
				}
				defer ix.Close()
				if err := ix.Rebuild(ctx); err != nil {
					t.Fatal(err)
				}
				if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
					t.Errorf("Check after rebuild: %v\n%s", err, rep)
				}
				if r := search(t, ix, index.Request{Query: "authenticated"}); r.Total != 2 {
					t.Errorf("after rebuild: %v", ids(r))
				}
			})
		}
	}
}

// TestCheckWalksBoltFiles damages the store file of an open index where
// the running bbolt does not look (the freelist on disk, read once at
// Open) and checks that Check walks the file and reports it, naming the
// file and page, as Open would next time.
func TestCheckWalksBoltFiles(t *testing.T) {
	dir := t.TempDir()
	ix := mustOpen(t, dir, nil)
	mustUpsert(t, ix, corpus...)
	store := filepath.Join(dir, "store.db")
	var freelist uint64
	damage.Rewrite(t, store, func(b []byte) {
		le := binary.LittleEndian
		pageSize := int(le.Uint32(b[16+8:]))
		meta := 16 // the meta page in use has the higher transaction ID
		if le.Uint64(b[pageSize+16+48:]) > le.Uint64(b[16+48:]) {
			meta += pageSize
		}
		freelist = le.Uint64(b[meta+32:])
		page := int(freelist) * pageSize
		le.PutUint16(b[page+10:], 1)                        // one free page ...
		le.PutUint64(b[page+16:], le.Uint64(b[meta+40:])+5) // ... past the end
	})
	_, err := ix.Check(ctx)
	var ce *storage.CorruptError
	if !errors.Is(err, index.ErrCorrupt) || !errors.As(err, &ce) || ce.Path != store || ce.Page != freelist {
		t.Errorf("Check: %v, want a *storage.CorruptError naming %s page %d", err, store, freelist)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
}
