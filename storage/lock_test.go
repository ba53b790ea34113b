//go:build linux

package storage_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/twindex/twindex/storage"
)

// TestDamagedWhileHeld opens a file whose walk fails while another open
// file holds bbolt's lock on it, as a process committing to it during the
// walk would make it look: Open says the file is locked, not damaged, and
// once the lock is let go within bbolt's wait, the file's own state
// decides: damaged here.
func TestDamagedWhileHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	good := writeStore(t, path, 8)
	if err := os.WriteFile(path, good[:len(good)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	hold := func() *os.File {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			t.Fatal(err)
		}
		return f
	}

	f := hold()
	_, err := storage.Open(path, nil)
	var ce *storage.CorruptError
	if !errors.Is(err, storage.ErrLocked) || errors.As(err, &ce) {
		t.Errorf("held: Open = %v, want ErrLocked", err)
	}
	f.Close()

	f = hold()
	time.AfterFunc(50*time.Millisecond, func() { f.Close() })
	if _, err := storage.Open(path, nil); !errors.As(err, &ce) {
		t.Errorf("let go during the wait: Open = %v, want a *CorruptError", err)
	}
	if _, err := storage.Open(path, nil); !errors.As(err, &ce) {
		t.Errorf("not held: Open = %v, want a *CorruptError", err)
	}
}
