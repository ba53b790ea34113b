//go:build windows

package main

import (
	"os/exec"
	"syscall"
)

// detachedProcess is DETACHED_PROCESS: the child has no console.
const detachedProcess = 0x00000008

// detach gives cmd no console and a process group of its own, so that
// closing the console or Ctrl-C in it does not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}
