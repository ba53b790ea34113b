//go:build js || wasip1

package compact

import "runtime"

// yield lets other goroutines, and the garbage collector's worker, run.
// In js/wasm the one thread is never preempted: a goroutine runs until it
// blocks, and a search never blocks, so a loop of searches would starve
// writers and timers. Each new reader yields first, and a segment's build
// every 64 documents.
func yield() { runtime.Gosched() }
