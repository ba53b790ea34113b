package folder

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/index"
)

func TestReadText(t *testing.T) {
	dir := t.TempDir()
	long := bytes.Repeat([]byte("text "), 3*sniffLen/5)
	for _, tc := range []struct {
		name   string
		data   []byte
		binary bool
	}{
		{"empty", nil, false},
		{"short", []byte("hello"), false},
		{"long", long, false},
		{"NUL at the start", []byte("\x00ELF"), true},
		{"NUL at the last byte looked at", append(bytes.Repeat([]byte("a"), sniffLen-1), 0, 'b'), true},
		{"NUL past what is looked at", append(bytes.Repeat([]byte("a"), sniffLen), 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "f")
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			data, binary, err := readText(p)
			if err != nil || binary != tc.binary {
				t.Fatalf("readText: binary %v, %v; want binary %v", binary, err, tc.binary)
			}
			if !binary && !bytes.Equal(data, tc.data) {
				t.Fatalf("readText: %d bytes, want %d", len(data), len(tc.data))
			}
		})
	}
	if _, _, err := readText(filepath.Join(dir, "missing")); err == nil {
		t.Error("readText of a missing file: no error")
	}
}

// TestBinaryNoted checks that a sync reads a binary file once while its
// size and modification time stay: a file made text without a change of
// either (as an indexed file rewritten so would be) is still taken as
// binary, and is indexed once its time changes or the note is gone.
func TestBinaryNoted(t *testing.T) {
	root := t.TempDir()
	idx := filepath.Join(root, IndexDirName)
	ix, err := index.Open(idx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	o := &Options{Root: root, IndexDir: idx}
	bin := filepath.Join(root, "blob.dat")
	writeFile(t, bin, "ab\x00cd")
	writeFile(t, filepath.Join(root, "a.txt"), "alpha")
	sync := func(t *testing.T) *Report {
		t.Helper()
		rep, err := Sync(ctx, ix, o)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if rep := sync(t); rep.Binary != 1 || rep.Written != 1 {
		t.Fatalf("first sync: %+v, want 1 binary, 1 written", rep)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, bin, "ab cd") // text now, same size
	if err := os.Chtimes(bin, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if rep := sync(t); rep.Binary != 1 || rep.Written != 0 {
		t.Fatalf("same size and time: %+v, want the file noted as binary, unread", rep)
	}
	if err := os.Remove(filepath.Join(idx, binaryFile)); err != nil {
		t.Fatal(err)
	}
	if rep := sync(t); rep.Binary != 0 || rep.Written != 1 {
		t.Fatalf("note removed: %+v, want the file read and indexed", rep)
	}
	if d, err := ix.Get("blob.dat"); err != nil || d.Body != "ab cd" {
		t.Fatalf("blob.dat: %v, %v", d, err)
	}
	if _, err := os.Stat(filepath.Join(idx, binaryFile)); err == nil {
		t.Error("the note still lists a file that is text now")
	}
}
