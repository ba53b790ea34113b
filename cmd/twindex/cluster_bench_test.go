//go:build !js && !wasip1

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestClusterFigures measures what a user needs before choosing a
// cluster, on the corpus (JSONL) and queries (JSONL with "text") named
// by TWINDEX_CLUSTER_BENCH=CORPUS,QUERIES: acknowledged write throughput
// at R1 (one node) and R3 (three nodes), query latency through one node
// against a single server of the same documents, the time from killing a
// node to the next acknowledged write, and the catch-up of the node
// restarted on its data after more writes. It logs the figures; it
// asserts only that everything it measures works.
func TestClusterFigures(t *testing.T) {
	spec := os.Getenv("TWINDEX_CLUSTER_BENCH")
	if spec == "" {
		t.Skip("TWINDEX_CLUSTER_BENCH=CORPUS.jsonl,QUERIES.jsonl runs it")
	}
	corpusPath, queriesPath, _ := strings.Cut(spec, ",")
	docs := readJSONL(t, corpusPath)
	var queries []string
	for _, q := range readJSONL(t, queriesPath) {
		queries = append(queries, q["text"].(string))
	}
	work := t.TempDir()
	const batch = 500
	load := func(urls []string, docs []map[string]any) (time.Duration, float64) {
		start := time.Now()
		for b := 0; b*batch < len(docs); b++ {
			part := docs[b*batch : min((b+1)*batch, len(docs))]
			u := urls[b%len(urls)]
			if code, err := post("PUT", u+"/v1/docs", map[string]any{"docs": part}, nil); err != nil || code != 200 {
				t.Fatalf("PUT: %d %v", code, err)
			}
		}
		d := time.Since(start)
		return d, float64(len(docs)) / d.Seconds()
	}
	startCluster := func(name string, n int) ([]*served, []string, func(i int) []string) {
		routes := make([]string, n)
		for i := range routes {
			routes[i] = freeLoopback(t)
		}
		args := func(i int) []string {
			var peers []string
			for j, r := range routes {
				if j != i {
					peers = append(peers, r)
				}
			}
			a := []string{"--node", fmt.Sprintf("%s%d", name, i), "--index", filepath.Join(work, fmt.Sprintf("%s%d", name, i)),
				"--http", "127.0.0.1:0", "--cluster-listen", routes[i], "--log-level", "info"}
			if len(peers) > 0 {
				a = append(a, "--cluster-peers", strings.Join(peers, ","))
			}
			return a
		}
		nodes := make([]*served, n)
		urls := make([]string, n)
		for i := range nodes {
			nodes[i] = startServe(t, work, args(i)...)
		}
		for i := range nodes {
			urls[i] = waitNode(t, nodes[i])
		}
		return nodes, urls, args
	}
	// R1: one node.
	_, r1, _ := startCluster("one", 1)
	d1, rate1 := load(r1, docs)
	t.Logf("R1 (one node): %d documents acknowledged in %v: %.0f docs/s", len(docs), d1.Round(time.Millisecond), rate1)
	// R3: three nodes, writes spread over them.
	nodes, urls, args := startCluster("n", 3)
	d3, rate3 := load(urls, docs)
	t.Logf("R3 (three nodes): %d documents acknowledged in %v: %.0f docs/s", len(docs), d3.Round(time.Millisecond), rate3)
	// A single server of the same documents, for the queries.
	jsonl := filepath.Join(work, "docs.jsonl")
	writeJSONL(t, jsonl, docs)
	ref := filepath.Join(work, "ref")
	buildStart := time.Now()
	twindex(t, work, "index", "--index", ref, "--jsonl", jsonl).want(t, 0)
	t.Logf("single index built by 'twindex index --jsonl' in %v", time.Since(buildStart).Round(time.Millisecond))
	one := startServe(t, work, "--index", ref, "--no-watch", "--http", "127.0.0.1:0")
	oneURL := waitNode(t, one)
	// Every node has applied everything before the queries are timed.
	var st struct{ Docs int }
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		code, err := post("GET", urls[0]+"/v1/stats", nil, &st)
		if err == nil && code == 200 && st.Docs == len(docs) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cluster holds %d of %d documents", st.Docs, len(docs))
		}
	}
	for round := 0; round < 2; round++ {
		for _, target := range []struct{ name, url string }{{"single server", oneURL}, {"cluster node", urls[0]}} {
			var lat []time.Duration
			for _, q := range queries {
				start := time.Now()
				var out searchOut
				if code, err := post("POST", target.url+"/v1/search", map[string]any{"query": q, "limit": 20}, &out); err != nil || code != 200 {
					t.Fatalf("%s: %q: %d %v", target.name, q, code, err)
				}
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			t.Logf("round %d, %s: %d queries (auto, top 20): p50 %v, p95 %v, p99 %v", round+1, target.name, len(lat),
				lat[len(lat)/2].Round(10*time.Microsecond), lat[len(lat)*95/100].Round(10*time.Microsecond), lat[len(lat)*99/100].Round(10*time.Microsecond))
		}
	}
	// Kill the stream's leader, the worst node to lose (the others wait
	// for an election); time until a write through another node is
	// acknowledged.
	victim := max(streamLeader(nodes), 0)
	other := (victim + 1) % len(nodes)
	var rest []string
	for i, u := range urls {
		if i != victim {
			rest = append(rest, u)
		}
	}
	nodes[victim].kill(t)
	killed := time.Now()
	probe := []map[string]any{{"id": "probe", "body": "after the kill"}}
	for {
		code, err := post("PUT", urls[other]+"/v1/docs", map[string]any{"docs": probe}, nil)
		if err == nil && code == 200 {
			break
		}
		if time.Since(killed) > 2*time.Minute {
			t.Fatalf("no write acknowledged 2 minutes after the kill: %d %v", code, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("kill of n%d (the stream's leader: n%d) to the next acknowledged write: %v", victim, streamLeader(nodes[other:other+1]), time.Since(killed).Round(time.Millisecond))
	// More writes while it is down: a tenth of the corpus, replaced.
	tenth := docs[:len(docs)/10]
	for _, d := range tenth {
		d["body"] = d["body"].(string) + "\nreplaced while the node was down: qzvbench"
	}
	load(rest, tenth)
	restart := time.Now()
	back := startServe(t, work, args(victim)...)
	u := waitNode(t, back)
	t.Logf("n%d restarted: answering %v after the restart (%d documents replaced while it was down)", victim, time.Since(restart).Round(time.Millisecond), len(tenth))
	// Caught up: every shard it holds serves again (it logs each).
	for deadline := time.Now().Add(5 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		logs := back.stderr()
		m := regexp.MustCompile(`msg=placement .* mine="\[([0-9 ]*)\]"`).FindStringSubmatch(logs)
		if m != nil && strings.Count(logs, "shard caught up, serving") >= len(strings.Fields(m[1])) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("n%d not caught up after 5 minutes:\n%s", victim, logs)
		}
	}
	t.Logf("n%d serves all its shards again %v after the restart", victim, time.Since(restart).Round(time.Millisecond))
	var w struct {
		Seq uint64 `json:"seq"`
	}
	if code, err := post("PUT", urls[other]+"/v1/docs", map[string]any{"docs": probe}, &w); err != nil || code != 200 {
		t.Fatalf("PUT: %d %v", code, err)
	}
	// Page through every hit (50 a page): each replaced document once.
	want := map[string]bool{}
	for _, d := range tenth {
		want[d["id"].(string)] = true
	}
	seen := map[string]int{}
	var odd []string
	total := -1
	for page := 0; page < 2*len(tenth)/50+2; page++ {
		var out searchOut
		if code, err := post("POST", u+"/v1/search", map[string]any{"query": "qzvbench", "mode": "substring",
			"minSeq": w.Seq, "limit": 50, "offset": page * 50}, &out); err != nil || code != 200 {
			t.Fatalf("after catch-up: %d %v", code, err)
		}
		total = out.Total
		if len(out.Hits) == 0 {
			break
		}
		for _, h := range out.Hits {
			if seen[h.ID]++; seen[h.ID] > 1 || !want[h.ID] {
				odd = append(odd, h.ID)
			}
		}
	}
	if total != len(tenth) || len(seen) != len(tenth) || len(odd) > 0 {
		t.Fatalf("after catch-up: total %d, %d distinct hits, want %d; repeated or unexpected: %q", total, len(seen), len(tenth), odd)
	}
	t.Logf("a search through n%d with the last write's minSeq sees every replaced document, %v after the restart", victim, time.Since(restart).Round(time.Millisecond))
}

func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func writeJSONL(t *testing.T, path string, docs []map[string]any) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, d := range docs {
		enc.Encode(d)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
