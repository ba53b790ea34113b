//go:build !js && !wasip1

package memkv

// memYield does nothing where the scheduler preempts goroutines; see
// memkv_js.go.
func memYield() {}
