package rank

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// lowerBound agrees with slices.BinarySearch on sorted scores with ties,
// for scores in them, between them and outside them, at every length
// from 0.
func TestLowerBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for n := range 70 {
		asc := make([]float64, n)
		for i := range asc {
			asc[i] = float64(r.IntN(20)) / 2
		}
		slices.Sort(asc)
		for x := -1.0; x <= 11; x += 0.25 {
			want, _ := slices.BinarySearch(asc, x)
			if got := lowerBound(asc, x); got != want {
				t.Fatalf("lowerBound(%v, %v) = %d, want %d", asc, x, got, want)
			}
		}
	}
}
