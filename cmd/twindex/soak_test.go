//go:build !js && !wasip1

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/index"
)

// soakTime is how long the soak runs: 10 s, or TWINDEX_SOAK (e.g. 60s).
func soakTime(t *testing.T) time.Duration {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns processes for seconds")
	}
	v := os.Getenv("TWINDEX_SOAK")
	if v == "" {
		return 10 * time.Second
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("TWINDEX_SOAK=%q: want a duration such as 60s", v)
	}
	return d
}

// soakFile is a file the editor made: its word is in it alone.
type soakFile struct {
	word    string
	deleted time.Time // zero while it exists
}

// TestServeSoak runs one server and its clients together: 4 CLI
// processes searching (each search brings the index up to date with the
// folder first), 2 MCP agents upserting and searching through it, and
// an editor creating, changing and deleting files in the watched
// folder. No call may fail, a CLI search may not return a file deleted
// before it began, an agent must find what it wrote. Then the server is
// killed with SIGKILL while the agents write: they take the index over,
// and every write they acknowledged is in it, which Check finds in step.
func TestServeSoak(t *testing.T) {
	d := soakTime(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"seed.txt": "seed"})
	s := serve(t, dir)

	var (
		mu        sync.Mutex
		files     []*soakFile
		errs      []string
		acked     = map[string]bool{} // IDs agents wrote
		searches  atomic.Int64
		mcpCalls  atomic.Int64
		edits     atomic.Int64
		stale     atomic.Int64
		staleness []time.Duration // how long after its deletion a deleted file was last seen by an agent
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	stop := make(chan struct{})
	running := func() bool {
		select {
		case <-stop:
			return false
		default:
			return true
		}
	}
	pick := func(rng *rand.Rand) *soakFile {
		mu.Lock()
		defer mu.Unlock()
		if len(files) == 0 {
			return nil
		}
		return files[rng.IntN(len(files))]
	}
	var wg sync.WaitGroup

	// The editor.
	wg.Go(func() {
		rng := rand.New(rand.NewPCG(1, 2))
		for n := 0; running(); n++ {
			f := &soakFile{word: "soak" + spell(n, 5) + "z"}
			name := filepath.Join(dir, fmt.Sprintf("d%d", n%7), f.word+".txt")
			os.MkdirAll(filepath.Dir(name), 0o755)
			os.WriteFile(name, []byte("first "+f.word), 0o644)
			mu.Lock()
			files = append(files, f)
			mu.Unlock()
			time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
			os.WriteFile(name, []byte("then "+f.word+" changed"), 0o644)
			if rng.IntN(2) == 0 {
				time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
				os.Remove(name)
				mu.Lock()
				f.deleted = time.Now()
				mu.Unlock()
			}
			edits.Add(1)
		}
	})

	// 4 CLI searchers: a file deleted before the search began is never
	// in its results.
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for running() {
				f := pick(rng)
				if f == nil {
					time.Sleep(10 * time.Millisecond)
					continue
				}
				mu.Lock()
				deletedBefore := !f.deleted.IsZero()
				mu.Unlock()
				r := twindex(t, dir, "search", "--json", "--fallback", "0", f.word)
				searches.Add(1)
				if r.code > 1 {
					fail("cli search %s: exit %d: %s", f.word, r.code, r.stderr)
					continue
				}
				var res jsonResult
				if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
					fail("cli search %s: %v: %s", f.word, err, r.stdout)
					continue
				}
				if deletedBefore && res.Total > 0 {
					stale.Add(1)
					fail("cli search %s found %s, deleted before the search began", f.word, res.Hits[0].ID)
				}
			}
		})
	}

	// 2 agents: upserts, acknowledged once durable, are found at once;
	// searches for deleted files see them gone within 2 s.
	var agents []*agent
	for g := range 2 {
		a := startAgent(t, dir, ".")
		agents = append(agents, a)
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 11))
			for n := 0; running(); n++ {
				word := fmt.Sprintf("agent%c%sq", 'a'+g, spell(n, 5))
				id := fmt.Sprintf("mcp/%d/%d", g, n)
				res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upsert",
					Arguments: object{"docs": []object{{"id": id, "body": word + " from an agent"}}}})
				mcpCalls.Add(1)
				if err != nil || res.IsError {
					fail("agent %d upsert: %v %v", g, err, res)
					continue
				}
				mu.Lock()
				acked[id] = true
				mu.Unlock()
				if got, err := a.find(word); err != nil || !slices.Equal(got, []string{id}) {
					fail("agent %d: search %s found %v (%v), want its own write %s", g, word, got, err, id)
				}
				mcpCalls.Add(1)
				if f := pick(rng); f != nil {
					mu.Lock()
					deleted := f.deleted
					mu.Unlock()
					hits, err := a.find(f.word)
					mcpCalls.Add(1)
					if err != nil {
						fail("agent %d: search %s: %v", g, f.word, err)
					}
					if !deleted.IsZero() && len(hits) > 0 {
						if late := time.Since(deleted); late > 2*time.Second {
							fail("agent %d: %s still found %s after its deletion", g, f.word, late)
						} else {
							mu.Lock()
							staleness = append(staleness, late)
							mu.Unlock()
						}
					}
				}
			}
		})
	}
	time.Sleep(d)
	close(stop)
	wg.Wait()
	mu.Lock()
	for _, e := range errs {
		t.Error(e)
	}
	mu.Unlock()
	t.Logf("%s: %d CLI searches, %d MCP calls, %d file edits, %d stale CLI hits; agent searches that still saw a deleted file (within 2 s): %d",
		d, searches.Load(), mcpCalls.Load(), edits.Load(), stale.Load(), len(staleness))

	// SIGKILL of the server while the agents write: they take the index
	// over, and what they acknowledged stays.
	killAt := time.Now().Add(300 * time.Millisecond)
	var written atomic.Int64
	var kwg sync.WaitGroup
	for g, a := range agents {
		kwg.Go(func() {
			for n := 0; time.Now().Before(killAt.Add(time.Second)); n++ {
				var docs []object
				for j := range 20 {
					docs = append(docs, object{"id": fmt.Sprintf("kill/%d/%d/%d", g, n, j), "body": "written around the kill"})
				}
				res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upsert", Arguments: object{"docs": docs}})
				if err != nil || res.IsError {
					fail("agent %d upsert around the kill: %v %s", g, err, resultText(res))
					return
				}
				mu.Lock()
				for _, d := range docs {
					acked[d["id"].(string)] = true
				}
				mu.Unlock()
				written.Add(int64(len(docs)))
			}
		})
	}
	time.Sleep(time.Until(killAt))
	s.kill(t)
	kwg.Wait()
	took := 0
	for _, a := range agents {
		a.cs.Close()
		a.cmd.Wait()
		if strings.Contains(a.log(), "taking over") {
			took++
		}
	}
	if took == 0 {
		t.Errorf("no agent took the index over:\n%s\n%s", agents[0].log(), agents[1].log())
	}
	for _, e := range errs {
		t.Error(e)
	}
	ix, err := index.Open(filepath.Join(dir, ".twindex"), nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer ix.Close()
	missing := 0
	for id := range acked {
		if _, err := ix.Get(id); errors.Is(err, index.ErrNotFound) {
			missing++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d acknowledged writes are missing", missing, len(acked))
	}
	checkIndex(t, ix)
	t.Logf("SIGKILL of the server mid-write: %d documents written around it, %d acknowledged writes in all, none lost; check clean", written.Load(), len(acked))
}

// find is agent.search for goroutines: it returns the error.
func (a *agent) find(q string) ([]string, error) {
	res, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: object{"query": q, "fallback": 0}})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, errors.New(resultText(res))
	}
	var out struct{ Hits []struct{ ID string } }
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	var ids []string
	for _, h := range out.Hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids, nil
}
