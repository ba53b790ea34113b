package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fts5DB writes the corpus into an FTS5 database as fts5_ref.py does
// (its tables and columns), with the sqlite3 CLI.
func fts5DB(t *testing.T, path string, docs []any) {
	t.Helper()
	var sql strings.Builder
	q := func(s any) string { return "'" + strings.ReplaceAll(fmt.Sprint(s), "'", "''") + "'" }
	for _, tab := range []struct{ name, tok string }{{"fts_tri", "trigram"}, {"fts_text", "porter unicode61 remove_diacritics 2"}} {
		fmt.Fprintf(&sql, "CREATE VIRTUAL TABLE %s USING fts5(title, body, id UNINDEXED, kind UNINDEXED, tokenize='%s');\n", tab.name, tab.tok)
		fmt.Fprintf(&sql, "INSERT INTO %s(%s, rank) VALUES('rank', 'bm25(5.0, 1.0, 0.0, 0.0)');\n", tab.name, tab.name)
		for i, d := range docs {
			m := d.(map[string]any)
			fmt.Fprintf(&sql, "INSERT INTO %s(rowid, title, body, id, kind) VALUES(%d, %s, %s, %s, %s);\n", tab.name, i+1, q(m["title"]), q(m["body"]), q(m["id"]), q(m["kind"]))
		}
	}
	cmd := exec.Command("sqlite3", path)
	cmd.Stdin = strings.NewReader(sql.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
}

// TestCold runs the cold command on the fixture corpus with every tool
// (--before the same binary): each query answered by each, in both
// phases; the sqlite3 query finds what FTS5's auto mode finds.
func TestCold(t *testing.T) {
	for _, tool := range []string{"rg", "sqlite3", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	dir := t.TempDir()
	bin := buildTwindex(t, dir)
	docs := fixtureDocs()
	corpus, queries, db := filepath.Join(dir, "tiny.jsonl"), filepath.Join(dir, "queries.jsonl"), filepath.Join(dir, "tiny.db")
	writeLines(t, corpus, docs)
	writeLines(t, queries, []any{
		map[string]string{"id": "nl-00", "class": "nl", "text": "parse reader"},
		map[string]string{"id": "substr-00", "class": "substr", "text": "eRea"},
		map[string]string{"id": "phrase-00", "class": "phrase", "text": `"the reader"`},
	})
	fts5DB(t, db, docs)

	out, err := exec.Command("sqlite3", "-readonly", db, fts5AutoSQL("parse reader")).Output()
	if err != nil {
		t.Fatalf("sqlite3 auto query: %v", err)
	}
	if !strings.Contains(string(out), "src/pkg0/file00.go|") {
		t.Errorf("auto query for \"parse reader\": %q, want file00.go (\"parse the reader\") among them", out)
	}

	var log bytes.Buffer
	res, err := cold(context.Background(), coldConfig{Corpus: corpus, Queries: stringList{queries}, Given: stringList{"fd"},
		Twindex: bin, Before: bin, DB: db, Dir: filepath.Join(dir, "work"), Rounds: 1}, &log)
	if err != nil {
		t.Fatalf("cold: %v\nlog:\n%s", err, log.String())
	}
	if res.Docs != 20 || res.Files != 20 {
		t.Errorf("docs %d, files %d; want 20, 20", res.Docs, res.Files)
	}
	for _, tool := range res.Tools {
		if n := res.Failed[tool]; n > 0 {
			t.Errorf("%s failed %d times; log:\n%s", tool, n, log.String())
		}
		if n := len(res.Lat[tool]["all"]); n != 4 {
			t.Errorf("%s timed %d queries, want 4", tool, n)
		}
	}
	if len(res.Tools) != 15 {
		t.Errorf("tools %q, want 15", res.Tools)
	}
	if _, err := os.Stat(filepath.Join(dir, "work", "files", ".twindex", "serve")); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(dir, "work", "files", ".twindex", "serve")); len(ents) > 0 {
			t.Errorf("the server left %d files behind", len(ents))
		}
	}
	var b bytes.Buffer
	printCold(&b, res)
	if !strings.Contains(b.String(), "| phrase | 1 |") {
		t.Errorf("report without the phrase class:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "| twindex / twindex (before) | twindex no-sync / twindex no-sync (before) | twindex edited / rg (beside the edits) | twindex edited / twindex edited (before) | twindex add/remove / rg (beside add/remove) | twindex add/remove / twindex add/remove (before) |") {
		t.Errorf("report without the ratios to --before and of the searches after changes:\n%s", b.String())
	}
}

// buildTwindex builds the twindex binary into dir.
func buildTwindex(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "twindex")
	if out, err := exec.Command("go", "build", "-o", bin, "../twindex").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCLI runs the cli command on the fixture corpus: every query timed
// in every mode, in a batch's first and second pass, FTS5's ratios
// printed.
func TestCLI(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go: %v", err)
	}
	dir := t.TempDir()
	bin := buildTwindex(t, dir)
	corpus, queries, ref := filepath.Join(dir, "tiny.jsonl"), filepath.Join(dir, "queries.jsonl"), filepath.Join(dir, "tiny.summary.json")
	docs := fixtureDocs()
	for _, d := range docs {
		d.(map[string]any)["ts"] = "2012-03-04T05:06:07Z" // the CLI takes no numbers
	}
	writeLines(t, corpus, docs)
	writeLines(t, queries, []any{
		map[string]string{"id": "nl-00", "class": "nl", "text": "parse reader"},
		map[string]string{"id": "substr-00", "class": "substr", "text": "eRea"},
		map[string]string{"id": "substr-01", "class": "substr", "text": "zzzqqq"},
	})
	writeLines(t, ref, []any{map[string]any{"corpus": "tiny", "docs": 20, "load_total_s": 1.0, "db_bytes": 1 << 20,
		"latency": []any{map[string]any{"mode": "text", "class": "all", "p50_us": 1000, "p95_us": 2000}}}})
	var log bytes.Buffer
	res, err := cli(context.Background(), cliConfig{Corpus: corpus, Queries: stringList{queries}, Twindex: bin,
		Dir: filepath.Join(dir, "idx"), Passes: 2}, &log)
	if err != nil {
		t.Fatalf("cli: %v\nlog:\n%s", err, log.String())
	}
	for _, m := range modes {
		if n, f := len(res.Lat[string(m)]["all"]), len(res.First[string(m)]["all"]); n != 3 || f != 3 {
			t.Errorf("%s: %d queries timed in the second pass and %d in the first, want 3", m, n, f)
		}
		if n := len(res.Wall[string(m)]); n != 2 {
			t.Errorf("%s: %d passes, want 2", m, n)
		}
	}
	if res.Build <= 0 || res.Disk <= 0 {
		t.Errorf("build %v, disk %d", res.Build, res.Disk)
	}
	s, err := readFTS5Summary(ref)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	printCLI(&b, res, s)
	if !strings.Contains(b.String(), "| text | all | 3 |") || !strings.Contains(b.String(), "build / FTS5's") {
		t.Errorf("report:\n%s", b.String())
	}
}

func TestRGLiteral(t *testing.T) {
	for in, want := range map[string]string{`"open file"`: "open file", "open file": "open file", `"`: `"`, `a"b"`: `a"b"`} {
		if got := rgLiteral(in); got != want {
			t.Errorf("rgLiteral(%q) = %q, want %q", in, got, want)
		}
	}
}
