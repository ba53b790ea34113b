package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMCPTypeScriptE2E drives 'twindex mcp' with the reference TypeScript
// client (testdata/mcp-e2e/e2e.mjs, @modelcontextprotocol/sdk pinned in
// package.json and package-lock.json). It installs the package with npm ci
// when node_modules is missing, and is skipped only without node or npm.
func TestMCPTypeScriptE2E(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("skipping the TypeScript MCP client test: node is not on PATH (%v)", err)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("skipping the TypeScript MCP client test: npm is not on PATH (%v)", err)
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "mcp-e2e"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
		}
	}
	cmd := exec.CommandContext(ctx, node, "e2e.mjs", bin)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node e2e.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
