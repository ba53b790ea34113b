package index

import "context"

// The engine calls two kinds of model server, through the interfaces
// below. It keeps them here, beside their one consumer, so that it links no
// HTTP client: package remote has the HTTP clients that satisfy them, and
// the browser build, which has no such servers, never links it.

// Embedder turns texts into vectors, one per text, in order, all of one
// dimension. Implementations must be safe for concurrent use.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Reranker scores how well each document answers a query, one score per
// document in the order given; higher is better. Scores are comparable
// within one call only. Implementations must be safe for concurrent use.
type Reranker interface {
	Rerank(ctx context.Context, query string, docs []string) ([]float64, error)
}
