// Package vectortest generates vectors for the tests and benchmarks of the
// vector package and of the engine's vector leg, so both measure the same
// data.
package vectortest

import (
	"math"
	"math/rand"
)

// Shape is the distribution Generate draws from. The zero value is
// isotropic Gaussian noise.
type Shape struct {
	// Clusters, when positive, centers the vectors on that many random
	// points, with Gaussian noise around each.
	Clusters int
	// Latent, when positive, draws the vectors in a space of that many
	// dimensions and projects them into the full dimension, plus a little
	// full-rank noise: text embeddings have a low intrinsic dimension, and
	// isotropic noise in 384 dimensions makes every neighbor nearly
	// equidistant, which no approximate index can rank.
	Latent int
}

// Generate returns n random dim-vectors drawn from r in the given shape,
// so callers split data and queries from one call. The same r state gives
// the same vectors.
func Generate(r *rand.Rand, n, dim int, s Shape) [][]float32 {
	space := dim
	if s.Latent > 0 {
		space = s.Latent
	}
	gauss := func(d int) []float32 {
		v := make([]float32, d)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		return v
	}
	centers := make([][]float32, s.Clusters)
	for i := range centers {
		centers[i] = gauss(space)
	}
	var proj [][]float32 // dim rows of latent
	if s.Latent > 0 {
		for range dim {
			proj = append(proj, gauss(s.Latent))
		}
	}
	out := make([][]float32, n)
	for i := range out {
		v := gauss(space)
		if s.Clusters > 0 {
			c := centers[r.Intn(s.Clusters)]
			for j := range v {
				v[j] = c[j] + 0.5*v[j]
			}
		}
		if s.Latent > 0 {
			x := gauss(dim)
			for j, row := range proj {
				var d float32
				for l, p := range row {
					d += p * v[l]
				}
				x[j] = d/float32(math.Sqrt(float64(s.Latent))) + 0.1*x[j]
			}
			v = x
		}
		out[i] = v
	}
	return out
}
