package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// bin is the twindex binary built once by TestMain.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "twindex-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "twindex")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build twindex: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// twindex runs the binary in dir with args; TWINDEX_INDEX is cleared and
// NO_COLOR set so output is plain.
func twindex(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return twindexIn(t, dir, "", args...)
}

func twindexIn(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	return twindexEnv(t, dir, stdin, nil, args...)
}

// twindexEnv runs the binary as twindexIn does, with env added to its
// environment.
func twindexEnv(t *testing.T, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(childEnv(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run twindex %v: %v", args, err)
	}
	return r
}

// want fails unless the run exited with code.
func (r result) want(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
	return r
}

// writeFiles creates files (path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// searchIDs runs a JSON search and returns the hit IDs, sorted.
func searchIDs(t *testing.T, dir string, code int, args ...string) []string {
	t.Helper()
	ids := orderedIDs(t, dir, code, args...)
	slices.Sort(ids)
	return ids
}

// orderedIDs runs a JSON search and returns the hit IDs in rank order.
func orderedIDs(t *testing.T, dir string, code int, args ...string) []string {
	t.Helper()
	r := twindex(t, dir, append([]string{"search", "--json"}, args...)...).want(t, code)
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("parse json: %v\n%s", err, r.stdout)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func equal(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestSearchBuildsThenStaysFresh(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.go":          "package main\n\nfunc main() { openFile() }\n",
		"docs/guide.md":    "# Guide\n\nHow to open a file with pelican.\n",
		"src/lib/store.go": "package lib\n\n// pelican stores things\n",
	})
	r := twindex(t, dir, "search", "pelican").want(t, 0)
	if !strings.Contains(r.stdout, "docs/guide.md") || !strings.Contains(r.stdout, "src/lib/store.go") {
		t.Fatalf("first run misses files:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "indexed") {
		t.Errorf("first run should report indexing on stderr: %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".twindex")); err != nil {
		t.Fatalf("no .twindex at the root: %v", err)
	}

	// Edit: the new word is found, the old one is gone.
	p := filepath.Join(dir, "docs/guide.md")
	writeFiles(t, dir, map[string]string{"docs/guide.md": "# Guide\n\nNow about flamingo only.\n"})
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(p, later, later)
	equal(t, searchIDs(t, dir, 0, "flamingo"), []string{"docs/guide.md"})
	equal(t, searchIDs(t, dir, 0, "pelican"), []string{"src/lib/store.go"})

	// A second run with no change does no work.
	r = twindex(t, dir, "search", "flamingo").want(t, 0)
	if strings.Contains(r.stderr, "indexed") {
		t.Errorf("unchanged folder re-indexed: %q", r.stderr)
	}

	// Delete: gone, and so are results from a subfolder search.
	os.Remove(filepath.Join(dir, "src/lib/store.go"))
	searchIDs(t, dir, 1, "pelican")

	// From a subfolder, the root index is found by walking up and the
	// search is scoped to the subfolder.
	writeFiles(t, dir, map[string]string{"docs/more.md": "flamingo again", "other.xyz": "flamingo elsewhere"})
	equal(t, searchIDs(t, filepath.Join(dir, "docs"), 0, "flamingo"), []string{"docs/guide.md", "docs/more.md"})
	if _, err := os.Stat(filepath.Join(dir, "docs", ".twindex")); err == nil {
		t.Error("a subfolder search created its own index")
	}
	equal(t, searchIDs(t, dir, 0, "flamingo", "--under", "docs"), []string{"docs/guide.md", "docs/more.md"})
	equal(t, searchIDs(t, dir, 0, "flamingo", "--kind", "other"), []string{"other.xyz"})
}

func TestUnderDeepFolders(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/b/c/deep.txt": "kiwi deep",
		"a/b/mid.txt":    "kiwi mid",
		"a/top.txt":      "kiwi top",
		"z/other.txt":    "kiwi other",
	})
	equal(t, searchIDs(t, dir, 0, "kiwi", "--under", "a/b"), []string{"a/b/c/deep.txt", "a/b/mid.txt"})
	equal(t, searchIDs(t, dir, 0, "kiwi", "--under", "a/b/c/"), []string{"a/b/c/deep.txt"})
	equal(t, searchIDs(t, dir, 0, "kiwi", "a/b"), []string{"a/b/c/deep.txt", "a/b/mid.txt"})
	equal(t, searchIDs(t, dir, 0, "kiwi", "a/top.txt"), []string{"a/top.txt"})
	equal(t, searchIDs(t, dir, 0, "kiwi"), []string{"a/b/c/deep.txt", "a/b/mid.txt", "a/top.txt", "z/other.txt"})
}

func TestGitignoreAndSkips(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":            "*.log\n/build/\n!keep.log\n# comment\nnode_modules/\n",
		"app.go":                "walrus here",
		"debug.log":             "walrus log",
		"keep.log":              "walrus kept",
		"build/out.txt":         "walrus build",
		"sub/build/x.txt":       "walrus sub build (only /build is anchored)",
		"sub/node_modules/m.js": "walrus module",
		"sub/.gitignore":        "secret*\n",
		"sub/secret.txt":        "walrus secret",
		"secret.txt":            "walrus root secret (sub/.gitignore does not apply here)",
		".twindexignore":        "private/\n",
		"private/p.txt":         "walrus private",
		".git/config":           "walrus git",
		"big.txt":               "walrus " + strings.Repeat("x", 200),
		"bin.dat":               "walrus\x00binary",
	})
	r := twindex(t, dir, "search", "walrus", "--json", "--max-size", "100").want(t, 0)
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	equal(t, ids, []string{"app.go", "keep.log", "secret.txt", "sub/build/x.txt"})
	if !strings.Contains(r.stderr, "skipped 1 file(s) over 100 B") || !strings.Contains(r.stderr, "big.txt") {
		t.Errorf("oversize file not reported: %q", r.stderr)
	}
	// index reports skips even when nothing changed.
	r = twindex(t, dir, "index", "--max-size", "100").want(t, 0)
	if !strings.Contains(r.stderr, "big.txt") {
		t.Errorf("index does not report the oversize file: %q", r.stderr)
	}
}

func TestJSONLBadLines(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"id":"a","title":"Alpha","body":"quokka one","tags":["x"],"ts":"2024-01-05"}`,
		`{"id":"b","body":"quokka two"`, // truncated
		`{"id":"c","body":"quokka three","ts":"2024-03-01T10:00:00Z","project":"p1"}`,
		`{"body":"no id"}`,
		``,
		`{"id":"d","body":"quokka four","ts":"yesterday"}`,
		`{"id":"e","body":"quokka five","tags":"notalist"}`,
		`{"id":"f","body":"quokka six","role":"user"}`,
	}
	writeFiles(t, dir, map[string]string{"docs.jsonl": strings.Join(lines, "\n") + "\n"})
	r := twindex(t, dir, "index", "--jsonl", "docs.jsonl", "--index", "idx").want(t, 2)
	for _, n := range []string{"docs.jsonl:2:", "docs.jsonl:4:", "docs.jsonl:6:", "docs.jsonl:7:"} {
		if !strings.Contains(r.stderr, n) {
			t.Errorf("stderr lacks %q:\n%s", n, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "docs.jsonl:5:") {
		t.Errorf("blank line reported:\n%s", r.stderr)
	}
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx"), []string{"a", "c", "f"})
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx", "--since", "2024-02-01"), []string{"c"})
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx", "--until", "2024-02-01T00:00"), []string{"a"})
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx", "--tag", "x"), []string{"a"})
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx", "--project", "p1"), []string{"c"})
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx", "--role", "user"), []string{"f"})

	// stdin, and a JSONL index is not synced with the folder it sits in.
	twindexIn(t, dir, `{"id":"g","body":"quokka seven"}`, "index", "--jsonl", "-", "--index", "idx").want(t, 0)
	equal(t, searchIDs(t, dir, 0, "quokka", "--index", "idx"), []string{"a", "c", "f", "g"})

	r = twindex(t, dir, "get", "a", "--index", "idx").want(t, 0)
	if !strings.Contains(r.stdout, "title:   Alpha") || !strings.Contains(r.stdout, "quokka one") {
		t.Errorf("get:\n%s", r.stdout)
	}
	r = twindex(t, dir, "get", "--json", "c", "--index", "idx").want(t, 0)
	var d index.Doc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil || d.Project != "p1" || d.Time.IsZero() {
		t.Errorf("get --json: %v %+v", err, d)
	}
	twindex(t, dir, "get", "nope", "--index", "idx").want(t, 1)
	twindex(t, dir, "rm", "a", "nope", "--index", "idx").want(t, 0)
	twindex(t, dir, "rm", "a", "--index", "idx").want(t, 1)

	r = twindex(t, dir, "stats", "--json", "--index", "idx").want(t, 0)
	var st struct {
		Docs  int            `json:"docs"`
		Kinds map[string]int `json:"kinds"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.Docs != 3 {
		t.Errorf("stats --json: %v %s", err, r.stdout)
	}
	r = twindex(t, dir, "stats", "--index", "idx").want(t, 0)
	if !strings.Contains(r.stdout, "documents") || !strings.Contains(r.stdout, "trigram index") {
		t.Errorf("stats:\n%s", r.stdout)
	}
	twindex(t, dir, "optimize", "--index", "idx").want(t, 0)
	twindex(t, dir, "rebuild", "--index", "idx").want(t, 0)
	twindex(t, dir, "check", "--index", "idx").want(t, 0)
}

func TestOutputFormats(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.txt": "otter <b>&amp; friends",
		"b.txt": "otter otter",
		"c.txt": "otter again",
	})
	// json, with flags after the positionals.
	r := twindex(t, dir, "search", "otter", ".", "--json", "--limit", "2", "--explain").want(t, 0)
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Query != "otter" || res.Mode != "auto" || res.Total != 3 || len(res.Hits) != 2 || !res.Truncated ||
		res.NextOffset == nil || *res.NextOffset != 2 || res.Hits[0].Explain == nil || len(res.Hits[0].MatchedIn) == 0 {
		t.Errorf("json result: %+v", res)
	}
	for _, key := range []string{`"tookMs"`, `"field"`, `"snippet"`, `"nextOffset"`} {
		if !strings.Contains(r.stdout, key) {
			t.Errorf("json lacks %s", key)
		}
	}
	// The last page: not truncated, nextOffset null.
	r = twindex(t, dir, "search", "--offset", "2", "otter", "--format", "json").want(t, 0)
	res = jsonResult{}
	json.Unmarshal([]byte(r.stdout), &res)
	if res.Truncated || res.NextOffset != nil || len(res.Hits) != 1 {
		t.Errorf("last page: %+v", res)
	}

	// jsonl: one hit per line.
	r = twindex(t, dir, "search", "otter", "--format", "jsonl").want(t, 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("jsonl lines: %q", r.stdout)
	}
	for _, l := range lines {
		var h server.Hit
		if err := json.Unmarshal([]byte(l), &h); err != nil || h.ID == "" {
			t.Errorf("jsonl line %q: %v", l, err)
		}
	}

	// trec: qid Q0 doc rank score twindex.
	r = twindex(t, dir, "search", "otter", "--format", "trec").want(t, 0)
	for i, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		f := strings.Fields(l)
		if len(f) != 6 || f[1] != "Q0" || f[3] != fmt.Sprint(i+1) || f[5] != "twindex" {
			t.Errorf("trec line %q", l)
		}
	}

	// text: no escape codes in a pipe, entities unescaped.
	r = twindex(t, dir, "search", "friends").want(t, 0)
	if strings.Contains(r.stdout, "\x1b") || !strings.Contains(r.stdout, "<b>&amp; friends") || !strings.Contains(r.stdout, "a.txt") {
		t.Errorf("text output:\n%q", r.stdout)
	}
}

func TestQueriesBatch(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.txt":      "heron lake",
		"b.txt":      "egret marsh",
		"q.jsonl":    `{"id":"h","text":"heron"}` + "\n" + `{"_id":"e","text":"egret"}` + "\n\nnothingmatcheszz\n",
		".gitignore": "q.jsonl\n",
	})
	r := twindex(t, dir, "search", "--queries", "q.jsonl").want(t, 0)
	var got []jsonResult
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var jr jsonResult
		if err := json.Unmarshal(sc.Bytes(), &jr); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		got = append(got, jr)
	}
	if len(got) != 3 || got[0].ID != "h" || got[1].ID != "e" || got[2].ID != "4" ||
		got[0].Total != 1 || got[0].Hits[0].ID != "a.txt" || got[2].Total != 0 || !strings.Contains(r.stdout, `"tookMs"`) {
		t.Errorf("batch: %+v", got)
	}
	r = twindex(t, dir, "search", "--queries", "q.jsonl", "--format", "trec").want(t, 0)
	equal(t, strings.Split(strings.TrimSpace(r.stdout), "\n")[:1], []string{"h Q0 a.txt 1 " + strings.Fields(r.stdout)[4] + " twindex"})
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "badger"})
	twindex(t, dir, "search", "badger").want(t, 0)
	twindex(t, dir, "search", "wombatzz").want(t, 1)
	r := twindex(t, dir, "search", "   ").want(t, 2)
	if !strings.Contains(r.stderr, "hint:") {
		t.Errorf("no hint: %q", r.stderr)
	}
	twindex(t, dir, "search", "x", "--limit", "0").want(t, 2)
	twindex(t, dir, "search", "x", "--since", "last tuesday").want(t, 2)
	twindex(t, dir, "search", "x", "--nope").want(t, 2)
	twindex(t, dir, "search").want(t, 2)
	twindex(t, dir, "frobnicate").want(t, 2)
	twindex(t, dir).want(t, 2)
	twindex(t, t.TempDir(), "stats").want(t, 3) // no index

	ix, err := index.Open(filepath.Join(dir, ".twindex"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r = twindexEnv(t, dir, "", []string{"TWINDEX_LOCK_WAIT=1500ms"}, "search", "badger").want(t, 3)
	if !strings.Contains(r.stderr, "locked") || !strings.Contains(r.stderr, "hint:") || !strings.Contains(r.stderr, "waiting up to 1.5s") {
		t.Errorf("locked: %q", r.stderr)
	}
	twindexEnv(t, dir, "", []string{"TWINDEX_LOCK_WAIT=soon"}, "search", "badger").want(t, 2)
	ix.Close()
	twindex(t, dir, "search", "badger").want(t, 0)
}

func TestCheckDetectsDrift(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.jsonl": `{"id":"d1","body":"same text"}` + "\n" + `{"id":"d2","body":"original words"}` + "\n" + `{"id":"d3","body":"more"}` + "\n",
		"b.jsonl": `{"id":"d1","body":"same text"}` + "\n" + `{"id":"d2","body":"replaced content"}` + "\n" + `{"id":"d3","body":"more"}` + "\n",
	})
	twindex(t, dir, "index", "--jsonl", "a.jsonl", "--index", "A").want(t, 0)
	twindex(t, dir, "index", "--jsonl", "b.jsonl", "--index", "B").want(t, 0)
	twindex(t, dir, "check", "--index", "A").want(t, 0)
	if err := os.RemoveAll(filepath.Join(dir, "A", "text")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "A", "text"), os.DirFS(filepath.Join(dir, "B", "text"))); err != nil {
		t.Fatal(err)
	}
	r := twindex(t, dir, "check", "--index", "A").want(t, 3)
	if !strings.Contains(r.stdout, "changed: d2") || strings.Contains(r.stdout, "d1") {
		t.Errorf("check output:\n%s", r.stdout)
	}
	twindex(t, dir, "rebuild", "--index", "A").want(t, 0)
	twindex(t, dir, "check", "--index", "A").want(t, 0)
}

func TestEval(t *testing.T) {
	fix, _ := filepath.Abs("testdata/eval")
	dir := t.TempDir()
	args := func(qrels string) []string {
		return []string{"eval", "--docs", filepath.Join(fix, "docs.jsonl"), "--queries", filepath.Join(fix, "queries.jsonl"),
			"--qrels", filepath.Join(fix, qrels), "--run", filepath.Join(dir, "run.txt")}
	}
	r := twindex(t, dir, args("qrels_known.tsv")...).want(t, 0)
	want := "nDCG@10  0.4033\nMAP@100  0.3750\nR@100    0.3750\nMRR@10   0.5000\nqueries  4  (no results: 1)\n"
	if r.stdout != want {
		t.Errorf("known answers:\n%s\nwant:\n%s", r.stdout, want)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	// shared/ sits beside the checkout, as in CI.
	scorePy, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "eval", "score.py"))
	if _, err := os.Stat(scorePy); err != nil {
		t.Skipf("no shared/ beside the checkout: %v", err)
	}
	for _, qrels := range []string{"qrels_known.tsv", "qrels.tsv"} {
		for _, mode := range []string{"auto", "text", "substring"} {
			r := twindex(t, dir, append(args(qrels), "--mode", mode)...).want(t, 0)
			out, err := exec.Command(python, scorePy, filepath.Join(fix, qrels), filepath.Join(dir, "run.txt")).CombinedOutput()
			if err != nil {
				t.Skipf("score.py: %v %s", err, out)
			}
			if r.stdout != string(out) {
				t.Errorf("%s %s: twindex eval:\n%s\nscore.py:\n%s", qrels, mode, r.stdout, out)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	dir := t.TempDir()
	r := twindex(t, dir, "help").want(t, 0)
	if !strings.Contains(r.stdout, "Exit codes") {
		t.Errorf("help:\n%s", r.stdout)
	}
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		r := twindex(t, dir, c.name, "--help").want(t, 0)
		if !strings.Contains(r.stdout, "Example:") || !strings.Contains(r.stdout, "twindex "+c.name) {
			t.Errorf("%s --help:\n%s", c.name, r.stdout)
		}
		twindex(t, dir, "help", c.name).want(t, 0)
	}
	r = twindex(t, dir, "version").want(t, 0)
	if !strings.HasPrefix(r.stdout, "twindex ") {
		t.Errorf("version: %q", r.stdout)
	}
}

func TestInterruptKeepsCommittedBatches(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(bin, "index", "--jsonl", "-", "--index", "idx")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := range folder.BatchDocs + 100 {
		fmt.Fprintf(stdin, `{"id":"d%d","body":"mole number %d"}`+"\n", i, i)
	}
	time.Sleep(2 * time.Second) // the first batch commits; the rest waits for more input
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(200 * time.Millisecond)
	stdin.Close()
	err = cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted {
		t.Fatalf("exit: %v, want %d\n%s", err, exitInterrupted, errb.String())
	}
	var line int
	if _, err := fmt.Sscanf(errb.String()[strings.Index(errb.String(), "up to line"):], "up to line %d", &line); err != nil {
		t.Fatalf("no committed line in %q", errb.String())
	}
	if line%folder.BatchDocs != 0 {
		t.Errorf("committed up to line %d, not a batch boundary", line)
	}
	r := twindex(t, dir, "stats", "--json", "--index", "idx").want(t, 0)
	var st struct{ Docs int }
	json.Unmarshal([]byte(r.stdout), &st)
	if st.Docs != line {
		t.Errorf("%d documents after the interrupt, want %d (lines committed)", st.Docs, line)
	}
	twindex(t, dir, "check", "--index", "idx").want(t, 0)
}

func TestSnippetRendering(t *testing.T) {
	plain := &output{}
	color := &output{color: true}
	s := "…a &lt;b&gt; <mark>Open</mark>\n\tfile &amp; \x1b[31m<mark>x</mark>…"
	if got, want := plain.snippet(s), "…a <b> Open file & [31mx…"; got != want {
		t.Errorf("plain: %q, want %q", got, want)
	}
	if got, want := color.snippet(s), "…a <b> "+ansiMatch+"Open"+ansiReset+" file & [31m"+ansiMatch+"x"+ansiReset+"…"; got != want {
		t.Errorf("color: %q, want %q", got, want)
	}
}

// The first fill of a new index is a bulk load that ends optimized: one
// segment per bleve index, whatever number of batches wrote it.
func TestFirstFillIsOptimized(t *testing.T) {
	dir := t.TempDir()
	var jsonl strings.Builder
	for i := range 4*folder.BatchDocs + 1 {
		fmt.Fprintf(&jsonl, `{"id": "d%d", "body": "note number %d about the build"}`+"\n", i, i)
	}
	twindexIn(t, dir, jsonl.String(), "index", "--index", dir+"/ix", "--jsonl", "-").want(t, 0)
	r := twindex(t, dir, "stats", "--index", dir+"/ix", "--json").want(t, 0)
	var st index.Stats
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("stats: %v\n%s", err, r.stdout)
	}
	if st.Docs != 4*folder.BatchDocs+1 || st.TextSegments != 1 || st.TrigramSegments != 1 {
		t.Errorf("after the first fill: %d documents, %d text and %d trigram segments, want 1 each", st.Docs, st.TextSegments, st.TrigramSegments)
	}
}
