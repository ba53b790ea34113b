package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/remote"
)

// remote's clients are what the engine consumes; embedFlags and
// rerankFlags plug them into index.Options.
var (
	_ index.Embedder = (*remote.Embedder)(nil)
	_ index.Reranker = (*remote.Reranker)(nil)
)

// ollama is a local server in the shape of Ollama's /api/embed: a text's
// vector counts three marker words. down makes it answer 500.
func ollama(t *testing.T, down *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		var in struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/api/embed" || json.NewDecoder(r.Body).Decode(&in) != nil || in.Model != "m" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		out := struct {
			Embeddings [][]float32 `json:"embeddings"`
		}{}
		for _, s := range in.Input {
			v := []float32{0.01, 0.01, 0.01}
			for i, w := range []string{"cat", "dog", "fish"} {
				v[i] += float32(strings.Count(s, w))
			}
			out.Embeddings = append(out.Embeddings, v)
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Documents indexed through the CLI are embedded; vector and hybrid
// searches embed the query; a failing server degrades to keywords.
func TestEmbeddingThroughTheCLI(t *testing.T) {
	var down atomic.Bool
	srv := ollama(t, &down)
	dir := t.TempDir()
	ixDir := dir + "/ix"
	jsonl := `{"id": "cats", "body": "cat cat cat"}
{"id": "dogs", "body": "dog dog"}
{"id": "fish", "body": "fish and a cat"}
`
	emb := []string{"--embed-url", srv.URL, "--embed-model", "m"}
	twindexIn(t, dir, jsonl, append([]string{"index", "--index", ixDir, "--jsonl", "-"}, emb...)...).want(t, 0)
	got := searchIDs(t, dir, 0, append([]string{"--index", ixDir, "--search-mode", "vector", "--limit", "1", "kitty cat"}, emb...)...)
	equal(t, got, []string{"cats"})
	got = searchIDs(t, dir, 0, append([]string{"--index", ixDir, "--search-mode", "hybrid", "--fallback", "0", "fish"}, emb...)...)
	if len(got) != 3 {
		t.Fatalf("hybrid: %v", got)
	}
	// The server fails: keywords only, with a warning, never empty.
	down.Store(true)
	r := twindex(t, dir, append([]string{"search", "--index", ixDir, "--search-mode", "vector", "dog"}, emb...)...).want(t, 0)
	if !strings.Contains(r.stderr, "warning: embedding the query failed") || !strings.Contains(r.stdout, "dogs") {
		t.Fatalf("degraded search:\n%s\n%s", r.stdout, r.stderr)
	}
	r = twindexIn(t, dir, `{"id": "late", "body": "cat"}`+"\n", append([]string{"index", "--index", ixDir, "--jsonl", "-"}, emb...)...).want(t, 0)
	if !strings.Contains(r.stderr, "warning: embedding failed") {
		t.Fatalf("no warning for documents stored without vectors:\n%s", r.stderr)
	}
	twindex(t, dir, "search", "--index", ixDir, "--search-mode", "semantic", "x").want(t, 2)
	twindex(t, dir, "search", "--index", ixDir, "--embed-model", "m", "x").want(t, 2)
}
