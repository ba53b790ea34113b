//go:build !js && !wasip1

package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agent is a 'twindex mcp' process and an MCP client session with it.
type agent struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	mu     sync.Mutex
	stderr strings.Builder
}

func (a *agent) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stderr.Write(p)
}

func (a *agent) log() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stderr.String()
}

// startAgent starts 'twindex mcp' with args in dir, as an agent's client
// would.
func startAgent(t *testing.T, dir string, args ...string) *agent {
	t.Helper()
	a := &agent{cmd: exec.Command(bin, append([]string{"mcp"}, args...)...)}
	a.cmd.Dir, a.cmd.Env, a.cmd.Stderr = dir, childEnv(), a
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "twindex-agent", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: a.cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.cs = cs
	t.Cleanup(func() { a.cs.Close() })
	return a
}

// search calls the search tool and returns the hit IDs, sorted.
func (a *agent) search(t *testing.T, q string) []string {
	t.Helper()
	res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: object{"query": q, "fallback": 0}})
	if err != nil || res.IsError {
		t.Fatalf("search %q: %v %v\n%s", q, err, res, a.log())
	}
	var out struct{ Hits []struct{ ID string } }
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	var ids []string
	for _, h := range out.Hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

// awaitHits waits until the agent's search for q finds want, at most 2 s.
func (a *agent) awaitHits(t *testing.T, q string, want ...string) {
	t.Helper()
	start := time.Now()
	for {
		got := a.search(t, q)
		if slices.Equal(got, want) {
			return
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("search %q: %v after 2 s, want %v\n%s", q, got, want, a.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two agents on one folder share one index: the first owns it and
// watches the folder, the second forwards to it, the CLI works beside
// them, and when the owner goes the other takes over.
func TestMCPAgentsShareOneIndex(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "wombat burrow"})
	first := startAgent(t, dir, ".")
	equal(t, first.search(t, "wombat"), []string{"a.txt"})
	second := startAgent(t, dir, ".")
	if !strings.Contains(second.log(), "forwarding to the server that owns the index") {
		t.Fatalf("the second agent does not forward:\n%s", second.log())
	}
	res, err := second.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upsert",
		Arguments: object{"docs": []object{{"id": "note", "body": "wombat notes"}}}})
	if err != nil || res.IsError {
		t.Fatalf("upsert through the second agent: %v %v", err, res)
	}
	equal(t, first.search(t, "wombat"), []string{"a.txt", "note"})
	equal(t, searchIDs(t, dir, 0, "wombat"), []string{"a.txt", "note"})
	writeFiles(t, dir, map[string]string{"b.txt": "wombat again"})
	second.awaitHits(t, "wombat", "a.txt", "b.txt", "note")

	// The first agent's client goes: the second takes the index over,
	// and watches the folder now.
	first.cs.Close()
	if err := first.cmd.Wait(); err != nil && first.cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("the first agent: %v\n%s", err, first.log())
	}
	equal(t, second.search(t, "wombat"), []string{"a.txt", "b.txt", "note"})
	if !strings.Contains(second.log(), "taking over") {
		t.Errorf("the second agent did not take over:\n%s", second.log())
	}
	writeFiles(t, dir, map[string]string{"c.txt": "wombat thrice"})
	second.awaitHits(t, "wombat", "a.txt", "b.txt", "c.txt", "note")
	equal(t, searchIDs(t, dir, 0, "wombat", "--no-sync"), []string{"a.txt", "b.txt", "c.txt", "note"})
}
