package main

import (
	"context"
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
