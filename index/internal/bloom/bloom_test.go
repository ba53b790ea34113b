package bloom_test

import (
	"math/rand/v2"
	"testing"

	"github.com/twindex/twindex/index/internal/bloom"
)

// TestNoFalseNegatives holds that a filter holds every hash it was made
// of, at every size, and that about as many others pass as its bits
// allow.
func TestNoFalseNegatives(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name      string
		n, bits   int
		falsePass float64 // at most, of hashes not in the filter
	}{
		{"none", 0, 3, 0},
		{"one", 1, 3, 0.15},
		{"few", 7, 3, 0.6},
		{"many, 3 bits", 20000, 3, 0.27},
		{"many, 8 bits", 20000, 8, 0.06},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hashes := make([]uint64, tc.n)
			for i := range hashes {
				hashes[i] = r.Uint64()
			}
			f := bloom.New(hashes, tc.bits)
			for _, h := range hashes {
				if !bloom.MayHold(f, h) {
					t.Fatalf("the filter of %d hashes lacks %x", tc.n, h)
				}
			}
			pass := 0
			const others = 20000
			for range others {
				if bloom.MayHold(f, r.Uint64()) {
					pass++
				}
			}
			if got := float64(pass) / others; got > tc.falsePass {
				t.Errorf("%d hashes at %d bits: %.3f of others pass, want at most %.2f", tc.n, tc.bits, got, tc.falsePass)
			}
		})
	}
}

// TestNoFilter holds that no bytes hold every hash.
func TestNoFilter(t *testing.T) {
	if !bloom.MayHold(nil, 42) {
		t.Fatal("a filter of no bytes rejected a hash")
	}
}

// FuzzMayHold holds that any bytes are a filter that never panics, and
// that one made of hashes holds them.
func FuzzMayHold(f *testing.F) {
	f.Add([]byte{0}, uint64(1), uint64(2))
	f.Add([]byte{0xff, 0x10, 0x03}, uint64(1<<63), uint64(7))
	f.Fuzz(func(t *testing.T, filter []byte, a, b uint64) {
		bloom.MayHold(filter, a)
		if g := bloom.New([]uint64{a, b}, len(filter)%9+1); !bloom.MayHold(g, a) || !bloom.MayHold(g, b) {
			t.Fatalf("the filter of %x and %x lacks one", a, b)
		}
	})
}
