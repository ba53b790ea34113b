package tokenize_test

import (
	"math/rand"
	"testing"
	"time"

	"github.com/kljensen/snowball/english"
)

func TestProbeStem(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for it := 0; it < 200000; it++ {
		n := 4 + rng.Intn(12)
		b := make([]byte, n)
		for i := range b {
			b[i] = "aeiouybcdlmnst"[rng.Intn(14)]
		}
		done := make(chan bool)
		go func() { english.Stem(string(b), false); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("stem hangs on %q", b)
		}
	}
}
