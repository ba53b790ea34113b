package sharded

// Shallow makes a search ask each shard for one hit per leg at first, so
// that it deepens, until the returned func is called.
func Shallow() (restore func()) {
	old := firstDepth
	firstDepth = func(int) int { return 1 }
	return func() { firstDepth = old }
}
