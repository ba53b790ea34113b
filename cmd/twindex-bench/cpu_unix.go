//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the user+system CPU time of the whole process so far. Go's
// garbage collector and the engine's workers run on other threads, so unlike
// fts5_ref.py's thread time this counts all of them.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
