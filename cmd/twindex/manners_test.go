package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Global flags, "--", a query from stdin, and IDs typed as paths.
func TestPlainManners(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Makefile":   "test:\n\tgo test -race ./...\n",
		"src/db.go":  "package src\n\n// Open opens the pelican database.\nfunc Open() {}\n",
		"notes/a.md": "# Notes\n\nthe pelican flies\n",
	})
	ixDir := filepath.Join(t.TempDir(), "ix")
	twindex(t, dir, "--index", ixDir, "index", ".").want(t, 0)

	equal(t, searchIDs(t, dir, 0, "--", "-race"), []string{"Makefile"})
	r := twindexIn(t, dir, "pelican flies\n", "--index", ixDir, "search", "-", "--json", "--mode", "substring").want(t, 0)
	if !strings.Contains(r.stdout, `"notes/a.md"`) || strings.Contains(r.stdout, `"src/db.go"`) {
		t.Errorf("query from stdin:\n%s", r.stdout)
	}
	sub := filepath.Join(dir, "src")
	for _, arg := range []string{"./db.go", "db.go", filepath.Join(sub, "db.go"), "src/db.go", "../src/db.go"} {
		r := twindex(t, sub, "--index", ixDir, "get", arg).want(t, 0)
		if !strings.HasPrefix(r.stdout, "id:      src/db.go\n") {
			t.Errorf("get %s:\n%s", arg, r.stdout)
		}
	}
	twindex(t, sub, "--index", ixDir, "get", "./nothing.go").want(t, 1)
	// An absolute path finds its index from anywhere (the search above
	// made dir/.twindex).
	r = twindex(t, t.TempDir(), "get", filepath.Join(dir, "notes", "a.md")).want(t, 0)
	if !strings.HasPrefix(r.stdout, "id:      notes/a.md\n") {
		t.Errorf("get by absolute path:\n%s", r.stdout)
	}
	r = twindex(t, sub, "rm", "./db.go").want(t, 0)
	if r.stdout != "removed 1 of 1\n" {
		t.Errorf("rm ./db.go: %q", r.stdout)
	}
}

// Every search that prints nothing says so, and says which filter ruled
// everything out.
func TestNoResultsSaySo(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.go":   "package main // pelican\n",
		"README.md": "pelican notes\n",
	})
	twindex(t, dir, "search", "pelican").want(t, 0)
	tests := []struct {
		args   []string
		stderr []string
	}{
		{[]string{"zzqqxx"}, []string{"no results\n"}},
		{[]string{"pelican", "--kind", "markdown"}, []string{"no results\n", `no documents of kind "markdown"; kinds here: code (1), doc (1)`}},
		{[]string{"pelican", "-t", "markdown", "-t", "pdf"}, []string{`no documents of kind "markdown" or "pdf"`}},
		{[]string{"pelican", "--under", "nonexistent"}, []string{`no document or folder "nonexistent" in the index (--under)`}},
		{[]string{"pelican", "--offset", "100000"}, []string{"--offset 100000 is past the end: 2 result(s)"}},
		{[]string{"pelican", "--tag", "x", "--kind", "code"}, []string{"no results\n", "2 document(s) match without --kind code, --tag x"}},
		{[]string{"pelican", "--since", "2999-01-01"}, []string{"match without --since"}},
		{[]string{"pelican", "--json", "--role", "r"}, []string{"no results\n", "match without --role r"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := twindex(t, dir, append([]string{"search", "--no-sync"}, tt.args...)...).want(t, 1)
			for _, want := range tt.stderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
		})
	}
}

// Where a new index goes: the root of the git repository, a .gitignore in
// it, and the user cache for folders that cannot be written, which a
// search leaves exactly as they were.
func TestIndexLocation(t *testing.T) {
	t.Run("git subfolder", func(t *testing.T) {
		repo := t.TempDir()
		writeFiles(t, repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "src/deep/a.go": "package deep // pelican\n", "b.md": "pelican\n"})
		deep := filepath.Join(repo, "src", "deep")
		r := twindex(t, deep, "search", "pelican").want(t, 0)
		if !strings.HasPrefix(r.stdout, "a.go") && !strings.Contains(r.stdout, "src/deep/a.go") {
			t.Errorf("search in a subfolder:\n%s", r.stdout)
		}
		if strings.Contains(r.stdout, "b.md") {
			t.Errorf("a search in a subfolder found a file outside it:\n%s", r.stdout)
		}
		if _, err := os.Stat(filepath.Join(deep, ".twindex")); err == nil {
			t.Error("index made in the subfolder")
		}
		b, err := os.ReadFile(filepath.Join(repo, ".twindex", ".gitignore"))
		if err != nil || !strings.Contains(string(b), "\n*\n") {
			t.Errorf(".twindex/.gitignore: %q %v", b, err)
		}
		equal(t, searchIDs(t, repo, 0, "pelican"), []string{"b.md", "src/deep/a.go"})
	})
	for _, tt := range []struct{ name, why string }{
		{"read-only folder", "is read-only"},
		{"module cache", "is in Go's module cache"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			top, cache := t.TempDir(), t.TempDir()
			mod := filepath.Join(top, "example.com", "m@v1.0.0")
			writeFiles(t, mod, map[string]string{"go.mod": "module example.com/m\n", "m.go": "package m // pelican\n", "doc/x.md": "pelican\n"})
			env := []string{"XDG_CACHE_HOME=" + cache, "GOMODCACHE=" + filepath.Join(t.TempDir(), "elsewhere")}
			if tt.name == "module cache" {
				env[1] = "GOMODCACHE=" + top
			} else {
				chmodTree(t, mod, 0o555, 0o444)
			}
			before := treeState(t, top)
			r := twindexEnv(t, mod, "", env, "search", "pelican").want(t, 0)
			if !strings.Contains(r.stderr, mod+" "+tt.why+"; its index goes in "+cache) {
				t.Errorf("stderr:\n%s", r.stderr)
			}
			r = twindexEnv(t, filepath.Join(mod, "doc"), "", env, "search", "pelican", "--json").want(t, 0)
			if strings.Contains(r.stderr, "index goes in") || !strings.Contains(r.stdout, `"doc/x.md"`) {
				t.Errorf("second search, from a subfolder, did not find the index in the cache:\n%s\n%s", r.stdout, r.stderr)
			}
			twindexEnv(t, mod, "", env, "get", "./m.go").want(t, 0)
			if after := treeState(t, top); after != before {
				t.Errorf("the searched folder changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// chmodTree sets the modes of the folders and files under dir, and puts
// them back at the end of the test so that it can be removed.
func chmodTree(t *testing.T, dir string, dirMode, fileMode os.FileMode) {
	t.Helper()
	var dirs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() {
			dirs = append(dirs, p)
		} else {
			os.Chmod(p, fileMode)
		}
		return nil
	})
	for _, d := range dirs {
		os.Chmod(d, dirMode)
	}
	t.Cleanup(func() {
		for _, d := range dirs {
			os.Chmod(d, 0o755)
		}
	})
}

// treeState lists every path under dir with its mode, size and mtime.
func treeState(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %s %d %d", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// .gz files are searched by their decompressed text and HTML by its
// text, in both legs; a bad .gz is reported and the rest is searched.
func TestSearchGzipAndHTML(t *testing.T) {
	dir := t.TempDir()
	var z strings.Builder
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("pelican 1.2: fixed the frobnicator\n"))
	zw.Close()
	writeFiles(t, dir, map[string]string{
		"changelog.gz":  z.String(),
		"manual.html":   "<html><head><title>Pelican Manual</title><script>var frobnicator;</script></head><body><p>The <b>frob</b>nicator &amp; you</p></body></html>",
		"broken.txt.gz": "\x1f\x8b\x08\x00garbage",
	})
	r := twindex(t, dir, "search", "frobnicator", "--json").want(t, 0)
	if !strings.Contains(r.stderr, "skipped broken.txt.gz: not valid gzip") {
		t.Errorf("bad gzip not reported:\n%s", r.stderr)
	}
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	titles := map[string]string{}
	for _, h := range res.Hits {
		titles[h.ID] = h.Title
	}
	if titles["changelog.gz"] != "changelog.gz" || titles["manual.html"] != "Pelican Manual" || len(titles) != 2 {
		t.Errorf("hits: %v", titles)
	}
	// Substring search is exact over the text: markup and scripts are not in it.
	equal(t, searchIDs(t, dir, 0, "--mode", "substring", "frobnicator & you"), []string{"manual.html"})
	searchIDs(t, dir, 1, "--mode", "substring", "<b>")
	searchIDs(t, dir, 1, "--mode", "substring", "var frob")
	r = twindex(t, dir, "get", "changelog.gz").want(t, 0)
	if !strings.HasSuffix(r.stdout, "\npelican 1.2: fixed the frobnicator\n") {
		t.Errorf("get changelog.gz:\n%s", r.stdout)
	}
}
