//go:build !js && !wasip1

// httptest servers need a listening socket, which js/wasm lacks.

package remotetest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/twindex/twindex/remote/remotetest"
)

func ExampleNewServer() {
	srv := remotetest.NewServer(&remotetest.Options{
		Model: "m",
		Embed: func(text string) []float32 { return []float32{float32(strings.Count(text, "cat")), 1} },
	})
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/api/embed", "application/json", strings.NewReader(`{"model":"m","input":["cat","a cat and a cat"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(resp.StatusCode, " ", string(body))
	// Output: 200 {"embeddings":[[1,1],[2,1]]}
}
