//go:build !js && !wasip1

package storage_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/storage"
)

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.db")
	if err := storage.CheckFile(path); err != nil {
		t.Fatalf("missing file: %v", err)
	}
	s, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 64<<10)
	for i := range 40 {
		if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte{byte(i)}, big) }); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if err := storage.CheckFile(path); err != nil {
		t.Fatalf("intact file: %v", err)
	}
	good, _ := os.ReadFile(path)
	for name, b := range map[string][]byte{
		"truncated": good[:len(good)/2],
		"garbage":   []byte("this is not a bbolt file, not at all; it is long enough to have meta pages............"),
	} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := storage.CheckFile(path); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: CheckFile = %v, want ErrCorrupt", name, err)
		}
		if _, err := storage.Open(path, nil); !errors.Is(err, storage.ErrCorrupt) {
			t.Errorf("%s: Open = %v, want ErrCorrupt", name, err)
		}
	}
}
