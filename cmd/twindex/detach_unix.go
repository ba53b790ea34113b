//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach makes cmd a session of its own, so that the terminal's hangup or
// Ctrl-C of the command that starts it does not reach it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
