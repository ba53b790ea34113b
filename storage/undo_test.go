//go:build !js && !wasip1

package storage_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/twindex/twindex/storage"
)

// TestUndo writes through an Undo and reads the state before the write
// through it, in a transaction that holds the write.
func TestUndo(t *testing.T) {
	for name, s := range stores(t, nil) {
		t.Run(name, func(t *testing.T) {
			put := func(tx storage.Tx, k, v string) error { return tx.Put(bucket, []byte(k), []byte(v)) }
			err := s.Update(func(tx storage.Tx) error {
				for _, kv := range [][2]string{{"a", "1"}, {"b/1", "x"}, {"b/2", ""}, {"c", "3"}, {"d", "4"}} {
					if err := put(tx, kv[0], kv[1]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			before := keys(t, s, "")
			var u storage.Undo
			err = s.Update(func(wtx storage.Tx) error {
				tx := u.Recording(wtx)
				for _, step := range []func() error{
					func() error { return put(tx, "a", "10") },
					func() error { return tx.Delete(bucket, []byte("b/1")) },
					func() error { return put(tx, "b/3", "new") },
					func() error { return put(tx, "b/2", "z") },
					func() error { return tx.Delete(bucket, []byte("c")) },
					func() error { return put(tx, "e", "5") },
					func() error { return put(tx, "a", "11") }, // the first change is what counts
					func() error { return put(tx, "0", "first") },
				} {
					if err := step(); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			after := keys(t, s, "")
			err = s.View(func(raw storage.Tx) error {
				tx := u.Before(raw)
				for k, want := range map[string]string{"a": "1", "b/1": "x", "b/3": "", "c": "3", "d": "4", "e": "", "0": ""} {
					if got := string(tx.Get(bucket, []byte(k))); got != want {
						t.Errorf("Get(%s) = %q, want %q", k, got, want)
					}
				}
				for _, prefix := range []string{"", "b/", "a", "z"} {
					var got []string
					if err := tx.Scan(bucket, []byte(prefix), func(k, v []byte) error {
						got = append(got, string(k)+"="+string(v))
						return nil
					}); err != nil {
						return err
					}
					var want []string
					for _, kv := range before {
						if len(kv) >= len(prefix) && kv[:len(prefix)] == prefix {
							want = append(want, kv)
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("Scan(%q) = %v, want %v", prefix, got, want)
					}
				}
				stop := errors.New("stop")
				n := 0
				if err := tx.Scan(bucket, nil, func(k, v []byte) error {
					if n++; n == 2 {
						return stop
					}
					return nil
				}); err != stop || n != 2 {
					t.Errorf("Scan stopped with %v after %d keys", err, n)
				}
				if err := tx.Put(bucket, []byte("x"), nil); err == nil {
					t.Error("Put through Before succeeded")
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"0=first", "a=11", "b/2=z", "b/3=new", "d=4", "e=5"}; !slices.Equal(after, want) {
				t.Errorf("the store after the write: %v, want %v", after, want)
			}
		})
	}
}
