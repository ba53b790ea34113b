//go:build !js && !wasip1

// httptest servers need a listening socket, which js/wasm lacks.

package remotetest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/twindex/twindex/remote/remotetest"
)

// The fake answers the three APIs in their shapes and refuses, with the
// reason, what a client must not send.
func TestServer(t *testing.T) {
	srv := remotetest.NewServer(&remotetest.Options{Model: "m"})
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		name, method, path, body string
		wantCode                 int
		wantBody                 string // substring
	}{
		{"ollama", "POST", "/api/embed", `{"model":"m","input":["ab","c"]}`, 200, `{"embeddings":[[2,1],[1,1]]}`},
		{"openai in reverse", "POST", "/v1/embeddings", `{"model":"m","input":["ab","c"]}`, 200,
			`{"data":[{"index":1,"embedding":[1,1]},{"index":0,"embedding":[2,1]}]}`},
		{"rerank best first", "POST", "/v1/rerank", `{"model":"m","query":"x","documents":["a","xx"],"top_n":2}`, 200,
			`{"results":[{"index":1,"relevance_score":2},{"index":0,"relevance_score":0}]}`},
		{"another model", "POST", "/api/embed", `{"model":"n","input":["a"]}`, 400, `model "n", want "m"`},
		{"not json", "POST", "/v1/embeddings", `{"model":`, 400, "decode request"},
		{"empty query", "POST", "/v1/rerank", `{"model":"m","query":"","documents":["a"],"top_n":1}`, 400, "empty query"},
		{"top_n short", "POST", "/v1/rerank", `{"model":"m","query":"a","documents":["a","b"],"top_n":1}`, 400, "top_n 1 for 2 documents"},
		{"unknown path", "POST", "/v2/rerank", `{}`, 404, ""},
		{"GET", "GET", "/api/embed", ``, 405, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantCode || !strings.Contains(string(body), tc.wantBody) {
				t.Errorf("HTTP %d %s, want %d and %s", resp.StatusCode, body, tc.wantCode, tc.wantBody)
			}
		})
	}
}

// SetDown fails every request with 500; Requests counts them all.
func TestServerDown(t *testing.T) {
	srv := remotetest.NewServer(nil)
	t.Cleanup(srv.Close)
	post := func() int {
		t.Helper()
		resp, err := http.Post(srv.URL+"/api/embed", "application/json", strings.NewReader(`{"model":"any","input":["a"]}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, tc := range []struct {
		down bool
		want int
	}{{false, 200}, {true, 500}, {false, 200}} {
		srv.SetDown(tc.down)
		if got := post(); got != tc.want {
			t.Errorf("request %d, down %v: HTTP %d, want %d", i, tc.down, got, tc.want)
		}
	}
	if srv.Requests() != 3 {
		t.Errorf("Requests() = %d, want 3", srv.Requests())
	}
}
