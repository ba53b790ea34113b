//go:build !js && !wasip1

package compact

// yield does nothing where the scheduler preempts goroutines; see
// yield_js.go.
func yield() {}
