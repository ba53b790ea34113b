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
