package folder

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStatEntriesUnknownTypes: where the file system leaves d_type
// unknown (some network and FUSE file systems), readDir asks fstatat
// for each entry's type, and ends with what os.ReadDir gives.
func TestStatEntriesUnknownTypes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.go"), "package a")
	writeFile(t, filepath.Join(dir, "sub", "b.go"), "package b")
	if err := os.Symlink("a.go", filepath.Join(dir, "link.go")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	for _, stat := range []bool{true, false} {
		got, err := readDir(dir, stat)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			got[i] = dirEntry{name: got[i].name, typ: fs.ModeIrregular}
		}
		// One that vanished since the folder was read: left out, as
		// os.ReadDir leaves it out.
		got = append(got, dirEntry{name: "vanished", typ: fs.ModeIrregular})
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(fd)
		if got, err = statEntries(fd, dir, got, stat); err != nil {
			t.Fatal(err)
		}
		want, err := readDirOS(dir, stat)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("statFiles %v:\ngot  %+v\nwant %+v", stat, got, want)
		}
		// One that cannot be stat'ed for another reason (here a name
		// over NAME_MAX): the read fails rather than leave out what may
		// be a folder, whose files a sync would then remove.
		bad := []dirEntry{{name: strings.Repeat("x", 300), typ: fs.ModeIrregular}}
		if _, err := statEntries(fd, dir, bad, stat); !errors.Is(err, unix.ENAMETOOLONG) {
			t.Errorf("statFiles %v: an unknown entry that fails its stat: %v", stat, err)
		}
	}
}

// TestReadDirLargeFolder: a folder whose entries take several
// getdents64 calls (over the 32 KiB buffer) reads as os.ReadDir reads it.
func TestReadDirLargeFolder(t *testing.T) {
	dir := t.TempDir()
	for i := range 1500 {
		name := fmt.Sprintf("%04d-%s.go", i, strings.Repeat("n", 40+i%200))
		writeFile(t, filepath.Join(dir, name), strings.Repeat("x", i))
	}
	got, err := readDir(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	want, err := readDirOS(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1500 || !slices.Equal(got, want) {
		t.Errorf("readDir gave %d entries, readDirOS %d, or they differ", len(got), len(want))
	}
}

// dirent64 is one linux_dirent64 record, padded to 8 bytes as the
// kernel pads it.
func dirent64(name string, typ byte) []byte {
	n := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint16(b[16:], uint16(n))
	b[18] = typ
	copy(b[19:], name)
	return b
}

// FuzzAppendDirents: whatever bytes getdents64 is said to have filled,
// appendDirents returns and keeps no ".", "..", empty names or NULs.
func FuzzAppendDirents(f *testing.F) {
	f.Add(slices.Concat(dirent64(".", unix.DT_DIR), dirent64("..", unix.DT_DIR), dirent64("a.go", unix.DT_REG), dirent64("sub", unix.DT_DIR)))
	f.Add(dirent64("x", unix.DT_UNKNOWN)[:20])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, buf []byte) {
		for _, e := range appendDirents(nil, buf) {
			if e.name == "" || e.name == "." || e.name == ".." || strings.IndexByte(e.name, 0) >= 0 {
				t.Fatalf("entry %q kept", e.name)
			}
		}
	})
}

func TestAppendDirents(t *testing.T) {
	buf := slices.Concat(dirent64(".", unix.DT_DIR), dirent64("..", unix.DT_DIR), dirent64("a.go", unix.DT_REG),
		dirent64("sub", unix.DT_DIR), dirent64("l", unix.DT_LNK), dirent64("u", unix.DT_UNKNOWN), dirent64("cut", unix.DT_REG)[:10])
	want := []dirEntry{{name: "a.go"}, {name: "sub", typ: fs.ModeDir}, {name: "l", typ: fs.ModeSymlink}, {name: "u", typ: fs.ModeIrregular}}
	if got := appendDirents(nil, buf); !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// A record length past the buffer, or under a record's header, ends
	// the parse at the records before it.
	long, short := dirent64("b.go", unix.DT_REG), dirent64("c.go", unix.DT_REG)
	binary.NativeEndian.PutUint16(long[16:], uint16(len(long)+8))
	binary.NativeEndian.PutUint16(short[16:], 12)
	for _, buf := range [][]byte{slices.Concat(dirent64("a.go", unix.DT_REG), long),
		slices.Concat(dirent64("a.go", unix.DT_REG), short, dirent64("d.go", unix.DT_REG))} {
		if got := appendDirents(nil, buf); !slices.Equal(got, []dirEntry{{name: "a.go"}}) {
			t.Errorf("a bad record length: got %+v", got)
		}
	}
}

// TestDirentModeIsStatMode: each d_type is its st_mode type shifted, as
// direntMode assumes.
func TestDirentModeIsStatMode(t *testing.T) {
	for _, c := range []struct {
		dt   byte
		mode uint32
	}{{unix.DT_REG, unix.S_IFREG}, {unix.DT_DIR, unix.S_IFDIR}, {unix.DT_LNK, unix.S_IFLNK}, {unix.DT_FIFO, unix.S_IFIFO},
		{unix.DT_SOCK, unix.S_IFSOCK}, {unix.DT_CHR, unix.S_IFCHR}, {unix.DT_BLK, unix.S_IFBLK}} {
		if got, want := direntMode(c.dt), modeOf(c.mode); got != want || (c.dt != unix.DT_REG && got == 0) {
			t.Errorf("d_type %d: %v, st_mode %o: %v", c.dt, got, c.mode, want)
		}
	}
	if direntMode(unix.DT_UNKNOWN) != fs.ModeIrregular {
		t.Error("DT_UNKNOWN is not marked unknown")
	}
}
