//go:build (windows || plan9 || solaris || aix || android) && !js && !wasip1

package storage

// heldElsewhere is false where bbolt locks by other means than flock:
// Open then trusts the first walk, as it did before it asked.
func heldElsewhere(string) bool { return false }
