//go:build !js && !wasip1

package memkv

// yield does nothing where the scheduler preempts goroutines; see
// yield_wasm.go.
func yield() {}
