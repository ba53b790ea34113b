package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// bbolt's file layout, as far as CheckFile reads it: pages 0 and 1 are
// meta pages, each a 16-byte page header then the meta fields.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	boltPageHeader = 16
	boltMetaSize   = 64 // magic .. checksum
	boltSumOffset  = 56 // the checksum covers the meta fields before it
)

// CheckFile checks that the bbolt file at path can be opened safely: at
// least one meta page is intact, and no intact meta page refers to pages
// beyond the end of the file. bbolt itself would map such a file and
// fault (a fatal error, not a panic) when it reads a page that is not
// there, as after a truncation. A missing or empty file passes: bbolt
// creates it. The error wraps ErrCorrupt.
func CheckFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, path, fmt.Sprintf(format, args...))
	}
	meta := make([]byte, boltMetaSize)
	valid := 0
	var pageSize int64
	for i := range 2 {
		off := int64(boltPageHeader)
		if i == 1 {
			if pageSize == 0 {
				break // page 0 gave no page size; bbolt would need it too
			}
			off += pageSize
		}
		if _, err := f.ReadAt(meta, off); err != nil {
			if errors.Is(err, io.EOF) {
				continue
			}
			return err
		}
		le := binary.LittleEndian
		if le.Uint32(meta[0:]) != boltMagic || le.Uint32(meta[4:]) != boltVersion {
			continue
		}
		h := fnv.New64a()
		h.Write(meta[:boltSumOffset])
		if h.Sum64() != le.Uint64(meta[boltSumOffset:]) {
			continue
		}
		ps := int64(le.Uint32(meta[8:]))
		if ps < 512 || ps > 1<<20 {
			continue
		}
		if pageSize == 0 {
			pageSize = ps
		}
		pages := le.Uint64(meta[40:]) // the high-water page id
		if pages > uint64(size/ps) {
			return corrupt("the file has %d bytes, but its meta page %d refers to %d pages of %d bytes (truncated?)", size, i, pages, ps)
		}
		if root := le.Uint64(meta[16:]); root >= pages {
			return corrupt("meta page %d: root page %d is past the last page %d", i, root, pages)
		}
		valid++
	}
	if valid == 0 {
		return corrupt("no intact meta page")
	}
	return nil
}
