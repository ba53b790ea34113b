//go:build js || wasip1

package memkv

import "runtime"

// yield lets other goroutines run. In js/wasm the one thread is never
// preempted: a goroutine runs until it blocks, and a search over a Store
// never blocks (bleve's treap store blocked on a channel for every row).
// A loop of searches would then starve writers and timers, so each new
// reader yields first.
func yield() { runtime.Gosched() }
