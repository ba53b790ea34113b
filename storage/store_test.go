//go:build !js && !wasip1

package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/storage"
	bolt "go.etcd.io/bbolt"
)

var bucket = []byte("b")

func stores(t *testing.T, opts *storage.Options) map[string]storage.Store {
	t.Helper()
	b, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return map[string]storage.Store{"bolt": b, "memory": storage.NewMemory(opts)}
}

func get(t *testing.T, s storage.Store, key string) string {
	t.Helper()
	var v string
	if err := s.View(func(tx storage.Tx) error {
		v = string(tx.Get(bucket, []byte(key)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return v
}

func keys(t *testing.T, s storage.Store, prefix string) []string {
	t.Helper()
	return scanAll(t, s, bucket, prefix)
}

func TestPutGetScanDelete(t *testing.T) {
	for name, s := range stores(t, nil) {
		t.Run(name, func(t *testing.T) {
			err := s.Update(func(tx storage.Tx) error {
				for _, k := range []string{"b/2", "a/1", "b/1", "c"} {
					if err := tx.Put(bucket, []byte(k), []byte("v"+k)); err != nil {
						return err
					}
				}
				return tx.Delete(bucket, []byte("missing"))
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := get(t, s, "a/1"); got != "va/1" {
				t.Errorf("Get a/1 = %q", got)
			}
			if got := fmt.Sprint(keys(t, s, "b/")); got != "[b/1=vb/1 b/2=vb/2]" {
				t.Errorf("Scan b/ = %s", got)
			}
			if got := len(keys(t, s, "")); got != 4 {
				t.Errorf("Scan all = %d keys, want 4", got)
			}
			if err := s.Update(func(tx storage.Tx) error { return tx.Delete(bucket, []byte("b/1")) }); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(keys(t, s, "b/")); got != "[b/2=vb/2]" {
				t.Errorf("after delete, Scan b/ = %s", got)
			}
		})
	}
}

func TestRollbackOnError(t *testing.T) {
	boom := errors.New("boom")
	for name, s := range stores(t, nil) {
		t.Run(name, func(t *testing.T) {
			if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte("k"), []byte("old")) }); err != nil {
				t.Fatal(err)
			}
			err := s.Update(func(tx storage.Tx) error {
				tx.Put(bucket, []byte("k"), []byte("new"))
				tx.Put(bucket, []byte("k2"), []byte("x"))
				tx.Delete(bucket, []byte("k"))
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("Update = %v, want boom", err)
			}
			if got := fmt.Sprint(keys(t, s, "")); got != "[k=old]" {
				t.Errorf("after rollback: %s", got)
			}
		})
	}
}

func TestFaultAtEveryStep(t *testing.T) {
	for _, failAt := range []int{1, 2, 3} { // put, put, commit
		calls := 0
		fault := func(step string) error {
			calls++
			if calls == failAt {
				return storage.ErrFault
			}
			return nil
		}
		for name, s := range stores(t, &storage.Options{Fault: fault}) {
			calls = -1 << 30 // setup writes never fail
			if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte("a"), []byte("0")) }); err != nil {
				t.Fatal(err)
			}
			calls = 0
			err := s.Update(func(tx storage.Tx) error {
				if err := tx.Put(bucket, []byte("a"), []byte("1")); err != nil {
					return err
				}
				return tx.Put(bucket, []byte("b"), []byte("1"))
			})
			if !errors.Is(err, storage.ErrFault) {
				t.Errorf("%s step %d: Update = %v, want ErrFault", name, failAt, err)
			}
			if got := fmt.Sprint(keys(t, s, "")); got != "[a=0]" {
				t.Errorf("%s step %d: after fault: %s", name, failAt, got)
			}
			calls = -1 << 30
			if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte("b"), []byte("2")) }); err != nil {
				t.Errorf("%s: write after fault cleared: %v", name, err)
			}
		}
	}
}

func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// bbolt's flock is per open file description, so a second Open in the
	// same process contends exactly as another process would.
	if _, err := storage.Open(path, nil); !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("second Open = %v, want ErrLocked", err)
	}
}

func TestClosed(t *testing.T) {
	for name, s := range stores(t, nil) {
		s.Close()
		if err := s.View(func(storage.Tx) error { return nil }); !errors.Is(err, storage.ErrClosed) {
			t.Errorf("%s: View after Close = %v", name, err)
		}
	}
}

// TestUpdateWithoutWrites checks that an Update that writes nothing
// leaves the file as it was: bbolt would commit a new freelist and meta
// page, and Options.CheckRecord would see a changed file.
func TestUpdateWithoutWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte("k"), []byte("v")) }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := s.Update(func(tx storage.Tx) error { tx.Get(bucket, []byte("k")); return nil }); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("an Update without writes changed the file")
	}
	if err := s.Update(func(tx storage.Tx) error { return tx.Delete(bucket, []byte("k")) }); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); bytes.Equal(before, after) {
		t.Error("an Update with a Delete left the file as it was")
	}
}

// TestFileEndsNearItsPages checks that a store's file grows by
// storage.GrowStep past the pages in use, not by bbolt's 16 MiB, before
// and after Compact. bbolt grows to what a commit asks plus the step, and
// a commit may ask a few pages past those it ends up using: the bound is
// two steps.
func TestFileEndsNearItsPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := storage.Open(path, &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	val := bytes.Repeat([]byte("0123456789abcdef"), 4096) // 64 KiB
	for tx := range 6 {
		if err := s.Update(func(w storage.Tx) error {
			for i := range 64 {
				if err := w.Put(bucket, fmt.Appendf(nil, "k%d-%d", tx, i), val); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var inUse int64
		db.View(func(tx *bolt.Tx) error { inUse = tx.Size(); return nil })
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if inUse < 24<<20 || fi.Size()-inUse > 2*storage.GrowStep {
			t.Errorf("%s: file %d bytes, pages in use %d: the tail past them is over %d", when, fi.Size(), inUse, 2*storage.GrowStep)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check("after writes")
	if s, err = storage.Open(path, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check("after Compact")
}
