package tokenize

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// Names under which the analyzers are registered with bleve's registry.
// Index mappings refer to the analyzers by these constants only.
const (
	TextAnalyzer    = "twindex-text"
	TrigramAnalyzer = "twindex-trigram"
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
