package storage_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/storage"
)

func scanAll(t *testing.T, s storage.Store, b []byte, prefix string) []string {
	t.Helper()
	var kv []string
	if err := s.View(func(tx storage.Tx) error {
		return tx.Scan(b, []byte(prefix), func(k, v []byte) error {
			kv = append(kv, string(k)+"="+string(v))
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return kv
}

func byteSlices(ss ...string) [][]byte {
	var out [][]byte
	for _, s := range ss {
		out = append(out, []byte(s))
	}
	return out
}

// A loaded bucket reads as one filled by puts, owns its bytes, and takes
// writes after the load; Load refuses what would break the bucket.
func TestMemoryLoad(t *testing.T) {
	s := storage.NewMemory(nil)
	b := []byte("docs")
	keys, vals := byteSlices("a", "ab", "b", "c"), byteSlices("1", "22", "", "4444")
	if err := s.Load(b, keys, vals); err != nil {
		t.Fatal(err)
	}
	vals[0][0] = 'X' // the caller's bytes are copied
	keys[1][1] = 'X'
	if got, want := scanAll(t, s, b, ""), []string{"a=1", "ab=22", "b=", "c=4444"}; !slices.Equal(got, want) {
		t.Fatalf("scan: %q, want %q", got, want)
	}
	if got := scanAll(t, s, b, "a"); !slices.Equal(got, []string{"a=1", "ab=22"}) {
		t.Fatalf("scan a: %q", got)
	}
	if n, err := s.Size(); err != nil || n != 1+1+2+2+1+0+1+4 {
		t.Fatalf("size %d (%v)", n, err)
	}
	err := s.Update(func(tx storage.Tx) error {
		if err := tx.Put(b, []byte("aa"), []byte("new")); err != nil {
			return err
		}
		return tx.Delete(b, []byte("b"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := scanAll(t, s, b, ""), []string{"a=1", "aa=new", "ab=22", "c=4444"}; !slices.Equal(got, want) {
		t.Fatalf("scan after writes: %q, want %q", got, want)
	}

	for _, tt := range []struct {
		name       string
		keys, vals [][]byte
		want       string
	}{
		{"docs", byteSlices("z"), byteSlices("1"), "holds 4 keys"},
		{"x", byteSlices("b", "a"), byteSlices("1", "2"), "does not follow"},
		{"x", byteSlices("a", "a"), byteSlices("1", "2"), "does not follow"},
		{"x", byteSlices("a"), nil, "1 keys for 0 values"},
	} {
		if err := s.Load([]byte(tt.name), tt.keys, tt.vals); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("load %s %q: %v, want an error saying %q", tt.name, tt.keys, err, tt.want)
		}
	}
	if got := scanAll(t, s, []byte("x"), ""); len(got) != 0 {
		t.Errorf("a refused load left %q", got)
	}

	faulty := storage.NewMemory(&storage.Options{Fault: func(step string) error {
		if step == "load docs" {
			return storage.ErrFault
		}
		return nil
	}})
	if err := faulty.Load(b, keys, vals); !errors.Is(err, storage.ErrFault) {
		t.Errorf("load with a fault: %v", err)
	}
	s.Close()
	if err := s.Load([]byte("y"), nil, nil); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("load after close: %v", err)
	}
}
