//go:build !unix && !windows

package main

import "os/exec"

// detach does nothing: these systems have no sessions to leave.
func detach(*exec.Cmd) {}
