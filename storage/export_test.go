//go:build !js && !wasip1

package storage

import (
	"io"
	"io/fs"
)

const GrowStep = growStep

// CheckOpen is CheckFile on a file already open, or a test's stand-in.
func CheckOpen(f interface {
	io.ReaderAt
	Stat() (fs.FileInfo, error)
}, path string) error {
	_, err := checkOpen(f, path)
	return err
}

// SetBeforeLock has Open call fn between its walk and bbolt's lock, and
// Compact between its swap and its reopen, until the test ends.
func SetBeforeLock(t interface{ Cleanup(func()) }, fn func()) {
	beforeLock = fn
	t.Cleanup(func() { beforeLock = nil })
}

// Stamp is the record CheckRecord keeps for the file at path as it is now.
func Stamp(path string) (string, error) {
	st, err := fileStamp(path)
	return st.String(), err
}
