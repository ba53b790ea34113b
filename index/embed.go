package index

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Embedder turns texts into vectors, one per text, in order, all of one
// dimension. Implementations must be safe for concurrent use.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Embedding APIs understood by HTTPEmbedder.
const (
	// EmbedOllama is Ollama's POST /api/embed:
	// {"model","input":[...]} -> {"embeddings":[[...],...]}.
	EmbedOllama = "ollama"
	// EmbedOpenAI is the OpenAI-compatible POST /v1/embeddings (OpenAI,
	// llama.cpp, vLLM, LM Studio, TEI):
	// {"model","input":[...]} -> {"data":[{"index","embedding"},...]}.
	EmbedOpenAI = "openai"
)

// EmbedderConfig configures an HTTPEmbedder. Zero fields mean defaults.
type EmbedderConfig struct {
	// API is EmbedOllama or EmbedOpenAI.
	API string
	// URL is the server, e.g. "http://localhost:11434". With no path the
	// API's path (/api/embed or /v1/embeddings) is appended; with a path
	// it is used as the endpoint as is.
	URL string
	// Model is sent as "model"; required.
	Model string
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

// HTTPEmbedder is an Embedder calling an embedding server over HTTP. It is
// safe for concurrent use; batches of one Embed call are sent one after
// another, so a slow local server is not flooded.
type HTTPEmbedder struct {
	api   string
	model string
	batch int
	post  poster
}

// NewHTTPEmbedder returns an embedder for cfg, or an error wrapping
// ErrInvalidRequest for an unknown API, a bad URL or no model.
func NewHTTPEmbedder(cfg EmbedderConfig) (*HTTPEmbedder, error) {
	var path string
	switch cfg.API {
	case EmbedOllama:
		path = "/api/embed"
	case EmbedOpenAI:
		path = "/v1/embeddings"
	default:
		return nil, fmt.Errorf("%w: embedding API %q, want %q or %q", ErrInvalidRequest, cfg.API, EmbedOllama, EmbedOpenAI)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("%w: embedding model not set", ErrInvalidRequest)
	}
	p, err := poster{
		url: cfg.URL, key: cfg.APIKey, keyHeader: cfg.APIKeyHeader,
		timeout: cfg.Timeout, retries: cfg.Retries, backoff: cfg.Backoff, client: cfg.Client,
	}.resolve(path)
	if err != nil {
		return nil, fmt.Errorf("embedder: %w", err)
	}
	batch := cfg.BatchSize
	if batch <= 0 {
		batch = 32
	}
	return &HTTPEmbedder{api: cfg.API, model: cfg.Model, batch: batch, post: p}, nil
}

// Embed returns one vector per text, sending ceil(len(texts)/BatchSize)
// requests. It fails, with no partial result, if any batch fails or the
// server answers with the wrong number of vectors or mixed dimensions.
func (e *HTTPEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
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
		if e.api == EmbedOllama {
			vecs, err = decodeOllamaEmbed(body, len(batch))
		} else {
			vecs, err = decodeOpenAIEmbed(body, len(batch))
		}
		if err == nil && len(out) > 0 && len(vecs[0]) != len(out[0]) {
			err = fmt.Errorf("dimension %d, earlier batches had %d", len(vecs[0]), len(out[0]))
		}
		if err != nil {
			return nil, fmt.Errorf("embed texts %d-%d: %s: %w", start, start+len(batch)-1, e.post.url, err)
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

// StatusError is returned, wrapped, when an embedding or rerank server
// answers with a status other than 200 (after retries, for a retried one).
type StatusError struct {
	URL  string
	Code int
	Body string // the start of the response body, for the server's reason
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %s", e.URL, e.Code, e.Body)
}

// maxResponse caps a server's answer: a batch of 32 4096-dim vectors is
// about 3MB of JSON, so anything near this is a misbehaving server.
const maxResponse = 64 << 20

// poster sends JSON POSTs with per-attempt timeouts and retries; it is
// shared by HTTPEmbedder and HTTPReranker and immutable once resolved.
type poster struct {
	url       string
	key       string
	keyHeader string
	timeout   time.Duration
	retries   int
	backoff   time.Duration
	client    *http.Client
}

// resolve validates p.url, appending defaultPath when it has no path, and
// fills in defaults.
func (p poster) resolve(defaultPath string) (poster, error) {
	u, err := url.Parse(p.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return poster{}, fmt.Errorf("%w: URL %q, want http(s)://host[:port][/path]", ErrInvalidRequest, p.url)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = defaultPath
	}
	p.url = u.String()
	if p.timeout <= 0 {
		p.timeout = 30 * time.Second
	}
	switch {
	case p.retries == 0:
		p.retries = 2
	case p.retries < 0:
		p.retries = 0
	}
	if p.backoff <= 0 {
		p.backoff = 250 * time.Millisecond
	}
	if p.client == nil {
		p.client = http.DefaultClient
	}
	return p, nil
}

// do POSTs payload as JSON and returns the 200 response body.
func (p poster) do(ctx context.Context, payload any) ([]byte, error) {
	req, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	wait := p.backoff
	for attempt := 0; ; attempt++ {
		body, retryAfter, retry, err := p.once(ctx, req)
		if err == nil {
			return body, nil
		}
		if !retry || attempt == p.retries || ctx.Err() != nil {
			if attempt > 0 {
				return nil, fmt.Errorf("after %d attempts: %w", attempt+1, err)
			}
			return nil, err
		}
		t := time.NewTimer(max(wait, retryAfter))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("waiting to retry (%w): %w", err, ctx.Err())
		case <-t.C:
		}
		wait *= 2
	}
}

// once makes one attempt. It reports whether a failure is worth retrying
// (network errors, 429 and 5xx) and, for a 429, the server's Retry-After.
func (p poster) once(ctx context.Context, payload []byte) (body []byte, retryAfter time.Duration, retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(payload))
	if err != nil {
		return nil, 0, false, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	switch {
	case p.key != "" && p.keyHeader != "":
		req.Header.Set(p.keyHeader, p.key)
	case p.key != "":
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, 0, true, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, 0, true, fmt.Errorf("%s: read response: %w", p.url, err)
	}
	if resp.StatusCode != http.StatusOK {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			retryAfter = min(time.Duration(s)*time.Second, time.Minute)
		}
		retry = resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		return nil, retryAfter, retry, &StatusError{URL: p.url, Code: resp.StatusCode, Body: string(bytes.TrimSpace(body[:min(len(body), 512)]))}
	}
	if len(body) > maxResponse {
		return nil, 0, false, fmt.Errorf("%s: response over %d bytes", p.url, maxResponse)
	}
	return body, 0, false, nil
}
