//go:build !js && !wasip1

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// served is a 'twindex serve' process started by a test.
type served struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs []string // stderr lines so far
	http string   // http://HOST:PORT once listening, with --http
	done chan struct{}
}

// serve starts 'twindex serve' in dir with args and waits until it
// serves: its owner file names it and its endpoint answers. The test's
// end stops it with SIGTERM.
func serve(t *testing.T, dir string, args ...string) *served {
	t.Helper()
	s := startServe(t, dir, args...)
	s.waitReady(t)
	return s
}

func startServe(t *testing.T, dir string, args ...string) *served {
	t.Helper()
	return startServeEnv(t, dir, nil, args...)
}

// startServeEnv is startServe with env added to the child's.
func startServeEnv(t *testing.T, dir string, env []string, args ...string) *served {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(childEnv(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.mu.Lock()
			s.logs = append(s.logs, sc.Text())
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				s.http = a
			}
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() { s.stop(t) })
	return s
}

// waitReady waits until a client can use the server.
func (s *served) waitReady(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if dir := s.indexDir(); dir != "" {
			if c, err := server.Dial(dir); err == nil {
				c.Close()
				return
			}
		}
		select {
		case <-s.done:
			t.Fatalf("twindex serve exited:\n%s", s.stderr())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("twindex serve not serving after 30 s:\n%s", s.stderr())
		}
	}
}

var reServing = regexp.MustCompile(`msg="serving the index to this machine" index=(\S+)`)

// indexDir is the index directory the server logged, or "".
func (s *served) indexDir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.logs {
		if m := reServing.FindStringSubmatch(l); m != nil {
			return m[1]
		}
	}
	return ""
}

func (s *served) stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.logs, "\n")
}

// stop sends SIGTERM and waits for the exit; a server still running
// after 30 s is killed and the test fails.
func (s *served) stop(t *testing.T) {
	if s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		t.Errorf("twindex serve ignored SIGTERM for 30 s:\n%s", s.stderr())
	}
	if err := s.cmd.Wait(); err != nil && !strings.Contains(err.Error(), "killed") {
		t.Errorf("twindex serve: %v\n%s", err, s.stderr())
	}
}

// kill kills the server with SIGKILL, as a crash would.
func (s *served) kill(t *testing.T) {
	t.Helper()
	s.cmd.Process.Kill()
	<-s.done
	s.cmd.Wait()
}

// masked hides what differs between two runs of the same command on two
// folders: the folder's path, durations, times and sizes, and how many
// segments the bleve indexes have and their bytes (a server merges
// segments in the background; a CLI search opens the index read-only and
// merges nothing).
func masked(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "DIR")
	s = regexp.MustCompile(`\(\d+ segments?[^)]*\)`).ReplaceAllString(s, "(SEGMENTS)")
	s = regexp.MustCompile(`("(text|trigram)(Segments|Bytes)": )\d+`).ReplaceAllString(s, "${1}N")
	s = regexp.MustCompile(`"tookMs": [0-9.]+`).ReplaceAllString(s, `"tookMs": T`)
	s = regexp.MustCompile(`\b[0-9.]+(µs|ms|s)\b`).ReplaceAllString(s, "T")
	s = regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)`).ReplaceAllString(s, "TIME")
	s = regexp.MustCompile(`[0-9.]+ (B|KiB|MiB|GiB)\b`).ReplaceAllString(s, "SIZE")
	s = regexp.MustCompile(`(meta\.mtime: *|"mtime": ")\d+`).ReplaceAllString(s, "${1}M")
	return s
}

// Every command prints the same, and exits the same, whether it opens
// the index itself or a server owns it and it sends its request there.
func TestServeForwardsCLI(t *testing.T) {
	files := map[string]string{
		"main.go":       "package main\n\nfunc main() { openFile(\"badger\") }\n",
		"docs/guide.md": "# Guide\n\nHow to open a file with a badger.\n",
		"notes.txt":     "badgers and pelicans",
	}
	jsonl := `{"id": "n1", "title": "Links", "body": "badger links", "links": [{"to": "main.go", "type": "mentions"}]}
{"id": "", "body": "no id"}
{"id": "n2", "body": "second"}
`
	direct, owned := t.TempDir(), t.TempDir()
	for _, d := range []string{direct, owned} {
		writeFiles(t, d, files)
		twindex(t, d, "index", ".").want(t, 0)
	}
	s := serve(t, owned)
	steps := []struct {
		stdin string
		args  []string
	}{
		{"", []string{"search", "badger"}},
		{"", []string{"search", "badger", "--json", "--explain"}},
		{"", []string{"search", "badger", "docs", "--format", "jsonl"}},
		{"", []string{"search", "zebraqq"}},
		{"", []string{"search", "badger AND", "--syntax", "raw"}},
		{"", []string{"search", "x", "--limit", "0"}},
		{"", []string{"get", "docs/guide.md"}},
		{"", []string{"get", "main.go", "--json"}},
		{"", []string{"get", "nope"}},
		{jsonl, []string{"index", "--jsonl", "-"}},
		{"", []string{"links", "n1"}},
		{"", []string{"links", "nope"}},
		{"", []string{"backlinks", "main.go", "--format", "json"}},
		{"", []string{"stats"}},
		{"", []string{"stats", "--json"}},
		{"", []string{"rm", "notes.txt", "nope"}},
		{"", []string{"rm", "nope"}},
		{"", []string{"search", "pelicans", "--no-sync"}},
		{"", []string{"index", "."}},
		{"", []string{"search", "pelicans"}},
		{"", []string{"check"}},
		{"", []string{"check", "--json"}},
		{"", []string{"optimize"}},
		{"", []string{"search", "openFile(", "--mode", "substring", "--queries", "-"}},
	}
	for _, st := range steps {
		want := twindexIn(t, direct, st.stdin, st.args...)
		got := twindexIn(t, owned, st.stdin, st.args...)
		if got.code != want.code || masked(got.stdout, owned) != masked(want.stdout, direct) || masked(got.stderr, owned) != masked(want.stderr, direct) {
			t.Errorf("twindex %s: served and direct differ\nserved (exit %d):\n%s%s\ndirect (exit %d):\n%s%s",
				strings.Join(st.args, " "), got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(owned, ".twindex", "serve", "owner.json")); err != nil {
		t.Fatalf("the server is gone: %v\n%s", err, s.stderr())
	}
	// rebuild needs the index to itself.
	if r := twindex(t, owned, "rebuild").want(t, 3); !strings.Contains(r.stderr, "served by twindex") {
		t.Errorf("rebuild of a served index: %s", r.stderr)
	}
}

// After SIGKILL of the server, the next command finds the endpoint stale,
// cleans it up and opens the index itself, at once; a new server starts.
func TestServeKilled(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "badger"})
	s := serve(t, dir)
	twindex(t, dir, "search", "badger").want(t, 0)
	s.kill(t)
	if _, err := os.Stat(filepath.Join(dir, ".twindex", "serve", "owner.json")); err != nil {
		t.Fatalf("SIGKILL left no owner file to clean up: %v", err)
	}
	start := time.Now()
	r := twindex(t, dir, "search", "badger").want(t, 0)
	took := time.Since(start)
	t.Logf("first command after SIGKILL of the server: %s", took.Round(time.Millisecond))
	if took > 3*time.Second {
		t.Errorf("the command after the kill took %s:\n%s", took, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".twindex", "serve")); !os.IsNotExist(err) {
		t.Errorf("the stale endpoint is left: %v", err)
	}
	serve(t, dir)
	twindex(t, dir, "search", "badger").want(t, 0)
	// A second server on the same index refuses, naming the first.
	r = twindexIn(t, dir, "", "serve")
	if r.code != 3 || !strings.Contains(r.stderr, "served by twindex (pid") {
		t.Errorf("a second server: exit %d\n%s", r.code, r.stderr)
	}
}

// A file created, changed or deleted in a served folder shows in the
// CLI's searches (forwarded, without a sync of their own) within 2 s.
func TestServeFreshness(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"seed.txt": "seed"})
	serve(t, dir)
	var lat []time.Duration
	await := func(word string, want ...string) {
		t.Helper()
		start := time.Now()
		for {
			got := hitIDs(t, dir, word, "--no-sync", "--fallback", "0")
			if slices.Equal(got, want) {
				lat = append(lat, time.Since(start))
				return
			}
			if time.Since(start) > 2*time.Second {
				t.Fatalf("search %s: %v after 2 s, want %v", word, got, want)
			}
		}
	}
	for i := range 8 {
		name := fmt.Sprintf("d%d/f%d.txt", i%3, i)
		word := "fresh" + spell(i, 3) + "q"
		writeFiles(t, dir, map[string]string{name: word})
		await(word, name)
		writeFiles(t, dir, map[string]string{name: "changed " + word + "x"})
		await(word+"x", name)
		os.Remove(filepath.Join(dir, filepath.FromSlash(name)))
		await(word + "x")
	}
	slices.Sort(lat)
	t.Logf("write to CLI search seeing it, %d changes: p50 %s, p90 %s, max %s", len(lat),
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*9/10].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
}

// The HTTP API of a real 'twindex serve --http 127.0.0.1:0', with a
// token, through real requests.
func TestServeHTTP(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "badger sett"})
	s := startServeEnv(t, dir, []string{"TWINDEX_TOKEN=tok-123"}, "--http", "127.0.0.1:0")
	s.waitReady(t)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		url = s.http
		s.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no 'listening on' line:\n%s", s.stderr())
		}
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+$`).MatchString(url) {
		t.Fatalf("listening on %q", url)
	}
	// The local endpoint that waitReady dials answers while the first
	// sync runs (its client waits); the HTTP API answers 503 "starting"
	// until the sync ends, which under load takes a while.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		q, _ := http.NewRequest("GET", url+"/healthz", nil)
		q.Header.Set("Authorization", "Bearer tok-123")
		resp, err := http.DefaultClient.Do(q)
		status := 0
		if err == nil {
			resp.Body.Close()
			if status = resp.StatusCode; status == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz not ok after 30 s (%d %v):\n%s", status, err, s.stderr())
		}
	}
	req := func(method, path, token, body string, hdr ...string) (int, string, http.Header) {
		t.Helper()
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		q, _ := http.NewRequest(method, url+path, r)
		if body != "" {
			q.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			q.Header.Set("Authorization", "Bearer "+token)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			q.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(q)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	tests := []struct {
		method, path, token, body string
		status                    int
		want                      string // in the body
	}{
		{"GET", "/healthz", "", "", 401, `"unauthorized"`},
		{"GET", "/healthz", "tok-123", "", 200, `"ok"`},
		{"POST", "/v1/search", "bad", `{"query": "badger"}`, 401, `"unauthorized"`},
		{"POST", "/v1/search", "tok-123", `{"query": "badger", "limit": 5}`, 200, `"id":"a.txt"`},
		{"POST", "/v1/search", "tok-123", `{"query": "badger AND", "syntax": "raw"}`, 400, `badger AND\n          ^`},
		{"PUT", "/v1/docs", "tok-123", `{"docs": [{"id": "n1", "body": "over http"}]}`, 200, `"ids":["n1"]`},
		{"GET", "/v1/docs/n1", "tok-123", "", 200, `"body":"over http"`},
		{"GET", "/v1/docs/nope", "tok-123", "", 404, `"not_found"`},
		{"PUT", "/v1/docs", "tok-123", `{"docs": [{"id": "big", "body": "` + strings.Repeat("x", 33<<20) + `"}]}`, 413, `"too_large"`},
		{"GET", "/v1/openapi.json", "tok-123", "", 200, `"openapi":"3.1.0"`},
	}
	for _, tt := range tests {
		status, body, _ := req(tt.method, tt.path, tt.token, tt.body)
		if status != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s: %d %.300s, want %d with %s", tt.method, tt.path, status, body, tt.status, tt.want)
		}
	}
	if _, _, hdr := req("GET", "/v1/stats", "tok-123", "", "Origin", "https://evil.example"); hdr.Get("Access-Control-Allow-Origin") != "" {
		t.Error("CORS without --cors")
	}
	// What the HTTP client wrote, the CLI reads.
	twindex(t, dir, "get", "n1").want(t, 0)
	// Without a token, an address other machines reach is refused.
	r := twindex(t, t.TempDir(), "serve", "--http", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "TWINDEX_TOKEN") {
		t.Errorf("serve --http 0.0.0.0:0 without a token: exit %d\n%s", r.code, r.stderr)
	}
}

// hitIDs runs a JSON search, which may find nothing, and returns the hit
// IDs, sorted.
func hitIDs(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	r := twindex(t, dir, append([]string{"search", "--json"}, args...)...)
	if r.code > 1 {
		t.Fatalf("search %v: exit %d\n%s", args, r.code, r.stderr)
	}
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("parse json: %v\n%s", err, r.stdout)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

// ownerPID is the pid in the owner file of dir's index, or 0 when none.
func ownerPID(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".twindex", "serve", "owner.json"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ PID int }
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("owner file: %v\n%s", err, b)
	}
	return o.PID
}

// stopPID stops a server that is no child of the test with SIGTERM and
// waits up to 30 s for it to go (or to be a zombie, which an init that
// reaps nothing leaves); then kills it and fails.
func stopPID(t *testing.T, pid int) {
	p, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	gone := func() bool {
		if p.Signal(syscall.Signal(0)) != nil {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false // no /proc: the signal's answer stands
		}
		// pid (comm) state ...: the comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		return len(f) > 0 && f[0] == "Z"
	}
	p.Signal(syscall.SIGTERM)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if gone() {
			return
		}
	}
	p.Kill()
	t.Errorf("server pid %d ignored SIGTERM for 30 s", pid)
}

// search --serve (or TWINDEX_SERVE=1) on a folder index that no server
// owns starts 'twindex serve' in the background and searches through it;
// the next searches use it, and see the folder's changes through its
// watcher; a server that runs is not started again.
func TestSearchStartsServer(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "badger"})
	twindex(t, dir, "index", ".").want(t, 0)
	if pid := ownerPID(t, dir); pid != 0 {
		t.Fatalf("a server (pid %d) before any was asked for", pid)
	}

	// A search that fails starts none.
	if r := twindex(t, dir, "search", "--serve", "--syntax", "raw", "badger AND").want(t, 2); strings.Contains(r.stderr, "started a server") || ownerPID(t, dir) != 0 {
		t.Fatalf("a failed search started a server:\n%s", r.stderr)
	}

	// The search answers on its own, then starts the server, which
	// serves soon after. Whatever the checks, the test's end stops the
	// server it names and any that owns the index.
	var pid int
	t.Cleanup(func() {
		for _, p := range []int{pid, ownerPID(t, dir)} {
			if p != 0 {
				stopPID(t, p)
			}
		}
	})
	r := twindex(t, dir, "search", "--serve", "badger")
	if m := regexp.MustCompile(`started a server \(pid (\d+)\)`).FindStringSubmatch(r.stderr); m != nil {
		pid, _ = strconv.Atoi(m[1])
	}
	if r.code != 0 || pid == 0 {
		t.Fatalf("search --serve: exit %d, no server named:\n%s", r.code, r.stderr)
	}
	// A command at once may take the index's lock before the starting
	// server does, and hold it longer than a search: the server waits.
	if ix, err := index.Open(filepath.Join(dir, ".twindex"), nil); err == nil {
		time.Sleep(1500 * time.Millisecond)
		ix.Close()
	} else if !errors.Is(err, index.ErrLocked) {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := server.Dial(filepath.Join(dir, ".twindex")); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server search --serve started does not serve after 30 s:\n%s", r.stderr)
		}
	}
	if got := ownerPID(t, dir); got != pid || !strings.Contains(r.stdout, "a.txt:badger") {
		t.Errorf("search --serve: the owner is pid %d, want %d\n%s%s", got, pid, r.stdout, r.stderr)
	}
	// It logs its warnings and errors to the index folder.
	if log, err := os.ReadFile(filepath.Join(dir, ".twindex", "serve.log")); err != nil || strings.Contains(string(log), "level=ERROR") {
		t.Errorf("the server's log: %v\n%s", err, log)
	}
	// The server owns the index.
	if r := twindex(t, dir, "rebuild").want(t, 3); !strings.Contains(r.stderr, fmt.Sprintf("served by twindex (pid %d)", pid)) {
		t.Errorf("rebuild beside the started server: %s", r.stderr)
	}

	writeFiles(t, dir, map[string]string{"b.txt": "badger two"})
	for _, env := range [][]string{nil, {"TWINDEX_SERVE=1"}} {
		args := []string{"search", "--json", "badger"}
		if env == nil {
			args = append(args, "--serve")
		}
		r := twindexEnv(t, dir, "", env, args...).want(t, 0)
		if strings.Contains(r.stderr, "started a server") || ownerPID(t, dir) != pid {
			t.Errorf("%v %v started another server (pid %d, first %d):\n%s", env, args, ownerPID(t, dir), pid, r.stderr)
		}
		var res jsonResult
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Total != 2 {
			t.Errorf("%v %v: %v, want both files\n%s", env, args, err, r.stdout)
		}
	}
	if r := twindexEnv(t, dir, "", []string{"TWINDEX_SERVE=maybe"}, "search", "badger").want(t, 2); !strings.Contains(r.stderr, "TWINDEX_SERVE") {
		t.Errorf("TWINDEX_SERVE=maybe: %s", r.stderr)
	}
}

// 'twindex serve --idle D' exits by itself, cleanly, once D passes with
// no request, and not while requests keep coming.
func TestServeIdle(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "badger"})
	const idle = 2 * time.Second
	s := serve(t, dir, "--idle", idle.String())
	for range 4 { // a request every idle/4: it stays
		time.Sleep(idle / 4)
		twindex(t, dir, "search", "badger").want(t, 0)
		select {
		case <-s.done:
			t.Fatalf("the server exited with requests coming:\n%s", s.stderr())
		default:
		}
	}
	last := time.Now()
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the server still runs 30 s after the last request:\n%s", s.stderr())
	}
	// The server's clock of its last request stops before this
	// process's: a little under idle is on time.
	if took := time.Since(last); took < idle*3/4 {
		t.Errorf("the server exited %s after the last request, before --idle %s", took, idle)
	}
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("the idle server's exit: %v\n%s", err, s.stderr())
	}
	if pid := ownerPID(t, dir); pid != 0 {
		t.Errorf("the idle server left its owner file (pid %d)", pid)
	}
	if !strings.Contains(s.stderr(), "stopping: no request") {
		t.Errorf("the idle server's log:\n%s", s.stderr())
	}
}
