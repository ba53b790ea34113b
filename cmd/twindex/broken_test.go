//go:build !js && !wasip1

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/internal/damage"
)

// flipSegments flips the middle third of every text segment file of the
// index in place, without truncating it: a server has the files mapped.
// It returns the files.
func flipSegments(t *testing.T, dir string) []string {
	t.Helper()
	segs, err := filepath.Glob(filepath.Join(dir, "text", "*.zap"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("text segments of %s: %v, %v", dir, segs, err)
	}
	for _, seg := range segs {
		damage.Rewrite(t, seg, damage.FlipMiddle)
	}
	return segs
}

// TestDamagedSegmentIsAnError breaks the text index under each face and
// checks that a search reports it instead of finding nothing: `twindex
// search` on a damaged index exits 3 naming the file, `twindex mcp` refuses
// to start on it, and a running server whose segment is damaged under it
// answers the search tool with an error result.
func TestDamagedSegmentIsAnError(t *testing.T) {
	tmp := t.TempDir()
	dir, path := filepath.Join(tmp, "idx"), filepath.Join(tmp, "docs.jsonl")
	writeFiles(t, tmp, map[string]string{"docs.jsonl": `{"id":"a","title":"gopher","body":"the authenticated gopher"}
{"id":"b","title":"rabbit","body":"an authenticated rabbit"}
`})
	twindex(t, tmp, "index", "--jsonl", path, "--index", dir, "--quiet").want(t, 0)
	search := []string{"search", "authenticated", "--index", dir, "--no-sync", "--mode", "text"}
	twindex(t, tmp, search...).want(t, 0)
	intact := filepath.Join(tmp, "intact")
	if err := os.CopyFS(intact, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}

	segs := flipSegments(t, dir)
	for _, format := range []string{"text", "json"} {
		r := twindex(t, tmp, append(search, "--format", format)...).want(t, exitIndex)
		if !strings.Contains(r.stderr, "corrupt "+segs[0]) || !strings.Contains(r.stderr, "twindex rebuild") {
			t.Errorf("--format %s: stderr does not name the damaged file and the remedy:\n%s", format, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("--format %s: a damaged index printed a result:\n%s", format, r.stdout)
		}
	}

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	serve := func(dir string) (*mcp.ClientSession, *exec.Cmd, *strings.Builder, error) {
		cmd := exec.Command(bin, "mcp", "--index", dir, "--log-level", "error")
		cmd.Env = childEnv()
		stderr := &strings.Builder{}
		cmd.Stderr = stderr
		client := mcp.NewClient(&mcp.Implementation{Name: "twindex-broken-test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
		return cs, cmd, stderr, err
	}
	if cs, cmd, stderr, err := serve(dir); err == nil {
		cs.Close()
		t.Errorf("twindex mcp started on a damaged index")
	} else {
		cmd.Wait()
		if !strings.Contains(stderr.String(), "corrupt "+segs[0]) {
			t.Errorf("twindex mcp on a damaged index: %v; stderr does not name the file:\n%s", err, stderr)
		}
	}

	cs, cmd, stderr, err := serve(intact)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr)
	}
	defer cmd.Process.Kill()
	defer cs.Close()
	flipSegments(t, intact)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: object{"query": "authenticated", "mode": "text"}})
	if err != nil {
		t.Fatalf("search: protocol error %v\n%s", err, stderr)
	}
	if !res.IsError || resultText(res) == "" {
		t.Errorf("search on a segment damaged under the server: isError %v, %q; want an error result", res.IsError, resultText(res))
	}
}

// A damaged document store is reported with the remedy that works: the
// store is the truth, which 'twindex rebuild' rebuilds the indexes from,
// so the hint says to index the source again, not to rebuild.
func TestDamagedStoreHint(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "idx")
	writeFiles(t, tmp, map[string]string{"docs.jsonl": `{"id":"a","body":"the authenticated gopher"}` + "\n"})
	twindex(t, tmp, "index", "--jsonl", filepath.Join(tmp, "docs.jsonl"), "--index", dir, "--quiet").want(t, 0)
	store := filepath.Join(dir, "store.db")
	damage.Rewrite(t, store, func(b []byte) { clear(b[:min(len(b), 8192)]) }) // both meta pages
	r := twindex(t, tmp, "search", "gopher", "--index", dir, "--no-sync").want(t, exitIndex)
	if !strings.Contains(r.stderr, "corrupt "+store) || !strings.Contains(r.stderr, "index the source again") ||
		strings.Contains(r.stderr, "'twindex rebuild' rebuilds") {
		t.Errorf("stderr does not name the store and the remedy that works:\n%s", r.stderr)
	}
}
