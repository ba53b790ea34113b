// Package remote has the HTTP clients of the model servers twindex calls:
// an Embedder for embedding servers (Ollama's /api/embed and the
// OpenAI-compatible /v1/embeddings) and a Reranker for cross-encoder rerank
// servers (the /v1/rerank shape of Cohere, Jina, vLLM and llama.cpp). They
// satisfy the interfaces of the same names in package index, which keeps
// them beside the engine that consumes them; this package imports nothing
// of twindex, and the browser build never links it.
//
// Invariants:
//   - A call returns a whole answer or an error, never part of one: Embed
//     gives one nonempty vector per text, in the texts' order, all of one
//     dimension; Rerank one score per document, in the documents' order.
//     Whatever the server sends (out of order, repeated, missing, too
//     many) is checked before it is returned.
//   - A request is repeated only after a network error, a timeout, a 429
//     or a 5xx, never after another 4xx or a body it could not use, and
//     at most Retries times. Timeout bounds each attempt; the caller's
//     context bounds the whole call, waits between attempts included.
//   - A server's answer is read up to 64 MiB; a longer one is an error.
//
// Errors: a constructor's are ErrInvalid, wrapped with the reason; a
// server's answer other than 200 is a *StatusError; an answer that cannot
// be used wraps ErrBadResponse; network errors and the context's are
// wrapped as they come (errors.Is(err, context.DeadlineExceeded) holds for
// a timeout).
//
// Concurrency: an Embedder or a Reranker is immutable once made and may be
// used from many goroutines. The batches of one Embed call are sent one
// after another, so a slow local server is not flooded.
package remote
