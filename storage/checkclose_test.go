//go:build !js && !wasip1

package storage_test

import (
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/twindex/twindex/storage"
)

// TestCheckRecordAtClose checks that a clean Close notes the state its
// own commits, or Compact's copy, left (the next Open then skips the
// walk), and only then: not after a write without fsync, a panic inside
// a transaction, or a write by another process where Open or Compact
// leaves the file unlocked, which the walk did not see.
func TestCheckRecordAtClose(t *testing.T) {
	put := func(s *storage.Bolt, k string) {
		t.Helper()
		if err := s.Update(func(tx storage.Tx) error { return tx.Put(bucket, []byte(k), []byte("v")) }); err != nil {
			t.Fatal(err)
		}
	}
	// open returns a store whose file has been walked and noted.
	open := func(t *testing.T, opts storage.Options) (s *storage.Bolt, path, record string) {
		t.Helper()
		dir := t.TempDir()
		path, record = filepath.Join(dir, "s.db"), filepath.Join(dir, "s.checked")
		opts.CheckRecord = record
		for range 2 { // the first Open creates the file, the second walks it
			s, err := storage.Open(path, &opts)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
		}
		s, err := storage.Open(path, &opts)
		if err != nil {
			t.Fatal(err)
		}
		return s, path, record
	}
	noted := func(t *testing.T, path, record string) bool {
		t.Helper()
		b, err := os.ReadFile(record)
		if err != nil {
			return false
		}
		now, err := storage.Stamp(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) == now
	}

	// unnoted closes s and fails the test if Close noted the state.
	unnoted := func(t *testing.T, s *storage.Bolt, path, record, what string) {
		t.Helper()
		s.Close()
		if noted(t, path, record) {
			t.Fatalf("%s was noted", what)
		}
	}

	t.Run("commits", func(t *testing.T) {
		s, path, record := open(t, storage.Options{})
		put(s, "a")
		put(s, "b")
		if noted(t, path, record) {
			t.Fatal("the record moved before Close")
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if !noted(t, path, record) {
			t.Fatal("a clean Close after commits did not note the state they left")
		}
	})
	t.Run("a new file", func(t *testing.T) {
		dir := t.TempDir()
		path, record := filepath.Join(dir, "s.db"), filepath.Join(dir, "s.checked")
		s, err := storage.Open(path, &storage.Options{CheckRecord: record})
		if err != nil {
			t.Fatal(err)
		}
		put(s, "a")
		s.Close()
		if !noted(t, path, record) {
			t.Fatal("the state written to a file Open made was not noted")
		}
	})
	t.Run("no writes", func(t *testing.T) {
		s, path, record := open(t, storage.Options{})
		before, _ := os.ReadFile(record)
		s.Close()
		if after, _ := os.ReadFile(record); string(after) != string(before) || !noted(t, path, record) {
			t.Fatalf("record %q, then %q", before, after)
		}
	})
	t.Run("no sync", func(t *testing.T) {
		s, path, record := open(t, storage.Options{NoSync: true})
		put(s, "a")
		unnoted(t, s, path, record, "a state not fsynced")
	})
	t.Run("panic", func(t *testing.T) {
		s, path, record := open(t, storage.Options{})
		put(s, "a")
		err := s.Update(func(tx storage.Tx) error {
			if err := tx.Put(bucket, []byte("b"), []byte("v")); err != nil {
				return err
			}
			panic("invalid page type") // as bbolt's on a damaged page
		})
		if err == nil {
			t.Fatal("a panic inside Update returned no error")
		}
		unnoted(t, s, path, record, "a state after a panic")
	})
	t.Run("compact", func(t *testing.T) {
		s, path, record := open(t, storage.Options{})
		before, _ := storage.Stamp(path)
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if now, _ := storage.Stamp(path); now == before || !noted(t, path, record) {
			t.Fatal("the state Compact made was not noted")
		}
	})
	// other writes to the file as another process would, where Open or
	// Compact leaves it unlocked.
	other := func(t *testing.T, path string) func() {
		return func() {
			db, err := bolt.Open(path, 0o644, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			err = db.Update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucketIfNotExists([]byte("other"))
				if err != nil {
					return err
				}
				return b.Put([]byte("k"), []byte("v"))
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Run("written before the lock", func(t *testing.T) {
		s, path, record := open(t, storage.Options{})
		s.Close()
		storage.SetBeforeLock(t, other(t, path))
		s, err := storage.Open(path, &storage.Options{CheckRecord: record})
		if err != nil {
			t.Fatal(err)
		}
		put(s, "a")
		unnoted(t, s, path, record, "a state made from one the walk did not see")
	})
	t.Run("written while Compact swaps", func(t *testing.T) {
		s, path, record := open(t, storage.Options{})
		put(s, "a")
		storage.SetBeforeLock(t, other(t, path))
		if err := s.Compact(); err != nil {
			t.Fatal(err)
		}
		put(s, "b")
		unnoted(t, s, path, record, "a state another process wrote during Compact")
	})
}
