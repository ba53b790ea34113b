// Package goroot finds the Go tree of the toolchain on PATH, whose source
// the tests and benchmarks index as a corpus (runtime.GOROOT is
// deprecated: it is the tree the test binary was built from, and empty
// for one built with -trimpath). It needs nothing of the engine.
package goroot

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
)

// Dir returns the folder that `go env GOROOT` names, asked once per
// process. Cost: one go command (tens of milliseconds), then nothing.
var Dir = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w (a Go toolchain on PATH gives the source these tests read)", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("go env GOROOT printed nothing")
	}
	return dir, nil
})
