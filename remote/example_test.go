//go:build !js && !wasip1

// httptest servers need a listening socket, which js/wasm lacks.

package remote_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/twindex/twindex/remote"
	"github.com/twindex/twindex/remote/remotetest"
)

func ExampleNewEmbedder() {
	// A fake server whose vector of a text is {len(text), 1}.
	srv := remotetest.NewServer(nil)
	defer srv.Close()

	// nil options: Ollama's /api/embed, batches of 32, 2 retries.
	emb, err := remote.NewEmbedder(srv.URL, "nomic-embed-text", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	vecs, err := emb.Embed(context.Background(), []string{"a cat", "dogs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(vecs)

	// The same through the OpenAI-compatible /v1/embeddings.
	emb, err = remote.NewEmbedder(srv.URL, "text-embedding-3-small", &remote.EmbedderOptions{API: remote.OpenAI, BatchSize: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	vecs, err = emb.Embed(context.Background(), []string{"a cat", "dogs"})
	fmt.Println(vecs, err, srv.Requests())
	// Output:
	// [[5 1] [4 1]]
	// [[5 1] [4 1]] <nil> 3
}

func ExampleNewReranker() {
	// A fake server whose score of a document is how often it holds the
	// query.
	srv := remotetest.NewServer(nil)
	defer srv.Close()

	rr, err := remote.NewReranker(srv.URL, &remote.RerankerOptions{Model: "bge-reranker-v2-m3"})
	if err != nil {
		fmt.Println(err)
		return
	}
	scores, err := rr.Rerank(context.Background(), "lock", []string{"a lock", "a key", "lock and lock"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(scores)
	// Output: [1 0 2]
}

func ExampleStatusError() {
	srv := remotetest.NewServer(nil)
	defer srv.Close()
	srv.SetDown(true) // every request is answered 500 "down"

	emb, err := remote.NewEmbedder(srv.URL, "nomic-embed-text", &remote.EmbedderOptions{Retries: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = emb.Embed(context.Background(), []string{"a cat"})
	var se *remote.StatusError
	if errors.As(err, &se) {
		fmt.Println(se.Code, se.Body)
	}
	// Output: 500 down
}
