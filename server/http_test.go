package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/index"
)

// httpOwner starts an Owner of a new index mirroring a new folder, with
// the HTTP API on 127.0.0.1, and returns the folder and the API's URL.
func httpOwner(t *testing.T, o *OwnOptions, files ...string) (string, string) {
	t.Helper()
	root := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		writeFile(t, filepath.Join(root, files[i]), files[i+1])
	}
	ix, err := index.Open(filepath.Join(root, ".twindex"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, &HostOptions{Root: root})
	if o == nil {
		o = &OwnOptions{}
	}
	o.HTTP = "127.0.0.1:0"
	ow, err := Own(h, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ow.Close(context.Background()); err != nil {
			t.Error(err)
		}
		h.Close()
	})
	<-ow.Ready()
	return root, ow.HTTPAddr()
}

// do sends a request and returns the status and the decoded body.
func do(t *testing.T, method, url, token, body string, hdr ...string) (int, map[string]any, http.Header) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(b) > 0 && json.Unmarshal(b, &m) != nil {
		t.Fatalf("%s %s: not a JSON object: %s", method, url, b)
	}
	return resp.StatusCode, m, resp.Header
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// The HTTP API: the tools' arguments and results, statuses that say what
// went wrong, and the token.
func TestHTTPAPI(t *testing.T) {
	const token = "s3cret-token"
	root, url := httpOwner(t, &OwnOptions{Token: token}, "notes/a.md", "the quick badger")

	tests := []struct {
		name, method, path, token, body string
		status                          int
		code                            string // of the error
		check                           func(m map[string]any) bool
	}{
		{"no token", "GET", "/v1/stats", "", "", 401, "unauthorized", nil},
		{"wrong token", "GET", "/v1/stats", "s3cret-tokem", "", 401, "unauthorized", nil},
		{"healthz needs the token too", "GET", "/healthz", "", "", 401, "unauthorized", nil},
		{"healthz", "GET", "/healthz", token, "", 200, "", func(m map[string]any) bool { return m["status"] == "ok" }},
		{"put", "PUT", "/v1/docs", token, `{"docs": [{"id": "n/1", "title": "One", "body": "badger notes", "tags": ["x"]}, {"id": "n2", "body": "lemon"}]}`, 200, "",
			func(m map[string]any) bool { return len(m["ids"].([]any)) == 2 }},
		{"put all or none", "PUT", "/v1/docs", token, `{"docs": [{"id": "n3", "body": "x"}, {"id": ""}]}`, 400, "bad_request", nil},
		{"add existing", "POST", "/v1/docs", token, `{"docs": [{"id": "n2", "body": "again"}]}`, 409, "exists", nil},
		{"add new", "POST", "/v1/docs", token, `{"docs": [{"id": "n4", "body": "new"}]}`, 200, "", nil},
		{"search", "POST", "/v1/search", token, `{"query": "badger", "limit": 5, "kinds": ["doc"]}`, 200, "",
			func(m map[string]any) bool { return m["total"] == float64(1) }},
		{"search numbers and arrays", "POST", "/v1/search", token, `{"query": "badger", "fallback": 0, "limit": 1, "ids": ["n/1", "notes/a.md"]}`, 200, "",
			func(m map[string]any) bool { return m["total"] == float64(2) && len(m["hits"].([]any)) == 1 }},
		{"raw syntax error", "POST", "/v1/search", token, `{"query": "badger AND", "syntax": "raw"}`, 400, "query_syntax",
			func(m map[string]any) bool {
				return strings.HasSuffix(m["error"].(map[string]any)["message"].(string), "badger AND\n          ^")
			}},
		{"bad argument", "POST", "/v1/search", token, `{"query": "x", "limit": 500}`, 400, "bad_request",
			func(m map[string]any) bool {
				return strings.Contains(m["error"].(map[string]any)["message"].(string), "1 to 50")
			}},
		{"unknown argument", "POST", "/v1/search", token, `{"query": "x", "limt": 5}`, 400, "bad_request", nil},
		// An offset past any page: refused, the index unharmed (the next
		// search below), where it once ran the server out of memory.
		{"offset too deep", "POST", "/v1/search", token, `{"query": "badger", "offset": 1099511627776}`, 400, "bad_request",
			func(m map[string]any) bool {
				return strings.Contains(m["error"].(map[string]any)["message"].(string), "0 to 16777216")
			}},
		{"deepest offset", "POST", "/v1/search", token, `{"query": "badger", "offset": 16777216}`, 200, "",
			func(m map[string]any) bool { return m["total"] == float64(2) && len(m["hits"].([]any)) == 0 }},
		{"search after them", "POST", "/v1/search", token, `{"query": "badger"}`, 200, "",
			func(m map[string]any) bool { return m["total"] == float64(2) }},
		{"not JSON", "POST", "/v1/search", token, `{"query": `, 400, "bad_request", nil},
		{"query too long", "POST", "/v1/search", token, `{"query": "` + strings.Repeat("a", index.MaxQueryBytes+1) + `"}`, 400, "bad_request", nil},
		{"get one, slash in the ID", "GET", "/v1/docs/n/1?maxBytes=6", token, "", 200, "",
			func(m map[string]any) bool { return m["body"] == "badger" && m["truncated"] == true }},
		{"get missing", "GET", "/v1/docs/nope", token, "", 404, "not_found", nil},
		{"get many", "POST", "/v1/docs/get", token, `{"ids": ["n2", "nope"]}`, 200, "",
			func(m map[string]any) bool { return len(m["documents"].([]any)) == 1 && len(m["missing"].([]any)) == 1 }},
		{"backlinks", "GET", "/v1/backlinks/n2?type=imports", token, "", 200, "",
			func(m map[string]any) bool { return len(m["backlinks"].([]any)) == 0 }},
		{"index outside the root", "POST", "/v1/index", token, `{"path": "/etc"}`, 400, "bad_request", nil},
		{"index", "POST", "/v1/index", token, `{"path": "notes"}`, 200, "", nil},
		{"delete", "DELETE", "/v1/docs/n2", token, "", 200, "", func(m map[string]any) bool { return m["removed"] == float64(1) }},
		{"delete missing", "DELETE", "/v1/docs/n2", token, "", 404, "not_found", nil},
		{"delete many", "POST", "/v1/docs/delete", token, `{"ids": ["n4", "nope"]}`, 200, "",
			func(m map[string]any) bool { return m["removed"] == float64(1) && m["requested"] == float64(2) }},
		{"stats", "GET", "/v1/stats", token, "", 200, "", func(m map[string]any) bool { return m["root"] == root }},
		{"unknown path", "GET", "/v2/stats", token, "", 404, "not_found", nil},
		{"wrong method", "GET", "/v1/search", token, "", 405, "method_not_allowed", nil},
		{"openapi", "GET", "/v1/openapi.json", token, "", 200, "", func(m map[string]any) bool { return m["openapi"] == "3.1.0" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, m, _ := do(t, tt.method, url+tt.path, tt.token, tt.body)
			if status != tt.status || errCode(m) != tt.code || tt.check != nil && !tt.check(m) {
				t.Errorf("%s %s: %d %v, want %d %q", tt.method, tt.path, status, m, tt.status, tt.code)
			}
		})
	}

	// 413 for a body over the limit; text/plain is refused (no form post
	// from a web page).
	big := `{"docs": [{"id": "big", "body": "` + strings.Repeat("x", MaxBody) + `"}]}`
	if status, m, _ := do(t, "PUT", url+"/v1/docs", token, big); status != 413 || errCode(m) != "too_large" {
		t.Errorf("a body over the limit: %d %v", status, m)
	}
	if status, m, _ := do(t, "POST", url+"/v1/search", token, `{"query": "x"}`, "Content-Type", "text/plain"); status != 415 {
		t.Errorf("text/plain: %d %v", status, m)
	}
	// No CORS unless asked for.
	_, _, hdr := do(t, "GET", url+"/v1/stats", token, "", "Origin", "https://evil.example")
	if v := hdr.Get("Access-Control-Allow-Origin"); v != "" {
		t.Errorf("CORS header without --cors: %q", v)
	}
}

// Without a token, a loopback server refuses Hosts that are not loopback
// names (DNS rebinding); with --cors, its origin may call it.
func TestHTTPLoopbackAndCORS(t *testing.T) {
	_, url := httpOwner(t, &OwnOptions{CORS: "https://app.example"})
	if status, m, _ := do(t, "GET", url+"/v1/stats", "", "", "Host", "evil.example"); status != 403 || errCode(m) != "forbidden" {
		t.Errorf("a rebound Host: %d %v", status, m)
	}
	if status, _, _ := do(t, "GET", url+"/v1/stats", "", ""); status != 200 {
		t.Errorf("no token needed on loopback: %d", status)
	}
	status, _, hdr := do(t, "OPTIONS", url+"/v1/search", "", "", "Origin", "https://app.example", "Access-Control-Request-Method", "POST")
	if status != 204 || hdr.Get("Access-Control-Allow-Origin") != "https://app.example" {
		t.Errorf("preflight: %d %v", status, hdr)
	}
	_, _, hdr = do(t, "GET", url+"/v1/stats", "", "", "Origin", "https://other.example")
	if v := hdr.Get("Access-Control-Allow-Origin"); v != "" {
		t.Errorf("CORS for another origin: %q", v)
	}
}

// An address other machines can reach needs a token.
func TestHTTPNeedsToken(t *testing.T) {
	ix, err := index.Open(filepath.Join(t.TempDir(), "idx"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, nil)
	defer h.Close()
	if _, err := Own(h, &OwnOptions{HTTP: "0.0.0.0:0"}); !errors.Is(err, ErrNoToken) {
		t.Fatalf("0.0.0.0 without a token: %v", err)
	}
}

// MCP over streamable HTTP at /mcp, with the token.
func TestHTTPMCP(t *testing.T) {
	_, url := httpOwner(t, &OwnOptions{Token: "tok"})
	hc := &http.Client{Transport: bearer{"tok"}}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "upsert", Arguments: object{"docs": []object{{"id": "m", "body": "over http"}}}})
	if err != nil || res.IsError {
		t.Fatalf("upsert: %v %v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: object{"query": "http"}})
	if err != nil || res.IsError || !strings.Contains(resultText(res), "1 hits") {
		t.Fatalf("search: %v %s", err, resultText(res))
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil {
		t.Error("an unknown tool is no error")
	}
	if status, _, _ := do(t, "POST", url+"/mcp", "", `{}`); status != 401 {
		t.Errorf("/mcp without the token: %d", status)
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// Close, as on SIGTERM, lets a write in progress finish and answers it;
// the write is then in the index.
func TestGracefulCloseFinishesWrites(t *testing.T) {
	ix, err := index.Open(filepath.Join(t.TempDir(), "idx"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, nil)
	defer h.Close()
	ow, err := Own(h, &OwnOptions{HTTP: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for i := range 1000 {
		docs = append(docs, fmt.Sprintf(`{"id": "d%04d", "body": "%s %d"}`, i, strings.Repeat("graceful words ", 500), i))
	}
	body := `{"docs": [` + strings.Join(docs, ",") + `]}`
	done := make(chan int, 1)
	go func() {
		status, _, _ := do(t, "PUT", ow.HTTPAddr()+"/v1/docs", "", body)
		done <- status
	}()
	time.Sleep(100 * time.Millisecond) // the PUT is being read or applied
	start := time.Now()
	if err := ow.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if status := <-done; status != 200 {
		t.Fatalf("the write in progress at close: %d", status)
	}
	if n, err := h.Index().Count(); err != nil || n != 1000 {
		t.Fatalf("%d documents after close (%v), want 1000", n, err)
	}
	t.Logf("close waited %s for the write", time.Since(start).Round(time.Millisecond))
}
