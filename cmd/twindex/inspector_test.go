package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPInspectorCLI calls every tool of 'twindex mcp' with the MCP
// Inspector's CLI (@modelcontextprotocol/inspector, pinned in
// testdata/mcp-inspector), which builds arguments from the tools' input
// schemas: arrays and numbers must arrive as such (a ["null", "array"]
// union once made it send strings).
func TestMCPInspectorCLI(t *testing.T) {
	node, dir := npmCI(t, "mcp-inspector", "@modelcontextprotocol/inspector")
	cli := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "cli", "build", "cli.js")
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "badger sett", "src/main.go": "package main // badger"})
	twindex(t, root, "index", ".").want(t, 0)

	call := func(args ...string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, append([]string{cli, "--cli", bin, "mcp", root, "--no-watch", "--log-level", "error"}, args...)...)
		cmd.Env = childEnv()
		out, err := cmd.Output()
		if err != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("inspector %v: %v\n%s%s", args, err, out, stderr)
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return m
	}
	tool := func(name string, args ...string) map[string]any {
		t.Helper()
		a := []string{"--method", "tools/call", "--tool-name", name}
		for _, v := range args {
			a = append(a, "--tool-arg", v)
		}
		res := call(a...)
		if res["isError"] == true {
			t.Fatalf("%s %v: %v", name, args, res["content"])
		}
		sc, _ := res["structuredContent"].(map[string]any)
		if sc == nil {
			t.Fatalf("%s: no structured content: %v", name, res)
		}
		return sc
	}

	list := call("--method", "tools/list")
	if n := len(list["tools"].([]any)); n != 7 {
		t.Errorf("%d tools", n)
	}
	up := tool("upsert", `docs=[{"id": "n1", "body": "badger notes", "tags": ["x", "y"], "links": [{"to": "a.txt", "type": "mentions"}], "meta": {"k": "v"}}]`)
	if len(up["ids"].([]any)) != 1 {
		t.Errorf("upsert: %v", up)
	}
	s := tool("search", "query=badger", "fallback=0", "limit=2", "offset=0", "expand=1", "explain=true", `kinds=["doc", "code"]`, `ids=["a.txt", "n1", "src/main.go"]`)
	if s["total"] != float64(2) || len(s["hits"].([]any)) != 2 || s["nextOffset"] != nil {
		t.Errorf("search: %v", s)
	}
	if s = tool("search", "query=badger", "rerank=0", "limit=1"); s["nextOffset"] != float64(1) {
		t.Errorf("search with limit 1: %v", s)
	}
	g := tool("get", `ids=["n1", "a.txt", "nope"]`, "maxBytes=6", "offset=0")
	if len(g["documents"].([]any)) != 2 || len(g["missing"].([]any)) != 1 {
		t.Errorf("get: %v", g)
	}
	if b := tool("backlinks", "id=a.txt", `types=["mentions"]`); len(b["backlinks"].([]any)) != 1 {
		t.Errorf("backlinks: %v", b)
	}
	if ip := tool("index_path", "path=src"); ip["scope"] != "src" {
		t.Errorf("index_path: %v", ip)
	}
	if st := tool("stats"); st["docs"] != float64(4) {
		t.Errorf("stats: %v", st)
	}
	if rm := tool("remove", `ids=["n1", "nope"]`); rm["removed"] != float64(1) || rm["requested"] != float64(2) {
		t.Errorf("remove: %v", rm)
	}
	// A wrong type is a tool error, not a crash.
	if res := call("--method", "tools/call", "--tool-name", "search", "--tool-arg", "query=x", "--tool-arg", "limit=ten"); res["isError"] != true ||
		!strings.Contains(res["content"].([]any)[0].(map[string]any)["text"].(string), "limit") {
		t.Errorf("limit=ten: %v", res)
	}
}
