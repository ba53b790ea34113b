package index

import (
	"testing"

	"github.com/twindex/twindex/index/internal/backend"
)

// The public Backend constants and the kinds backend.Open takes are one
// set of names spelled twice: go doc shows the engine's as strings.
func TestBackendNamesAgree(t *testing.T) {
	for b, kind := range map[Backend]string{Scorch: backend.Scorch, UpsideDown: backend.UpsideDown, Compact: backend.Compact} {
		if string(b) != kind {
			t.Errorf("index.Backend %q, backend kind %q", b, kind)
		}
	}
}
