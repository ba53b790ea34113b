//go:build !js && !wasip1

package storage_test

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/twindex/twindex/storage"
)

// TestCheckFileWhileCommitting checks a bbolt file while a writer
// commits to it, as Check walks scorch's root.bolt beside its persister:
// the file's bytes move from one state to the next between any two of the
// walk's reads and stats, and every interleaving must pass. The states
// are a real bbolt file's: freshly made (16 KiB), after its first commit,
// which grows the file, and after a commit of a value spanning pages.
func TestCheckFileWhileCommitting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "root.bolt")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var states [][]byte
	snap := func() {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, b)
	}
	snap()
	for _, v := range [][]byte{[]byte("v"), bytes.Repeat([]byte("x"), 40<<10)} {
		if err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("b"))
			if err != nil {
				return err
			}
			return b.Put([]byte{byte(len(v))}, v)
		}); err != nil {
			t.Fatal(err)
		}
		snap()
	}
	for i := 1; i < len(states); i++ {
		if len(states[i]) <= len(states[i-1]) {
			t.Fatalf("commit %d did not grow the file (%d -> %d bytes): the test needs it to", i, len(states[i-1]), len(states[i]))
		}
		for at := 0; ; at++ {
			f := &committing{b: states[i-1], next: states[i], at: at}
			if err := storage.CheckOpen(f, path); err != nil {
				t.Errorf("commit %d after the check's call %d: %v", i, at, err)
			}
			if f.calls <= at {
				break // the walk ended before the commit
			}
		}
	}
}

// committing is a file whose bytes become next at its call number at: a
// commit landing between two of the checker's calls.
type committing struct {
	b, next   []byte
	at, calls int
}

func (f *committing) tick() {
	if f.calls == f.at {
		f.b = f.next
	}
	f.calls++
}

func (f *committing) ReadAt(p []byte, off int64) (int, error) {
	f.tick()
	if off >= int64(len(f.b)) {
		return 0, io.EOF
	}
	n := copy(p, f.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *committing) Stat() (fs.FileInfo, error) {
	f.tick()
	return size(len(f.b)), nil
}

// size is the FileInfo of a file of that many bytes.
type size int64

func (s size) Name() string       { return "root.bolt" }
func (s size) Size() int64        { return int64(s) }
func (s size) Mode() fs.FileMode  { return 0o600 }
func (s size) ModTime() time.Time { return time.Time{} }
func (s size) IsDir() bool        { return false }
func (s size) Sys() any           { return nil }
