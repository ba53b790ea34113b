//go:build !js

// The browser build registers nothing: nothing there looks an analyzer up
// by name, and bleve's registry links its search packages, and through
// them its geo code and json-iterator.

package tokenize

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// init registers both analyzers. Registration fails only if another
// package registered the same name, a build mistake that must not go
// unnoticed, hence the panic.
func init() {
	must(registry.RegisterAnalyzer(TextAnalyzer,
		func(map[string]interface{}, *registry.Cache) (analysis.Analyzer, error) {
			return NewText(), nil
		}))
	must(registry.RegisterAnalyzer(TrigramAnalyzer,
		func(map[string]interface{}, *registry.Cache) (analysis.Analyzer, error) {
			return NewTrigram(), nil
		}))
}

func must(err error) {
	if err != nil {
		panic("tokenize: " + err.Error())
	}
}
