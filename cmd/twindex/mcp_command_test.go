package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// TestMCPCommand runs the real binary over stdio: the server answers,
// exits 0 when stdin closes, and leaves the index unlocked.
func TestMCPCommand(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, folder.IndexDirName)
	cmd := exec.Command(bin, "mcp", "--index", dir, "--log-level", "debug")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "twindex-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "upsert", Arguments: object{"docs": []object{{"id": "a", "body": "hello stdio world"}}}})
	if err != nil || res.IsError {
		t.Fatalf("upsert: %v %v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: object{"query": "stdio"}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %v", err, res)
	}
	if !strings.Contains(resultText(res), "1 hits") {
		t.Errorf("search: %s", resultText(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "stats", Arguments: object{}})
	if err != nil || res.IsError {
		t.Fatalf("stats: %v %v", err, res)
	}
	// A folder's .twindex given with --index: file IDs are relative to the folder.
	if got := res.StructuredContent.(map[string]any)["root"]; got != root {
		t.Errorf("root %v, want %s", got, root)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("server did not exit cleanly when stdin closed: %v\nstderr:\n%s", err, stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "tool call") {
		t.Errorf("no debug log on stderr:\n%s", stderr.String())
	}
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatalf("reopen after exit: %v", err)
	}
	defer ix.Close()
	if n, _ := ix.Count(); n != 1 {
		t.Errorf("%d documents after reopen, want 1", n)
	}
}

// TestMCPMalformedMessages sends the server over stdio what a broken
// client might: a line that is not JSON, JSON that is not JSON-RPC, an
// unknown tool, an unknown method and an argument of the wrong type. Each
// is answered with an error and the session goes on.
func TestMCPMalformedMessages(t *testing.T) {
	cmd := exec.Command(bin, "mcp", "--index", filepath.Join(t.TempDir(), "idx"))
	cmd.Env = childEnv()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the server closed stdout\nstderr:\n%s", stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("reply %q: %v", l, err)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatalf("no reply\nstderr:\n%s", stderr.String())
		}
		return nil
	}
	send := func(l string) {
		t.Helper()
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := next(); r["id"] != float64(1) || r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	tests := []struct {
		name, line string
		code       float64 // JSON-RPC error code; 0: a tool result with isError
	}{
		{"not JSON", `this is not json`, -32700},
		{"not JSON-RPC", `{"foo": 1}`, -32600},
		{"empty batch", `[]`, -32600},
		{"unknown tool", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}`, -32602},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"nosuch/method"}`, -32601},
		{"wrong argument type", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"query":["x"]}}}`, 0},
	}
	for _, tt := range tests {
		send(tt.line)
		r := next()
		if tt.code == 0 {
			res, _ := r["result"].(map[string]any)
			if res == nil || res["isError"] != true {
				t.Errorf("%s: %v, want a tool error", tt.name, r)
			}
			continue
		}
		e, _ := r["error"].(map[string]any)
		if e == nil || e["code"] != tt.code {
			t.Errorf("%s: %v, want error code %v", tt.name, r, tt.code)
		}
	}
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	if r := next(); r["id"] != float64(5) || r["result"] == nil {
		t.Fatalf("tools/list after the bad messages: %v", r)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\nstderr:\n%s", err, stderr.String())
	}
}

type object = map[string]any

// resultText is the text content of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
