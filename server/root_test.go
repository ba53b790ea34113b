package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/index"
)

// The root is fixed when the service starts: index_path refuses paths
// outside it, and a symbolic link under it that leads out is neither
// followed nor a way in. (An index with no root once let index_path
// {"path": "/etc"} make /etc the root, and get read /etc/shadow.)
func TestMCPRootIsFixed(t *testing.T) {
	mt := newMCPTest(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "shadow"), "root:secrethash:19000")
	writeFile(t, filepath.Join(mt.root, "notes.txt"), "plain notes")
	if err := os.Symlink(outside, filepath.Join(mt.root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "shadow"), filepath.Join(mt.root, "shadow")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/etc", outside, "..", "../x", "link", "link/shadow", "shadow"} {
		res := mt.call("index_path", object{"path": p})
		if !res.IsError || !strings.Contains(resultText(res), "outside the index root") {
			t.Errorf("index_path %q: %s", p, resultText(res))
		}
	}
	var out indexPathOutput
	mt.ok("index_path", object{"path": "."}, &out)
	if out.Root != mt.root || out.Written != 1 {
		t.Errorf("index_path of the root: %+v", out)
	}
	var got getOutput
	mt.ok("get", object{"ids": []string{"link/shadow", "shadow", "notes.txt"}}, &got)
	if len(got.Documents) != 1 || got.Documents[0].ID != "notes.txt" {
		t.Errorf("get: %+v", got)
	}
	var hits searchOutput
	mt.ok("search", object{"query": "secrethash"}, &hits)
	if hits.Total != 0 {
		t.Errorf("a file outside the root was indexed: %+v", hits)
	}
}

// A service on an index that mirrors no folder indexes none.
func TestMCPNoRoot(t *testing.T) {
	ix, err := index.Open(filepath.Join(t.TempDir(), "idx"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, nil)
	defer h.Close()
	s := New(h, nil)
	defer s.Close()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.ServeMCP(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "index_path", Arguments: object{"path": "/etc"}})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "mirrors no folder") {
		t.Errorf("index_path without a root: %v %s", err, resultText(res))
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
