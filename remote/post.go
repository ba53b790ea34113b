package remote

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
// shared by Embedder and Reranker and immutable once resolved.
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
		return poster{}, fmt.Errorf("%w: URL %q, want http(s)://host[:port][/path]", ErrInvalid, p.url)
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
		return nil, 0, false, fmt.Errorf("%s: %w: response over %d bytes", p.url, ErrBadResponse, maxResponse)
	}
	return body, 0, false, nil
}
