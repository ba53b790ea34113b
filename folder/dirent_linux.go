package folder

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// direntBufs are getdents64 buffers: a folder of the Go tree fits one.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// readDir returns the entries of the folder dir in name order and, when
// statFiles is set, the size and mtime of each regular file. It talks to
// the kernel directly: open, getdents64 into a pooled buffer, an fstatat
// of each file relative to the open folder (the kernel resolves one name
// rather than the whole path), close. os.Open and File.ReadDir would add
// five system calls a folder (the poller's epoll_ctl, four fcntl) and a
// File with its finalizer; a sync stats the whole tree before every CLI
// search, and this is most of its time.
func readDir(dir string, statFiles bool) ([]dirEntry, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	var out []dirEntry
	for {
		n, err := unix.Getdents(fd, *bp)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		out = appendDirents(out, (*bp)[:n])
	}
	slices.SortFunc(out, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	return statEntries(fd, dir, out, statFiles)
}

// appendDirents appends the entries of buf, linux_dirent64 records as
// getdents64 fills it, less "." and "..". An entry whose type the file
// system leaves unknown gets fs.ModeIrregular, for readDir to stat.
func appendDirents(out []dirEntry, buf []byte) []dirEntry {
	for len(buf) >= 19 { // d_ino 8, d_off 8, d_reclen 2, d_type 1, d_name
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < 19 || reclen > len(buf) {
			break
		}
		typ, name := buf[18], buf[19:reclen]
		buf = buf[reclen:]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		if string(name) == "." || string(name) == ".." || len(name) == 0 {
			continue
		}
		out = append(out, dirEntry{name: string(name), typ: direntMode(typ)})
	}
	return out
}

// direntMode is the type bits os.DirEntry gives for a d_type: Linux
// numbers d_type as st_mode's type field, S_IFMT >> 12 (DT_REG 8 for
// S_IFREG 0o100000), and DT_UNKNOWN 0 comes out fs.ModeIrregular.
func direntMode(t byte) fs.FileMode { return modeOf(uint32(t) << 12) }
