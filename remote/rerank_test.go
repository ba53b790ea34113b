//go:build !js && !wasip1

// httptest servers need a listening socket, which js/wasm lacks.

package remote_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twindex/twindex/remote"
	"github.com/twindex/twindex/remote/remotetest"
)

func TestReranker(t *testing.T) {
	docs := []string{"a", "bbb", "cc"}
	// byLength scores longer documents higher; the fake lists results
	// best first, as rerank servers do.
	byLength := remotetest.Handler(&remotetest.Options{Model: "m", Score: func(query, doc string) float64 {
		if query != "q" {
			t.Errorf("query %q, want q", query)
		}
		return float64(len(doc)) / 10
	}}).ServeHTTP
	raw := func(code int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			fmt.Fprint(w, body)
		}
	}
	for _, tc := range []struct {
		name      string
		handler   http.HandlerFunc
		retries   int
		wantCalls int32
		want      []float64
		wantErr   string
	}{
		{"scores in document order", byLength, 0, 1, []float64{0.1, 0.3, 0.2}, ""},
		{"server error not retried by default", raw(503, "loading"), 0, 1, nil, "HTTP 503: loading"},
		{"server error retried when asked", raw(503, "loading"), 2, 3, nil, "after 3 attempts"},
		{"client error", raw(422, `{"error":"too long"}`), 2, 1, nil, "HTTP 422"},
		{"malformed json", raw(200, `{"results":[`), 0, 1, nil, "decode response"},
		{"missing score", raw(200, `{"results":[{"index":0},{"index":1},{"index":2}]}`), 0, 1, nil, "without index or relevance_score"},
		{"wrong count", raw(200, `{"results":[{"index":0,"relevance_score":1}]}`), 0, 1, nil, "got 1 scores for 3 documents"},
		{"repeated index", raw(200, `{"results":[{"index":0,"relevance_score":1},{"index":0,"relevance_score":1},{"index":1,"relevance_score":1}]}`), 0, 1, nil, "index 0 repeated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				tc.handler(w, r)
			}))
			defer srv.Close()
			rr, err := remote.NewReranker(srv.URL, &remote.RerankerOptions{Model: "m", Retries: tc.retries, Backoff: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			got, err := rr.Rerank(context.Background(), "q", docs)
			if calls.Load() != tc.wantCalls {
				t.Errorf("%d requests, want %d", calls.Load(), tc.wantCalls)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				// A server's error or an answer it could not use, never both.
				var se *remote.StatusError
				if bad := errors.Is(err, remote.ErrBadResponse); bad == errors.As(err, &se) {
					t.Errorf("errors.Is(err, ErrBadResponse) = %v, errors.As(err, *StatusError) = %v for %v", bad, !bad, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("scores %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRerankerTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release) // before Close, which waits for the handler
	rr, err := remote.NewReranker(srv.URL, &remote.RerankerOptions{Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rr.Rerank(context.Background(), "q", []string{"d"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline", err)
	}
}

func TestRerankerNoDocs(t *testing.T) {
	rr, err := remote.NewReranker("http://127.0.0.1:1/rerank", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rr.Rerank(context.Background(), "q", nil); err != nil || got != nil {
		t.Errorf("Rerank(no docs) = %v, %v; want nothing and no request", got, err)
	}
	if _, err := remote.NewReranker("localhost:8080", nil); !errors.Is(err, remote.ErrInvalid) {
		t.Errorf("URL without scheme: err = %v, want ErrInvalid", err)
	}
}
