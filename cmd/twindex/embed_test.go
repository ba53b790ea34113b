package main

import (
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/remote"
	"github.com/twindex/twindex/remote/remotetest"
)

// remote's clients are what the engine consumes; embedFlags and
// rerankFlags plug them into index.Options.
var (
	_ index.Embedder = (*remote.Embedder)(nil)
	_ index.Reranker = (*remote.Reranker)(nil)
)

// ollama is a local server in the shape of Ollama's /api/embed: a text's
// vector counts three marker words.
func ollama(t *testing.T) *remotetest.Server {
	srv := remotetest.NewServer(&remotetest.Options{Model: "m", Embed: func(s string) []float32 {
		v := []float32{0.01, 0.01, 0.01}
		for i, w := range []string{"cat", "dog", "fish"} {
			v[i] += float32(strings.Count(s, w))
		}
		return v
	}})
	t.Cleanup(srv.Close)
	return srv
}

// Documents indexed through the CLI are embedded; vector and hybrid
// searches embed the query; a failing server degrades to keywords.
func TestEmbeddingThroughTheCLI(t *testing.T) {
	srv := ollama(t)
	dir := t.TempDir()
	ixDir := dir + "/ix"
	jsonl := `{"id": "cats", "body": "cat cat cat"}
{"id": "dogs", "body": "dog dog"}
{"id": "fish", "body": "fish and a cat"}
`
	emb := []string{"--embed-url", srv.URL, "--embed-model", "m"}
	twindexIn(t, dir, jsonl, append([]string{"index", "--index", ixDir, "--jsonl", "-"}, emb...)...).want(t, 0)
	got := searchIDs(t, dir, 0, append([]string{"--index", ixDir, "--mode", "vector", "--limit", "1", "kitty cat"}, emb...)...)
	equal(t, got, []string{"cats"})
	got = searchIDs(t, dir, 0, append([]string{"--index", ixDir, "--mode", "hybrid", "--fallback", "0", "fish"}, emb...)...)
	if len(got) != 3 {
		t.Fatalf("hybrid: %v", got)
	}
	// The server fails: keywords only, with a warning, never empty.
	srv.SetDown(true)
	r := twindex(t, dir, append([]string{"search", "--index", ixDir, "--mode", "vector", "dog"}, emb...)...).want(t, 0)
	if !strings.Contains(r.stderr, "warning: embedding the query failed") || !strings.Contains(r.stdout, "dogs") {
		t.Fatalf("degraded search:\n%s\n%s", r.stdout, r.stderr)
	}
	r = twindexIn(t, dir, `{"id": "late", "body": "cat"}`+"\n", append([]string{"index", "--index", ixDir, "--jsonl", "-"}, emb...)...).want(t, 0)
	if !strings.Contains(r.stderr, "warning: embedding failed") {
		t.Fatalf("no warning for documents stored without vectors:\n%s", r.stderr)
	}
	twindex(t, dir, "search", "--index", ixDir, "--mode", "semantic", "x").want(t, 2)
	twindex(t, dir, "search", "--index", ixDir, "--embed-model", "m", "x").want(t, 2)
}
