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
	node, dir := npmCI(t, "mcp-e2e", "@modelcontextprotocol/sdk")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "e2e.mjs", bin)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node e2e.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// npmCI installs the packages pinned in testdata/name with npm ci, when
// node_modules lacks pkg, and returns node's path and the folder. It
// skips the test only without node or npm.
func npmCI(t *testing.T, name, pkg string) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("skipping: node is not on PATH (%v)", err)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("skipping: npm is not on PATH (%v)", err)
	}
	if dir, err = filepath.Abs(filepath.Join("testdata", name)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json")); err == nil {
		return node, dir
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return node, dir
}
