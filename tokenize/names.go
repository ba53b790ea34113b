package tokenize

// Names under which the analyzers are registered with bleve's registry.
// Index mappings refer to the analyzers by these constants only.
const (
	TextAnalyzer    = "twindex-text"
	TrigramAnalyzer = "twindex-trigram"
)
