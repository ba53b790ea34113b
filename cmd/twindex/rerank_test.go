package main

import (
	"strings"
	"testing"

	"github.com/twindex/twindex/remote/remotetest"
)

// reranker is a local server in the shape of /v1/rerank (Cohere, Jina,
// vLLM, llama.cpp): a document's score is how often it says "zebra".
func reranker(t *testing.T) *remotetest.Server {
	srv := remotetest.NewServer(&remotetest.Options{Model: "m", Score: func(_, doc string) float64 {
		return float64(strings.Count(doc, "zebra"))
	}})
	t.Cleanup(srv.Close)
	return srv
}

// The keyword order of "lock" over these is a (title), c, b; by the
// reranker's scores it is b, c, a.
const rerankDocs = `{"id": "a", "title": "lock", "body": "lock lock lock"}
{"id": "b", "body": "lock zebra zebra and some more words"}
{"id": "c", "body": "lock zebra"}
`

// --rerank-url reorders the first page; --rerank N its first N hits, 0
// none; a failing server keeps the fused order with a warning.
func TestRerankThroughTheCLI(t *testing.T) {
	srv := reranker(t)
	dir := t.TempDir()
	ixDir := dir + "/ix"
	twindexIn(t, dir, rerankDocs, "index", "--index", ixDir, "--jsonl", "-").want(t, 0)
	rr := []string{"--index", ixDir, "--rerank-url", srv.URL, "--rerank-model", "m", "--fallback", "0"}

	equal(t, orderedIDs(t, dir, 0, "--index", ixDir, "lock"), []string{"a", "c", "b"})
	equal(t, orderedIDs(t, dir, 0, append(rr, "lock")...), []string{"b", "c", "a"})
	equal(t, orderedIDs(t, dir, 0, append(rr, "--rerank", "2", "lock")...), []string{"c", "a", "b"})
	n := srv.Requests()
	equal(t, orderedIDs(t, dir, 0, append(rr, "--rerank", "0", "lock")...), []string{"a", "c", "b"})
	if srv.Requests() != n {
		t.Error("--rerank 0 called the reranker")
	}
	if r := twindex(t, dir, append([]string{"search"}, append(rr, "--explain", "lock")...)...).want(t, 0); !strings.Contains(r.stdout, "reranked (2.0000)") {
		t.Errorf("--explain does not show the reranker's score:\n%s", r.stdout)
	}

	srv.SetDown(true)
	r := twindex(t, dir, append([]string{"search"}, append(rr, "lock")...)...).want(t, 0)
	if !strings.Contains(r.stderr, "reranking failed") {
		t.Errorf("no warning from a failing reranker:\n%s", r.stderr)
	}
	equal(t, orderedIDs(t, dir, 0, append(rr, "lock")...), []string{"a", "c", "b"})

	twindex(t, dir, "search", "--index", ixDir, "--rerank", "3", "lock").want(t, 2)
	twindex(t, dir, "search", "--index", ixDir, "--rerank-model", "m", "lock").want(t, 2)
	twindex(t, dir, append([]string{"search"}, append(rr, "--rerank", "101", "lock")...)...).want(t, 2)
}
