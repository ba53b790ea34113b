//go:build !js && !wasip1

package main

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/internal/damage"
)

// TestRandomDamage damages the files of a small index at random (seeded:
// TWINDEX_DAMAGE_SEED, default 1; TWINDEX_DAMAGE_CASES cases, default 48)
// and runs the real binary on each copy: `twindex search`, `check` and
// `mcp` (initialize and one search) either answer or fail with a message
// (exit status, isError or a JSON-RPC error), never die of a signal or
// print a Go panic; `twindex rebuild` then repairs a damaged bleve index
// from the store, after which `check` passes and the search answers as
// before. A damaged store is reported, not repaired.
func TestRandomDamage(t *testing.T) {
	cases, seed := 48, uint64(1)
	if s := os.Getenv("TWINDEX_DAMAGE_CASES"); s != "" {
		cases, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("TWINDEX_DAMAGE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	tmp := t.TempDir()
	base, docs := filepath.Join(tmp, "idx"), filepath.Join(tmp, "docs.jsonl")
	var jsonl strings.Builder
	for i := range 60 {
		body := strings.Repeat(fmt.Sprintf("document %d talks about gophers and rabbits. ", i), 8)
		if i%7 == 0 {
			body += "an authenticated request "
		}
		if i%20 == 0 { // values over a page: overflow pages in the store
			body += strings.Repeat("a long appendix of words. ", 400)
		}
		fmt.Fprintf(&jsonl, "{\"id\":\"d%02d\",\"title\":\"doc %d\",\"body\":%q}\n", i, i, body)
	}
	writeFiles(t, tmp, map[string]string{"docs.jsonl": jsonl.String()})
	twindex(t, tmp, "index", "--jsonl", docs, "--index", base, "--quiet").want(t, 0)
	query := []string{"authenticated", "--index", "", "--no-sync", "--limit", "100"}
	searchIn := func(dir string) []string { q := slices.Clone(query); q[2] = dir; return q }
	want := orderedIDs(t, tmp, 0, searchIn(base)...)
	if len(want) == 0 {
		t.Fatal("the query finds nothing to begin with")
	}
	var files []string
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(base, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(files)

	var failed atomic.Int32 // cases where some command reported an error
	t.Run("cases", func(t *testing.T) {
		for i := range cases {
			file := files[i%len(files)]
			t.Run(fmt.Sprintf("%d-%s", i, strings.ReplaceAll(file, "/", "-")), func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join(t.TempDir(), "idx")
				if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
					t.Fatal(err)
				}
				var where string
				rng := rand.New(rand.NewPCG(seed, uint64(i)))
				damage.Rewrite(t, filepath.Join(dir, file), func(b []byte) { where = damage.Random(rng, b, 8) })
				t.Logf("seed %d case %d: %s damaged at bytes %s", seed, i, file, where)

				errs := 0
				for _, args := range [][]string{
					append([]string{"search", "--json"}, searchIn(dir)...),
					{"check", "--index", dir},
				} {
					if r := twindex(t, tmp, args...); !survived(t, args[0], r.code, r.stderr) {
						return
					} else if r.code != 0 {
						errs++
					}
				}
				if !mcpSurvives(t, dir) {
					errs++
				}
				if errs > 0 {
					failed.Add(1)
				}

				r := twindex(t, tmp, "rebuild", "--index", dir)
				bleve := strings.HasPrefix(file, "text/") || strings.HasPrefix(file, "trigram/")
				if !survived(t, "rebuild", r.code, r.stderr) || !bleve {
					return // the store and the CLI's files: reported, not repaired
				}
				if r.code != 0 {
					t.Fatalf("rebuild after damage to %s: exit %d\n%s", file, r.code, r.stderr)
				}
				twindex(t, tmp, "check", "--index", dir).want(t, 0)
				if got := orderedIDs(t, tmp, 0, searchIn(dir)...); !slices.Equal(got, want) {
					t.Errorf("after rebuild: %v, want %v", got, want)
				}
			})
		}
	})
	t.Logf("%d of %d damaged copies made search, check or mcp report an error", failed.Load(), cases)
}

// survived fails the test, and returns false, when a run of the binary
// died of a signal or printed a Go panic or runtime fault, or failed
// without a message.
func survived(t *testing.T, what string, code int, stderr string) bool {
	t.Helper()
	for _, s := range []string{"panic:", "fatal error:", "goroutine ", "SIGSEGV", "SIGBUS", "unexpected fault address"} {
		if strings.Contains(stderr, s) {
			t.Errorf("twindex %s crashed (exit %d):\n%s", what, code, stderr)
			return false
		}
	}
	if code < 0 {
		t.Errorf("twindex %s died of a signal:\n%s", what, stderr)
		return false
	}
	if code != 0 && strings.TrimSpace(stderr) == "" {
		t.Errorf("twindex %s: exit %d without a message", what, code)
		return false
	}
	return true
}

// mcpSurvives runs `twindex mcp` on dir for one search through a real
// client. It returns true when the server answered the search with a
// result, and false when it refused to start, or answered with an error;
// it fails the test when the server crashed.
func mcpSurvives(t *testing.T, dir string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--index", dir, "--log-level", "error")
	cmd.Env = childEnv()
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "twindex-damage-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	ok := false
	if err == nil {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: object{"query": "authenticated"}})
		ok = err == nil && !res.IsError
		cs.Close()
	} else {
		cmd.Wait()
	}
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	if !survived(t, "mcp", code, stderr.String()) {
		return false
	}
	return ok
}
