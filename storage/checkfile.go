package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// CheckFile checks that the bbolt file at path can be handed to bbolt
// without faulting the process. bbolt keeps no checksums on its pages and
// follows whatever page ID it reads through its memory map, so a damaged
// page can crash the process with SIGSEGV or SIGBUS, which no recover
// catches. CheckFile reads the file as bbolt would, with every read
// bounds-checked: it picks the meta page bbolt would use (the valid one
// with the highest transaction ID) and walks everything reachable from it:
// the freelist and every branch and leaf page of the root bucket and of
// every nested bucket, inline buckets included. Each page must lie below
// the high-water mark and within the file, carry its own ID and the type
// its reference implies, hold every element and every key and value
// inside itself, and be reached once only; keys must be non-empty and
// ascending, within each page and within the range the branch above
// gives (bbolt panics on either when it writes, also in scorch's
// goroutines, where nothing recovers); free pages must lie below the
// high-water mark, once, and not be reachable. Unreachable pages are not
// checked: they leak space, never fault.
//
// A missing or empty file passes: bbolt creates it. The error is a
// *CorruptError (wrapping ErrCorrupt) naming the file and page, or an I/O
// error. A file written meanwhile (its meta pages changed during the walk)
// is walked again, up to three times.
//
// Cost: O(reachable pages): one read of each reachable page's first
// page-size bytes (element headers, keys, bucket values), and of the rest
// of a page run only as far as its last key; memory two bits per page
// below the high-water mark. BenchmarkCheckFile measures it.
func CheckFile(path string) error {
	_, err := checkFile(path)
	return err
}

// stamp tells states of a bbolt file apart cheaply: every commit changes
// the transaction ID of the meta page in use, and every write the
// modification time.
type stamp struct {
	size, mtime int64
	txid        uint64
}

func (s stamp) String() string { return fmt.Sprintf("bbolt walk: %d %d %d\n", s.size, s.mtime, s.txid) }

// checkFile is CheckFile; it also returns the stamp the file had before
// the walk that passed, zero for a missing or empty file.
func checkFile(path string) (stamp, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return stamp{}, nil
	}
	if err != nil {
		return stamp{}, err
	}
	defer f.Close()
	return checkOpen(f, path)
}

// statReaderAt is the part of an *os.File that checkOpen reads.
type statReaderAt interface {
	io.ReaderAt
	Stat() (fs.FileInfo, error)
}

// checkOpen walks the open file f, again while a writer changes its meta
// pages. The meta pages are read before the size: bbolt grows the file
// before it writes the meta page that reaches the new pages, so a size
// taken after the meta pages holds every page they reach, and a commit
// after it changes them, which the read after a failed walk sees. The
// other order fails a file that was only growing: the size from before a
// commit, the meta pages from after.
func checkOpen(f statReaderAt, path string) (stamp, error) {
	for try := 0; ; try++ {
		before, err := metaBytes(f)
		if err != nil {
			return stamp{}, err
		}
		fi, err := f.Stat()
		if err != nil || fi.Size() == 0 {
			return stamp{}, err
		}
		w := &walker{f: f, path: path, size: fi.Size()}
		txid, err := w.walk()
		if err == nil {
			return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), txid: txid}, nil
		}
		var ce *CorruptError
		if !errors.As(err, &ce) || try == 2 {
			return stamp{}, err
		}
		after, rerr := metaBytes(f)
		if rerr != nil || bytes.Equal(before, after) {
			return stamp{}, err
		}
	}
}

// metaBytes returns the first 64 KiB of the file, which hold both meta
// pages for every page size up to 32 KiB: a commit rewrites one of them.
func metaBytes(f io.ReaderAt) ([]byte, error) {
	b := make([]byte, 64<<10)
	n, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}

// fileStamp returns the file's stamp without walking it, zero for a
// missing or empty file or one without an intact meta page.
func fileStamp(path string) (stamp, error) {
	f, err := os.Open(path)
	if err != nil {
		return stamp{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return stamp{}, err
	}
	w := &walker{f: f, path: path, size: fi.Size()}
	m, _, err := w.chooseMeta()
	if err != nil {
		return stamp{}, nil
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), txid: m.txid}, nil
}

// checkOnce is CheckFile, skipped when the file at record says the file
// at path was walked clean in the state it is in now, and noted there
// when the walk passes. It returns the state it found sound, zero for a
// missing or empty file. Damage that changes neither size, modification
// time nor transaction ID (a bit flipped on the disk) goes unseen until
// the file changes.
//
// Cost: a stat and two small reads when the record matches; CheckFile's
// otherwise.
func checkOnce(path, record string) (stamp, error) {
	if b, err := os.ReadFile(record); err == nil {
		if now, err := fileStamp(path); err == nil && now != (stamp{}) && string(b) == now.String() {
			return now, nil
		}
	}
	st, err := checkFile(path)
	if err != nil || st == (stamp{}) {
		return stamp{}, err
	}
	// Only a speed-up: a record not written costs the next Open a walk.
	_ = os.WriteFile(record, []byte(st.String()), 0o644)
	return st, nil
}
