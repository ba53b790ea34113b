// Package damage breaks files the way failing disks and careless tools
// do, for tests of what twindex does with a damaged index. Damage is done
// in place, without truncating the file (a process that has it mapped
// faults when the mapping shrinks), and random damage is reproducible
// from a seed.
package damage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
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

// Random overwrites 1 to runs runs of 1 to 8 bytes of b, at offsets
// drawn from rng, with random bytes, and says where ("offset+length"
// each).
func Random(rng *rand.Rand, b []byte, runs int) string {
	var where []string
	for range 1 + rng.IntN(runs) {
		if len(b) == 0 {
			break
		}
		off := rng.IntN(len(b))
		end := min(len(b), off+1+rng.IntN(8))
		for i := off; i < end; i++ {
			b[i] = byte(rng.Uint32())
		}
		where = append(where, fmt.Sprintf("%d+%d", off, end-off))
	}
	return strings.Join(where, " ")
}

// Noise returns about n bytes of random words of the given letters, which
// neither a store's compression nor an index shrinks much: filler that
// takes the space it says.
func Noise(rng *rand.Rand, n int, letters string) string {
	var b strings.Builder
	for b.Len() < n {
		for range 3 + rng.IntN(6) {
			b.WriteByte(letters[rng.IntN(len(letters))])
		}
		b.WriteByte(' ')
	}
	return b.String()
}
