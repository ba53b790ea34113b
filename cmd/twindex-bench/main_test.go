package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// writeLines writes one JSON value per line.
func writeLines(t *testing.T, path string, rows []any) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

var words = []string{"parse", "reader", "buffer", "token", "scanner", "encode", "decode", "socket", "timer", "cache"}

// fixtureDocs is 20 small Go-like documents in make_corpus.py's shape, half
// with a string ts and half with a numeric one.
func fixtureDocs() []any {
	var docs []any
	for i := range 20 {
		a, b := words[i%len(words)], words[(i*3+1)%len(words)]
		d := map[string]any{
			"id":      fmt.Sprintf("src/pkg%d/file%02d.go", i%4, i),
			"kind":    []string{"code", "test", "doc"}[i%3],
			"title":   fmt.Sprintf("file%02d.go", i),
			"body":    fmt.Sprintf("// %s the %s.\nfunc New%s%s() {}\n", a, b, strings.ToUpper(a[:1])+a[1:], strings.ToUpper(b[:1])+b[1:]),
			"parent":  fmt.Sprintf("src/pkg%d", i%4),
			"tags":    []string{"src"},
			"project": fmt.Sprintf("pkg%d", i%4),
		}
		if i%2 == 0 {
			d["ts"] = "2012-03-04T05:06:07Z"
		} else {
			d["ts"] = 1331000000 + i
		}
		docs = append(docs, d)
	}
	return docs
}

func TestYardstick(t *testing.T) {
	dir := t.TempDir()
	corpus, queries, out := filepath.Join(dir, "tiny.jsonl"), filepath.Join(dir, "queries.jsonl"), filepath.Join(dir, "out")
	writeLines(t, corpus, fixtureDocs())
	writeLines(t, queries, []any{
		map[string]string{"id": "nl-00", "class": "nl", "text": "parse reader"},
		map[string]string{"id": "ident-00", "class": "ident", "text": "NewParseReader"},
		map[string]string{"id": "substr-00", "class": "substr", "text": "eRea"},
		map[string]string{"id": "camel-00", "class": "camel", "text": "new timer"},
		map[string]string{"id": "substr-01", "class": "substr", "text": "zzzqqq"},
	})
	tail := filepath.Join(dir, "tail.jsonl")
	writeLines(t, tail, []any{
		map[string]string{"id": "short-00", "class": "short", "text": "rs"},
		map[string]string{"id": "mixed-00", "class": "mixed", "text": "a reader"},
	})
	var log bytes.Buffer
	sum, err := yardstick(context.Background(), yardstickConfig{
		Corpus: corpus, Queries: queries, Tail: tail, Out: out, Batch: 7, Passes: 1, Top: 20, Scan: true,
	}, &log)
	if err != nil {
		t.Fatalf("yardstick: %v\nlog:\n%s", err, log.String())
	}
	if sum.ScanChecked != 7 || sum.ScanDiffers != 0 {
		t.Errorf("scan: %d of %d queries differ, want 0 of 7\n%s", sum.ScanDiffers, sum.ScanChecked, log.String())
	}
	if sum.Docs != 20 || sum.Queries != 5 || sum.Errors != 0 {
		t.Errorf("docs %d, queries %d, errors %d; want 20, 5, 0", sum.Docs, sum.Queries, sum.Errors)
	}
	if sum.DiskBytes == 0 {
		t.Error("disk bytes 0")
	}
	if len(sum.Latency) != 3*5 { // 3 modes x (4 classes + all)
		t.Errorf("%d latency rows, want 15", len(sum.Latency))
	}
	if len(sum.TailLatency) != 3*3 || sum.TailQueries != 2 { // 3 modes x (2 classes + all)
		t.Errorf("%d tail latency rows of %d queries, want 9 of 2", len(sum.TailLatency), sum.TailQueries)
	}
	for _, r := range append(sum.Latency, sum.TailLatency...) {
		if r.P99 < r.P95 || r.P95 < r.P50 {
			t.Errorf("%s %s: p50 %d, p95 %d, p99 %d", r.Mode, r.Class, r.P50, r.P95, r.P99)
		}
	}
	tb, err := os.ReadFile(filepath.Join(out, "tiny.twindex.tail.results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// A line per tail query and mode, apart from the main set's.
	if n := strings.Count(string(tb), "\n"); n != 6 {
		t.Errorf("%d tail result lines, want 6", n)
	}

	got := map[string]resultLine{}
	b, err := os.ReadFile(filepath.Join(out, "tiny.twindex.results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r resultLine
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		got[r.QID+"/"+r.Mode] = r
	}
	if len(got) != 15 {
		t.Errorf("%d result lines, want 15", len(got))
	}
	// file00 and file10 say "parse the reader" and declare NewParseReader.
	for _, key := range []string{"ident-00/substring", "substr-00/substring", "nl-00/substring"} {
		if r := got[key]; r.Total != 2 || len(r.IDs) != 2 {
			t.Errorf("%s: total %d ids %v, want the 2 docs with NewParseReader", key, r.Total, r.IDs)
		}
	}
	if r := got["substr-01/auto"]; r.Total != 0 || r.IDs == nil {
		t.Errorf("no-match query: total %d ids %#v, want 0 and []", r.Total, r.IDs)
	}
	if _, err := os.Stat(filepath.Join(out, "tiny.twindex.summary.json")); err != nil {
		t.Error(err)
	}

	var md bytes.Buffer
	ref := &fts5Summary{Corpus: "tiny", Docs: 20, LoadTotalS: 1, DBBytes: 1 << 20}
	// fts5_ref.py writes "-" for a class that ran no query.
	var tailRef fts5Summary
	if err := json.Unmarshal([]byte(`{"latency": [{"mode": "substring", "class": "short", "run": 0, "p50_us": "-", "p95_us": "-"},
		{"mode": "text", "class": "short", "run": 2, "p50_us": 1000, "p95_us": 2000}]}`), &tailRef); err != nil {
		t.Fatal(err)
	}
	printYardstick(&md, sum, ref, &tailRef)
	for _, want := range []string{"| substring | all |", "twindex / FTS5", "Slowest queries", "The tail", "| p99 µs |", "| text | short |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, md.String())
		}
	}
}

func TestScifact(t *testing.T) {
	dir := t.TempDir()
	var docs []any
	for i, d := range fixtureDocs() {
		m := d.(map[string]any)
		docs = append(docs, map[string]string{"id": fmt.Sprint(100 + i), "title": m["title"].(string), "body": m["body"].(string)})
	}
	writeLines(t, filepath.Join(dir, "docs.jsonl"), docs)
	writeLines(t, filepath.Join(dir, "queries.jsonl"), []any{
		map[string]string{"id": "1", "text": `"Parse" the reader.`},
		map[string]string{"id": "2", "text": "socket timer?"},
		map[string]string{"id": "3", "text": "..."},
	})
	if err := os.WriteFile(filepath.Join(dir, "qrels.tsv"), []byte("1\t100\t1\n2\t108\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, join := range []string{"and", "or"} {
		t.Run(join, func(t *testing.T) {
			prefix := filepath.Join(dir, "runs", join)
			var log bytes.Buffer
			runs, err := scifact(context.Background(), scifactConfig{
				Data: dir, Out: prefix, Join: join, Depth: 100,
				Modes: []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText},
			}, &log)
			if err != nil {
				t.Fatalf("scifact: %v\n%s", err, log.String())
			}
			if len(runs) != 3 {
				t.Fatalf("%d runs, want 3", len(runs))
			}
			for _, r := range runs {
				b, err := os.ReadFile(r.Path)
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(strings.TrimSpace(string(b)), "\n")
				f := strings.Fields(lines[0])
				if len(f) != 6 || f[0] != "1" || f[1] != "Q0" || f[3] != "1" || !strings.HasPrefix(f[5], "twindex-"+r.Mode) {
					t.Errorf("%s: first line %q", r.Path, lines[0])
				}
				if r.Errors != 0 || r.Empty < 1 { // query 3 sanitizes to nothing
					t.Errorf("%s: errors %d, empty %d", r.Mode, r.Errors, r.Empty)
				}
			}
		})
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"Parse" the reader.`, "Parse|the|reader"},
		{"1/2000 in UK (PrP)", "1/2000|in|UK|PrP"},
		{"... -- ", ""},
		{"naïve\u200bcafé,", "naïvecafé"},
	} {
		if got := strings.Join(sanitize(tc.in), "|"); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseTS(t *testing.T) {
	for _, in := range []string{`"2012-03-04T05:06:07Z"`, `1330837567`, `"1330837567"`} {
		got, err := parseTS(json.RawMessage(in))
		if err != nil || got.Unix() != 1330837567 {
			t.Errorf("parseTS(%s) = %v, %v", in, got, err)
		}
	}
	if got, err := parseTS(nil); err != nil || !got.IsZero() {
		t.Errorf("parseTS(nil) = %v, %v", got, err)
	}
}

func TestRunUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), nil, &out, &errb); code != 2 {
		t.Errorf("no args: exit %d, want 2", code)
	}
	if code := run(context.Background(), []string{"yardstick", "-h"}, &out, &errb); code != 0 {
		t.Errorf("yardstick -h: exit %d, want 0", code)
	}
	if code := run(context.Background(), []string{"scifact"}, &out, &errb); code != 2 {
		t.Errorf("scifact without --data: exit %d, want 2", code)
	}
}

// TestTailQueries checks that the tail set is drawn from the corpus
// reproducibly (the same seed, the same queries; another seed, others) and
// that each query is of its class.
func TestTailQueries(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "tiny.jsonl")
	var docs []any
	for i, d := range fixtureDocs() {
		m := d.(map[string]any)
		m["body"] = fmt.Sprintf("%s\n// A fd of io.Reader %d is closed by x.Close in the loop.\n", m["body"], i)
		docs = append(docs, m)
	}
	writeLines(t, corpus, docs)
	draw := func(seed uint64) []benchQuery {
		qs, err := tailQueries(tailConfig{Corpus: corpus, Seed: seed, PerClass: 5})
		if err != nil {
			t.Fatal(err)
		}
		return qs
	}
	a, b, c := draw(1), draw(1), draw(2)
	if !slices.Equal(a, b) {
		t.Fatalf("seed 1 twice: %v, then %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 1 and 2 drew the same queries: %v", a)
	}
	runes := func(s string) int { return len([]rune(s)) }
	for _, q := range a {
		w := strings.Fields(strings.Trim(q.Text, `"`))
		ok := false
		switch q.Class {
		case "short":
			ok = len(w) == 1 && runes(w[0]) <= 2
		case "common":
			ok = len(w) == 2 && runes(w[0]) >= 3 && runes(w[1]) >= 3
		case "mixed":
			ok = len(w) == 2 && (runes(w[0]) <= 2 && runes(w[1]) >= 4 || runes(w[1]) <= 2 && runes(w[0]) >= 4)
		case "phrase":
			ok = strings.HasPrefix(q.Text, `"`) && strings.HasSuffix(q.Text, `"`) && len(w) >= 2 && len(w) <= 3
		}
		if !ok || !strings.HasPrefix(q.ID, q.Class+"-") {
			t.Errorf("query %+v is not of its class", q)
		}
	}
	if len(a) != 4*5 {
		t.Errorf("%d queries, want 20", len(a))
	}
}

// TestScanCheck checks that --scan's brute force catches a wrong total.
func TestScanCheck(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "tiny.jsonl")
	writeLines(t, corpus, fixtureDocs())
	qs := []benchQuery{{ID: "q1", Text: `NewParse "parse the"`}, {ID: "q2", Text: "zz"}}
	results := []resultLine{{QID: "q1", Mode: "substring", Total: 2}, {QID: "q2", Mode: "substring", Total: 1}}
	var log bytes.Buffer
	bad, err := scanCheck(corpus, [][]benchQuery{qs}, [][]resultLine{results}, &log)
	if err != nil {
		t.Fatal(err)
	}
	if bad != 1 || !strings.Contains(log.String(), `q2 "zz": substring total 1, a scan finds 0`) {
		t.Errorf("%d differ, want 1 (q2):\n%s", bad, log.String())
	}
}

func TestServeLoad(t *testing.T) {
	dir := t.TempDir()
	corpus, queries := filepath.Join(dir, "small.jsonl"), filepath.Join(dir, "queries.jsonl")
	writeLines(t, corpus, fixtureDocs())
	writeLines(t, queries, []any{
		map[string]any{"id": "q1", "class": "ident", "text": "NewParse"},
		map[string]any{"id": "q2", "class": "nl", "text": "the reader"},
	})
	var out, log bytes.Buffer
	code := run(context.Background(), []string{"serve-load", "--corpus", corpus, "--queries", queries, "--batch", "3", "--passes", "2"}, &out, &log)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, log.String())
	}
	for _, want := range []string{"| load |", "| idle | 4 | 0 |", "| reload |", "p99 reload / p99 idle:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
