//go:build !js && !wasip1

// httptest servers need a listening socket, which js/wasm lacks.

package remote_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twindex/twindex/remote"
	"github.com/twindex/twindex/remote/remotetest"
)

// fakeVec is the vector the fake server returns for a text.
func fakeVec(text string) []float32 { return []float32{float32(len(text)), 1} }

func TestEmbedder(t *testing.T) {
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"}
	fake := remotetest.Handler(&remotetest.Options{Model: "m", Embed: fakeVec})
	ok := func(*atomic.Int32) http.HandlerFunc { return fake.ServeHTTP }
	fail := func(code int, times int32, then http.HandlerFunc) func(*atomic.Int32) http.HandlerFunc {
		return func(calls *atomic.Int32) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				if calls.Load() <= times {
					http.Error(w, "busy", code)
					return
				}
				then(w, r)
			}
		}
	}
	raw := func(body string) func(*atomic.Int32) http.HandlerFunc {
		return func(*atomic.Int32) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }
		}
	}
	for _, tc := range []struct {
		name      string
		opts      remote.EmbedderOptions
		handler   func(calls *atomic.Int32) http.HandlerFunc
		wantCalls int32
		wantErr   string // substring; "" means success
		wantCode  int    // StatusError code, when wantErr is set
	}{
		{
			name:      "ollama",
			opts:      remote.EmbedderOptions{API: remote.Ollama},
			handler:   ok,
			wantCalls: 1,
		},
		{
			name:      "ollama by default",
			handler:   ok,
			wantCalls: 1,
		},
		{
			name:      "openai",
			opts:      remote.EmbedderOptions{API: remote.OpenAI},
			handler:   ok,
			wantCalls: 1,
		},
		{
			name:      "batches of 3",
			opts:      remote.EmbedderOptions{API: remote.OpenAI, BatchSize: 3},
			handler:   ok,
			wantCalls: 3, // ceil(7/3)
		},
		{
			name:      "retries then success",
			opts:      remote.EmbedderOptions{API: remote.Ollama, Retries: 3},
			handler:   fail(http.StatusServiceUnavailable, 2, fake.ServeHTTP),
			wantCalls: 3,
		},
		{
			name:      "429 is retried",
			opts:      remote.EmbedderOptions{API: remote.Ollama},
			handler:   fail(http.StatusTooManyRequests, 1, fake.ServeHTTP),
			wantCalls: 2,
		},
		{
			name:      "retries exhausted",
			opts:      remote.EmbedderOptions{API: remote.Ollama, Retries: 2},
			handler:   fail(http.StatusInternalServerError, 99, nil),
			wantCalls: 3,
			wantErr:   "after 3 attempts",
			wantCode:  http.StatusInternalServerError,
		},
		{
			name:      "4xx not retried",
			opts:      remote.EmbedderOptions{API: remote.Ollama, Retries: 5},
			handler:   fail(http.StatusNotFound, 99, nil),
			wantCalls: 1,
			wantErr:   "HTTP 404: busy",
			wantCode:  http.StatusNotFound,
		},
		{
			name:      "malformed json",
			opts:      remote.EmbedderOptions{API: remote.Ollama},
			handler:   raw(`{"embeddings":[[1,2],`),
			wantCalls: 1,
			wantErr:   "decode response",
		},
		{
			name:      "wrong count",
			opts:      remote.EmbedderOptions{API: remote.Ollama},
			handler:   raw(`{"embeddings":[[1,2]]}`),
			wantCalls: 1,
			wantErr:   "got 1 embeddings for 7 texts",
		},
		{
			name:      "mixed dimensions",
			opts:      remote.EmbedderOptions{API: remote.Ollama, BatchSize: 2},
			handler:   raw(`{"embeddings":[[1,2],[1,2,3]]}`),
			wantCalls: 1,
			wantErr:   "embedding 1 has dimension 3, embedding 0 has 2",
		},
		{
			name: "dimension changes between batches",
			opts: remote.EmbedderOptions{API: remote.Ollama, BatchSize: 4},
			handler: func(calls *atomic.Int32) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					if calls.Load() == 1 {
						fmt.Fprint(w, `{"embeddings":[[1],[1],[1],[1]]}`)
						return
					}
					fmt.Fprint(w, `{"embeddings":[[1,2],[1,2],[1,2]]}`)
				}
			},
			wantCalls: 2,
			wantErr:   "dimension 2, earlier batches had 1",
		},
		{
			name:      "openai index out of range",
			opts:      remote.EmbedderOptions{API: remote.OpenAI, BatchSize: 1},
			handler:   raw(`{"data":[{"index":1,"embedding":[1]}]}`),
			wantCalls: 1,
			wantErr:   "index 1 out of range",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			h := tc.handler(&calls)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				h(w, r)
			}))
			defer srv.Close()
			opts := tc.opts
			opts.Backoff = time.Millisecond
			e, err := remote.NewEmbedder(srv.URL, "m", &opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Embed(context.Background(), texts)
			if calls.Load() != tc.wantCalls {
				t.Errorf("%d requests, want %d", calls.Load(), tc.wantCalls)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				code := 0
				var se *remote.StatusError
				if errors.As(err, &se) {
					code = se.Code
				}
				if code != tc.wantCode {
					t.Errorf("StatusError code %d, want %d", code, tc.wantCode)
				}
				if bad := errors.Is(err, remote.ErrBadResponse); bad != (tc.wantCode == 0) {
					t.Errorf("errors.Is(err, ErrBadResponse) = %v for %v", bad, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(texts) {
				t.Fatalf("%d vectors for %d texts", len(got), len(texts))
			}
			for i, v := range got {
				if v[0] != fakeVec(texts[i])[0] {
					t.Errorf("vector %d = %v, want %v", i, v, fakeVec(texts[i]))
				}
			}
		})
	}
}

func TestEmbedderHeadersAndURL(t *testing.T) {
	for _, tc := range []struct {
		name   string
		path   string // appended to the server URL in the config
		key    string
		header string
		want   func(r *http.Request) bool
	}{
		{"bearer", "", "sk", "", func(r *http.Request) bool {
			return r.Header.Get("Authorization") == "Bearer sk" && r.URL.Path == "/v1/embeddings"
		}},
		{"custom header", "", "sk", "X-Api-Key", func(r *http.Request) bool {
			return r.Header.Get("X-Api-Key") == "sk" && r.Header.Get("Authorization") == ""
		}},
		{"no key", "", "", "", func(r *http.Request) bool { return r.Header.Get("Authorization") == "" }},
		{"explicit path", "/openai/v1/embeddings", "", "", func(r *http.Request) bool {
			return r.URL.Path == "/openai/v1/embeddings"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !tc.want(r) {
					t.Errorf("unexpected request %s %v", r.URL.Path, r.Header)
				}
				fmt.Fprint(w, `{"data":[{"index":0,"embedding":[1]}]}`)
			}))
			defer srv.Close()
			e, err := remote.NewEmbedder(srv.URL+tc.path, "m", &remote.EmbedderOptions{
				API: remote.OpenAI, APIKey: tc.key, APIKeyHeader: tc.header,
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestEmbedderTimeout(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release) // before Close, which waits for the handler
	e, err := remote.NewEmbedder(srv.URL, "m", &remote.EmbedderOptions{
		Timeout: 20 * time.Millisecond, Retries: 1, Backoff: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline", err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d requests, want 2 (a timeout is retried)", calls.Load())
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}

	// A canceled caller stops retrying at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: err = %v", err)
	}
}

func TestNewEmbedderInvalid(t *testing.T) {
	for _, tc := range []struct {
		name       string
		url, model string
		api        remote.API
	}{
		{"unknown api", "http://x", "m", "cohere"},
		{"no model", "http://x", "", remote.Ollama},
		{"no url", "", "m", remote.Ollama},
		{"bad scheme", "ftp://x", "m", remote.Ollama},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := remote.NewEmbedder(tc.url, tc.model, &remote.EmbedderOptions{API: tc.api}); !errors.Is(err, remote.ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestEmbedderEmpty(t *testing.T) {
	e, err := remote.NewEmbedder("http://127.0.0.1:1", "m", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Embed(context.Background(), nil); err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want no vectors and no request", got, err)
	}
}
