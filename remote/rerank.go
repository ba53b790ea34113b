package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// RerankerOptions tune a Reranker. A nil *RerankerOptions, and each zero
// field, mean the defaults.
type RerankerOptions struct {
	// Model is sent as "model"; servers of one model ignore it, and ""
	// leaves it out.
	Model string
	// APIKey, if set, is sent as "Authorization: Bearer <APIKey>", or as
	// the bare value of APIKeyHeader when that is set.
	APIKey       string
	APIKeyHeader string
	// Timeout bounds each request. 0 means 10s: a reranker sits on the
	// search path, where the engine falls back to the fused order.
	Timeout time.Duration
	// Retries is how many times a request is repeated after a 5xx, a 429
	// or a network error. 0 means none, for the same reason; negative
	// also means none.
	Retries int
	// Backoff is the wait before the first retry, doubled after. 0 means
	// 100ms.
	Backoff time.Duration
	// Client sends the requests. nil means http.DefaultClient.
	Client *http.Client
}

// Reranker calls a cross-encoder rerank endpoint in the shape shared by
// Cohere, Jina, vLLM and llama.cpp's server:
// POST {"model","query","documents":[...]} ->
// {"results":[{"index","relevance_score"},...]}. It is safe for concurrent
// use.
type Reranker struct {
	model string
	post  poster
}

// NewReranker returns a reranker on the server at url, e.g.
// "http://localhost:8080". With no path, /v1/rerank is appended to url;
// with a path url is the endpoint as is (Cohere serves /v2/rerank, vLLM
// also /rerank). It returns an error wrapping ErrInvalid for a bad URL; it
// sends no request.
func NewReranker(url string, opts *RerankerOptions) (*Reranker, error) {
	var o RerankerOptions
	if opts != nil {
		o = *opts
	}
	p := poster{
		url: url, key: o.APIKey, keyHeader: o.APIKeyHeader,
		timeout: o.Timeout, retries: o.Retries, backoff: o.Backoff, client: o.Client,
	}
	if p.timeout <= 0 {
		p.timeout = 10 * time.Second
	}
	if p.retries == 0 {
		p.retries = -1
	}
	if p.backoff <= 0 {
		p.backoff = 100 * time.Millisecond
	}
	p, err := p.resolve("/v1/rerank")
	if err != nil {
		return nil, fmt.Errorf("reranker: %w", err)
	}
	return &Reranker{model: o.Model, post: p}, nil
}

// Rerank returns docs' relevance scores in docs' order. It fails, with no
// partial result, when the server fails or does not score every document
// exactly once.
//
// Cost: one request of up to 1+Retries attempts; none for no documents.
func (r *Reranker) Rerank(ctx context.Context, query string, docs []string) ([]float64, error) {
	if len(docs) == 0 {
		return nil, nil
	}
	body, err := r.post.do(ctx, struct {
		Model     string   `json:"model,omitempty"`
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
		TopN      int      `json:"top_n"`
	}{r.model, query, docs, len(docs)})
	if err != nil {
		return nil, fmt.Errorf("rerank %d documents: %w", len(docs), err)
	}
	scores, err := decodeRerank(body, len(docs))
	if err != nil {
		return nil, fmt.Errorf("rerank %d documents: %s: %w: %w", len(docs), r.post.url, ErrBadResponse, err)
	}
	return scores, nil
}

// decodeRerank decodes {"results":[{"index":i,"relevance_score":s},...]}
// scoring each of n documents once. Results come sorted by score, so they
// are placed by index.
func decodeRerank(body []byte, n int) ([]float64, error) {
	var resp struct {
		Results []struct {
			Index *int     `json:"index"`
			Score *float64 `json:"relevance_score"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	if len(resp.Results) != n {
		return nil, fmt.Errorf("got %d scores for %d documents", len(resp.Results), n)
	}
	scores := make([]float64, n)
	seen := make([]bool, n)
	for _, res := range resp.Results {
		switch {
		case res.Index == nil || res.Score == nil:
			return nil, fmt.Errorf("result without index or relevance_score")
		case *res.Index < 0 || *res.Index >= n:
			return nil, fmt.Errorf("result index %d out of range 0..%d", *res.Index, n-1)
		case seen[*res.Index]:
			return nil, fmt.Errorf("result index %d repeated", *res.Index)
		}
		seen[*res.Index] = true
		scores[*res.Index] = *res.Score
	}
	return scores, nil
}
