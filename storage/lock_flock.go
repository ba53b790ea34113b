//go:build !windows && !plan9 && !solaris && !aix && !android && !js && !wasip1

package storage

import (
	"errors"
	"os"
	"syscall"
)

// heldElsewhere reports whether another open file of path holds the lock
// bbolt takes to write it (flock, exclusive, on these systems), by asking
// for a shared one without waiting. Cost: an open, a flock, a close.
func heldElsewhere(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close() // releases the lock if it was taken
	return errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK)
}
