//go:build !js

package tokenize_test

import (
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2/registry"

	"github.com/twindex/twindex/tokenize"
)

func TestRegistered(t *testing.T) {
	cache := registry.NewCache()
	tests := []struct {
		name string
		want any
	}{
		{tokenize.TextAnalyzer, &tokenize.Text{}},
		{tokenize.TrigramAnalyzer, &tokenize.Trigram{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := cache.AnalyzerNamed(tt.name)
			if err != nil {
				t.Fatalf("AnalyzerNamed(%q): %v", tt.name, err)
			}
			if reflect.TypeOf(a) != reflect.TypeOf(tt.want) {
				t.Errorf("AnalyzerNamed(%q) is %T, want %T", tt.name, a, tt.want)
			}
		})
	}
}
