package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/remote"
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

func equal(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// The MCP search tool reranks its page on a server with a reranker, takes
// rerank 0 to turn it off, and refuses rerank on a server without one.
func TestMCPRerank(t *testing.T) {
	srv := reranker(t)
	rr, err := remote.NewReranker(srv.URL, &remote.RerankerOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(mt *mcpTest, args object) []string {
		t.Helper()
		var out searchOutput
		mt.ok("search", args, &out)
		var ids []string
		for _, h := range out.Hits {
			ids = append(ids, h.ID)
		}
		return ids
	}
	docs := []object{
		{"id": "a", "title": "lock", "body": "lock lock lock"},
		{"id": "b", "body": "lock zebra zebra and some more words"},
		{"id": "c", "body": "lock zebra"},
	}
	mt := newMCPTestWith(t, &index.Options{Reranker: rr})
	mt.upsert(docs...)
	equal(t, ids(mt, object{"query": "lock", "fallback": 0}), []string{"b", "c", "a"})
	equal(t, ids(mt, object{"query": "lock", "fallback": 0, "rerank": 2}), []string{"c", "a", "b"})
	equal(t, ids(mt, object{"query": "lock", "fallback": 0, "rerank": 0}), []string{"a", "c", "b"})

	plain := newMCPTest(t)
	plain.upsert(docs...)
	equal(t, ids(plain, object{"query": "lock", "fallback": 0}), []string{"a", "c", "b"})
	if res := plain.call("search", object{"query": "lock", "rerank": 5}); !res.IsError || !strings.Contains(resultText(res), "no reranker") {
		t.Errorf("rerank on a server without a reranker: %s", resultText(res))
	}
}
