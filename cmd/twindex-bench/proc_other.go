//go:build !unix

package main

import "os"

// maxRSS is not measured on this platform.
func maxRSS(*os.ProcessState) int64 { return 0 }

// terminate kills the process: there is no SIGTERM here.
func terminate(p *os.Process) error { return p.Kill() }
