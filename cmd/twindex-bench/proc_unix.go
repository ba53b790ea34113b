//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is the peak resident set of a process that exited, bytes.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
			return int64(ru.Maxrss) // bytes there
		}
		return int64(ru.Maxrss) << 10 // kilobytes on Linux and the BSDs
	}
	return 0
}

// terminate asks a process to stop as Ctrl-C or a service manager would.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
