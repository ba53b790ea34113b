package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// API is the request and response shape of an embedding server.
type API string

const (
	// Ollama is Ollama's POST /api/embed:
	// {"model","input":[...]} -> {"embeddings":[[...],...]}.
	Ollama API = "ollama"
	// OpenAI is the OpenAI-compatible POST /v1/embeddings (OpenAI,
	// llama.cpp, vLLM, LM Studio, TEI):
	// {"model","input":[...]} -> {"data":[{"index","embedding"},...]}.
	OpenAI API = "openai"
)

// EmbedderOptions tune an Embedder. A nil *EmbedderOptions, and each zero
// field, mean the defaults.
type EmbedderOptions struct {
	// API is Ollama or OpenAI; "" means Ollama. It also gives the path
	// appended to a URL that has none: /api/embed or /v1/embeddings.
	API API
	// APIKey, if set, is sent as "Authorization: Bearer <APIKey>", or as
	// the bare value of APIKeyHeader when that is set.
	APIKey       string
	APIKeyHeader string
	// BatchSize is the most texts per request. 0 means 32.
	BatchSize int
	// Timeout bounds each attempt; the caller's ctx bounds the whole call,
	// retries included. 0 means 30s.
	Timeout time.Duration
	// Retries is how many times a request is repeated after a 5xx, a 429
	// or a network error (a 4xx is never repeated). 0 means 2; negative
	// means none.
	Retries int
	// Backoff is the wait before the first retry, doubled before each
	// next one; a 429's Retry-After seconds wins when longer. 0 means
	// 250ms.
	Backoff time.Duration
	// Client sends the requests. nil means http.DefaultClient.
	Client *http.Client
}

// Embedder calls an embedding server over HTTP. It is safe for concurrent
// use.
type Embedder struct {
	api   API
	model string
	batch int
	post  poster
}

// NewEmbedder returns an embedder of model on the server at url, e.g.
// "http://localhost:11434" and "nomic-embed-text". With no path the API's
// path is appended to url; with a path url is the endpoint as is. It
// returns an error wrapping ErrInvalid for a bad URL, an unknown API or no
// model; it sends no request.
func NewEmbedder(url, model string, opts *EmbedderOptions) (*Embedder, error) {
	var o EmbedderOptions
	if opts != nil {
		o = *opts
	}
	if o.API == "" {
		o.API = Ollama
	}
	var path string
	switch o.API {
	case Ollama:
		path = "/api/embed"
	case OpenAI:
		path = "/v1/embeddings"
	default:
		return nil, fmt.Errorf("%w: embedding API %q, want %q or %q", ErrInvalid, o.API, Ollama, OpenAI)
	}
	if model == "" {
		return nil, fmt.Errorf("%w: embedding model not set", ErrInvalid)
	}
	p, err := poster{
		url: url, key: o.APIKey, keyHeader: o.APIKeyHeader,
		timeout: o.Timeout, retries: o.Retries, backoff: o.Backoff, client: o.Client,
	}.resolve(path)
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	batch := o.BatchSize
	if batch <= 0 {
		batch = 32
	}
	return &Embedder{api: o.API, model: model, batch: batch, post: p}, nil
}

// Embed returns one vector per text. It fails, with no partial result, if
// any batch fails or the server answers with the wrong number of vectors
// or mixed dimensions.
//
// Cost: ceil(len(texts)/BatchSize) requests, one after another, each of up
// to 1+Retries attempts; none for no texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		batch := texts[start:min(start+e.batch, len(texts))]
		body, err := e.post.do(ctx, struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}{e.model, batch})
		if err != nil {
			return nil, fmt.Errorf("embed texts %d-%d: %w", start, start+len(batch)-1, err)
		}
		var vecs [][]float32
		if e.api == Ollama {
			vecs, err = decodeOllamaEmbed(body, len(batch))
		} else {
			vecs, err = decodeOpenAIEmbed(body, len(batch))
		}
		if err == nil && len(out) > 0 && len(vecs[0]) != len(out[0]) {
			err = fmt.Errorf("dimension %d, earlier batches had %d", len(vecs[0]), len(out[0]))
		}
		if err != nil {
			return nil, fmt.Errorf("embed texts %d-%d: %s: %w: %w", start, start+len(batch)-1, e.post.url, ErrBadResponse, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// decodeOllamaEmbed decodes {"embeddings":[[...],...]} holding n vectors.
func decodeOllamaEmbed(body []byte, n int) ([][]float32, error) {
	var resp struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	if err := checkEmbeddings(resp.Embeddings, n); err != nil {
		return nil, err
	}
	return resp.Embeddings, nil
}

// decodeOpenAIEmbed decodes {"data":[{"index":i,"embedding":[...]},...]}
// holding n vectors, placed by index since the order is not promised.
func decodeOpenAIEmbed(body []byte, n int) ([][]float32, error) {
	var resp struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	if len(resp.Data) != n {
		return nil, fmt.Errorf("got %d embeddings for %d texts", len(resp.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= n {
			return nil, fmt.Errorf("embedding index %d out of range 0..%d", d.Index, n-1)
		}
		if out[d.Index] != nil {
			return nil, fmt.Errorf("embedding index %d repeated", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	if err := checkEmbeddings(out, n); err != nil {
		return nil, err
	}
	return out, nil
}

// checkEmbeddings verifies n nonempty vectors of one dimension.
func checkEmbeddings(vecs [][]float32, n int) error {
	if len(vecs) != n {
		return fmt.Errorf("got %d embeddings for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		if len(v) == 0 {
			return fmt.Errorf("embedding %d is empty", i)
		}
		if len(v) != len(vecs[0]) {
			return fmt.Errorf("embedding %d has dimension %d, embedding 0 has %d", i, len(v), len(vecs[0]))
		}
	}
	return nil
}
