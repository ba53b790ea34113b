package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/grep")

// TestOutputGolden runs searches of testdata/grep/corpus through the
// binary and compares what they print with testdata/grep/golden/NAME.txt
// (exit code, stdout, then stderr); -update rewrites them.
func TestOutputGolden(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "grep", "corpus"), dir)
	twindex(t, dir, "index", ".", "--quiet").want(t, 0)
	tests := []struct {
		name string
		in   string // folder under dir the search runs in
		args []string
	}{
		{"pipe", "", []string{"pelican"}},
		{"pipe-numbers", "", []string{"pelican", "-n"}},
		{"heading", "", []string{"pelican", "--heading", "-n"}},
		{"heading-no-numbers", "", []string{"pelican", "--heading", "-N"}},
		{"context", "", []string{"OpenStore", "-n", "-C", "1"}},
		{"after-before", "", []string{"err", "-n", "-A", "2", "-B", "0", "--kind", "code"}},
		{"max-count", "", []string{"pelican", "-n", "-m", "1"}},
		{"files", "", []string{"pelican", "-l"}},
		{"count", "", []string{"pelican", "-c"}},
		{"color", "", []string{"heron", "--heading", "-n", "--color", "always"}},
		{"subfolder", "docs", []string{"pelican", "-n"}},
		{"subfolder-files-up", "docs", []string{"OpenStore", "-l", ".."}},
		{"path-dot", "", []string{"pelican", "-l", "."}},
		{"path-absolute", "", []string{"pelican", "-n", "$DIR/docs/"}},
		{"path-file", "", []string{"pelican", "-c", "docs/guide.md"}},
		{"title-only", "", []string{"friends", "--heading"}},
		{"substring", "", []string{"ican sle", "--mode", "substring", "-n"}},
		{"whole-words", "", []string{"pelic", "--mode", "text", "-l"}},
		{"prefix-star", "", []string{"pelic*", "--mode", "text", "-l"}},
		{"prefix-flag", "", []string{"pelic", "--prefix", "--mode", "text", "-n", "-m", "1"}},
		{"json", "", []string{"OpenStore", "--json", "--limit", "2"}},
		{"json-lines", "", []string{"OpenStore", "--json", "--limit", "1", "-C", "1"}},
		{"jsonl", "", []string{"heron", "--format", "jsonl"}},
		{"trec", "", []string{"heron", "--format", "trec"}},
		{"no-results", "", []string{"zzqqxx"}},
	}
	took := regexp.MustCompile(`"tookMs": ?[0-9.e-]+`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"search", "--no-sync"}
			for _, a := range tt.args {
				args = append(args, strings.ReplaceAll(a, "$DIR", dir))
			}
			r := twindex(t, filepath.Join(dir, tt.in), args...)
			got := "exit " + strconv.Itoa(r.code) + "\n-- stdout\n" + r.stdout + "-- stderr\n" + r.stderr
			got = took.ReplaceAllString(strings.ReplaceAll(got, dir, "$DIR"), `"tookMs": 0`)
			golden := filepath.Join("testdata", "grep", "golden", tt.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("twindex search %s:\n%s\nwant:\n%s", strings.Join(tt.args, " "), got, want)
			}
		})
	}
}

// copyTree copies the files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
