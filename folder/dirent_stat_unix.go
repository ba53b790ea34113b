//go:build unix

package folder

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// statEntries asks the kernel, relative to the open folder fd (dir),
// for the type of each entry whose type the file system left unknown
// (NFS, CIFS, some FUSE file systems) and, when statFiles is set, for the
// size and mtime of each regular file. As os.ReadDir does, an unknown
// entry that vanished since the folder was read is left out, and any
// other failure to stat one fails the read: a folder left out would have
// its files removed from the index. A regular file that vanished or
// changed type keeps no size, and the walk passes it by.
func statEntries(fd int, dir string, ents []dirEntry, statFiles bool) ([]dirEntry, error) {
	var st unix.Stat_t
	kept := ents[:0]
	for _, e := range ents {
		unknown := e.typ == fs.ModeIrregular
		if !unknown && (!statFiles || !e.typ.IsRegular()) {
			kept = append(kept, e)
			continue
		}
		err := unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW)
		for err == unix.EINTR { // FUSE and CIFS interrupt stats (os retries them too)
			err = unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW)
		}
		switch {
		case unknown && err == unix.ENOENT:
			continue
		case unknown && err != nil:
			return nil, &fs.PathError{Op: "lstat", Path: dir + "/" + e.name, Err: err}
		case unknown:
			e.typ = modeOf(uint32(st.Mode))
		}
		if statFiles && err == nil && uint32(st.Mode)&unix.S_IFMT == unix.S_IFREG {
			e.size, e.mtime, e.stated = st.Size, st.Mtim.Nano(), true
		}
		kept = append(kept, e)
	}
	return kept, nil
}

// modeOf is the type bits of a stat's st_mode, as os.Lstat gives them.
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
