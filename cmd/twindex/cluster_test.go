//go:build !js && !wasip1

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/internal/goroot"
)

// clusterCorpus writes n files of the Go tree as JSONL documents and
// returns them.
func clusterCorpus(t *testing.T, n int) []map[string]any {
	t.Helper()
	dir, err := goroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "src")
	var docs []map[string]any
	for _, dir := range []string{"strings", "bytes", "bufio", "io", "os", "sort", "errors", "path", "unicode", "net/url", "encoding/json", "text/template", "fmt", "time"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || len(docs) >= n {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 256<<10 || !strings.HasSuffix(p, ".go") {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			docs = append(docs, map[string]any{"id": rel, "title": filepath.Base(p), "body": string(b), "kind": "code"})
			return nil
		})
	}
	if len(docs) < n/2 {
		t.Skipf("only %d files under %s", len(docs), root)
	}
	return docs
}

func freeLoopback(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// post sends a JSON body and decodes the answer; it returns the status.
func post(method, url string, body, out any) (int, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	c := &http.Client{Timeout: 60 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, err
		}
	}
	return resp.StatusCode, nil
}

type searchOut struct {
	Total int `json:"total"`
	Hits  []struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
	} `json:"hits"`
	Partial bool `json:"partial"`
}

func (s *searchOut) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "total %d partial %v:", s.Total, s.Partial)
	for _, h := range s.Hits {
		fmt.Fprintf(&b, " %s=%.6g", h.ID, h.Score)
	}
	return b.String()
}

// TestClusterKillAndRestart: three real 'twindex serve --node' processes
// on 127.0.0.1 take a corpus through the HTTP API of whichever node is
// up; the stream's leader is killed with SIGKILL mid-load and restarted
// on its data. The leader is the worst node to lose: until the others
// notice, the requests that only it answers go unanswered.
// Then every node holds every acknowledged document once and answers a
// query set as one 'twindex index' of the same documents does: the same
// total and the same ordered top 10 with the same scores.
func TestClusterKillAndRestart(t *testing.T) {
	docs := clusterCorpus(t, 900)
	work := t.TempDir()
	routes := []string{freeLoopback(t), freeLoopback(t), freeLoopback(t)}
	args := func(i int) []string {
		var peers []string
		for j, r := range routes {
			if j != i {
				peers = append(peers, r)
			}
		}
		return []string{"--node", fmt.Sprintf("n%d", i), "--index", filepath.Join(work, fmt.Sprintf("n%d", i)),
			"--http", "127.0.0.1:0", "--cluster-listen", routes[i], "--cluster-peers", strings.Join(peers, ","), "--shards", "6"}
	}
	nodes := make([]*served, 3)
	for i := range nodes {
		nodes[i] = startServe(t, work, args(i)...)
	}
	urls := make([]string, 3)
	for i, s := range nodes {
		urls[i] = waitNode(t, s)
	}
	start := time.Now()
	const batch = 50
	acked := map[string]bool{}
	var restarted *served
	victim := 1
	for b := 0; b*batch < len(docs); b++ {
		part := docs[b*batch : min((b+1)*batch, len(docs))]
		switch b {
		case 6:
			leader := streamLeader(nodes)
			if leader >= 0 {
				victim = leader
			}
			nodes[victim].kill(t)
			t.Logf("killed n%d (the stream's leader: n%d) after %d documents, %v", victim, leader, len(acked), time.Since(start))
		case 10:
			restarted = startServe(t, work, args(victim)...)
		}
		// The batch goes to a node that is up, another if it fails.
		ok := false
		for try := 0; try < 30 && !ok; try++ {
			i := (b + try) % 3
			u := urls[i]
			if i == victim && (b >= 6 && (restarted == nil || restarted.httpURL() == "")) {
				continue
			}
			if i == victim && restarted != nil {
				u = restarted.httpURL()
			}
			code, err := post("PUT", u+"/v1/docs", map[string]any{"docs": part}, nil)
			if err == nil && code == http.StatusOK {
				ok = true
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !ok {
			t.Fatalf("batch %d acknowledged by no node", b)
		}
		for _, d := range part {
			acked[d["id"].(string)] = true
		}
	}
	t.Logf("%d documents acknowledged in %v", len(acked), time.Since(start))
	urls[victim] = waitNode(t, restarted)
	before := nodes[victim]
	nodes[victim] = restarted

	// One index of the same documents, served the same way.
	jsonl := filepath.Join(work, "docs.jsonl")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, d := range docs {
		enc.Encode(d)
	}
	if err := os.WriteFile(jsonl, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(work, "ref")
	twindex(t, work, "index", "--index", ref, "--jsonl", jsonl).want(t, 0)
	one := startServe(t, work, "--index", ref, "--no-watch", "--http", "127.0.0.1:0")
	oneURL := waitNode(t, one)

	queries := []string{"reader ", "read file ", "ReadFile ", "io.Reader ", "buffer size ", "strings builder ", "\"func main\" ",
		"unicode utf8 ", "fd ", "x ", "template parse ", "json marshal ", "time duration ", "netwrok ", "xyzzy ", "Copyright The Go Authors "}
	type q struct{ Query, Mode string }
	var qs []q
	for _, s := range queries {
		for _, m := range []string{"auto", "text", "substring"} {
			qs = append(qs, q{s, m})
		}
	}
	// Every node converges on the reference within a bounded time.
	deadline := time.Now().Add(60 * time.Second)
	for i, u := range urls {
		for {
			diff := ""
			var st struct{ Docs int }
			if code, err := post("GET", u+"/v1/stats", nil, &st); err != nil || code != 200 || st.Docs != len(acked) {
				diff = fmt.Sprintf("stats: %d documents (%v, %d), want %d", st.Docs, err, code, len(acked))
			}
			for _, x := range qs {
				if diff != "" {
					break
				}
				var want, got searchOut
				body := map[string]any{"query": x.Query, "mode": x.Mode, "limit": 10}
				if _, err := post("POST", oneURL+"/v1/search", body, &want); err != nil {
					t.Fatal(err)
				}
				if code, err := post("POST", u+"/v1/search", body, &got); err != nil || code != 200 {
					diff = fmt.Sprintf("%q %s: %d %v", x.Query, x.Mode, code, err)
				} else if got.String() != want.String() {
					diff = fmt.Sprintf("%q %s:\n got %s\nwant %s", x.Query, x.Mode, &got, &want)
				}
			}
			if diff == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node n%d: %s\nn0:\n%s\nn1:\n%s\nn2:\n%s\nn%d before the kill:\n%s", i, diff,
					nodes[0].stderr(), nodes[1].stderr(), nodes[2].stderr(), victim, before.stderr())
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	// Each acknowledged document, on each node.
	ids := make([]string, 0, len(acked))
	for id := range acked {
		ids = append(ids, id)
	}
	for i, u := range urls {
		seen := map[string]int{}
		for start := 0; start < len(ids); start += 100 {
			var got struct {
				Docs    []struct{ ID string } `json:"documents"`
				Missing []string              `json:"missing"`
			}
			part := ids[start:min(start+100, len(ids))]
			if code, err := post("POST", u+"/v1/docs/get", map[string]any{"ids": part, "maxBytes": 1}, &got); err != nil || code != 200 {
				t.Fatalf("node n%d: get: %d %v", i, code, err)
			}
			for _, d := range got.Docs {
				seen[d.ID]++
			}
		}
		for _, id := range ids {
			if seen[id] != 1 {
				t.Errorf("node n%d: document %s there %d times", i, id, seen[id])
			}
		}
	}
	t.Logf("%d queries x 3 modes equal on every node, %d documents each, %v in all", len(queries), len(acked), time.Since(start))
}

var reLeader = regexp.MustCompile(`msg="stream leader elected" leader=n(\d)`)

// streamLeader is the index of the node the nodes last logged as the
// stream's leader, or -1.
func streamLeader(nodes []*served) int {
	for _, s := range nodes {
		s.mu.Lock()
		logs := slices.Clone(s.logs)
		s.mu.Unlock()
		for i := len(logs) - 1; i >= 0; i-- {
			if m := reLeader.FindStringSubmatch(logs[i]); m != nil {
				return int(m[1][0] - '0')
			}
		}
	}
	return -1
}

// waitNode waits until a node (or a single server) answers stats and
// returns its URL.
func waitNode(t *testing.T, s *served) string {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if u := s.httpURL(); u != "" {
			if code, err := post("GET", u+"/v1/stats", nil, nil); err == nil && code == 200 {
				return u
			}
		}
		select {
		case <-s.done:
			t.Fatalf("twindex serve exited:\n%s", s.stderr())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("twindex serve not answering after 60 s:\n%s", s.stderr())
		}
	}
}

func (s *served) httpURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.http
}
