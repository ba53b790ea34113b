// Package damage breaks files the way failing disks and careless tools
// do, for tests of what twindex does with a damaged index. Damage is done
// in place, without truncating the file: a process that has it mapped
// faults when the mapping shrinks.
package damage

import (
	"os"
	"testing"
)

// Rewrite applies fn to the contents of the file at path and writes them
// back in place.
func Rewrite(tb testing.TB, path string, fn func(b []byte)) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	fn(b)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, 0); err != nil {
		tb.Fatal(err)
	}
}

// FlipMiddle flips the bits of the middle third of b (xor 0x55): in a zap
// segment file, the dictionaries and postings.
func FlipMiddle(b []byte) {
	for i := len(b) / 3; i < 2*len(b)/3; i++ {
		b[i] ^= 0x55
	}
}
