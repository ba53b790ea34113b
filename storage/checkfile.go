package storage

import (
	"bytes"
	"errors"
	"io"
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
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	for try := 0; ; try++ {
		fi, err := f.Stat()
		if err != nil || fi.Size() == 0 {
			return err
		}
		before, err := metaBytes(f)
		if err != nil {
			return err
		}
		w := &walker{f: f, path: path, size: fi.Size()}
		if _, err = w.walk(); err == nil {
			return nil
		}
		var ce *CorruptError
		if !errors.As(err, &ce) || try == 2 {
			return err
		}
		after, rerr := metaBytes(f)
		if rerr != nil || bytes.Equal(before, after) {
			return err
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
