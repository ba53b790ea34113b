//go:build !unix

package main

import "os/exec"

// detach does nothing: elsewhere a child outlives its parent as it is.
func detach(*exec.Cmd) {}
