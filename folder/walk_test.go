package folder

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestKindOf(t *testing.T) {
	tests := map[string]string{
		"main.go": "code", "index/search_test.go": "test", "pkg/test_api.py": "test", "web/app.test.js": "test",
		"tests/helpers.py": "test", "src/test/Foo.java": "test", "README.md": "doc", "docs/guide.rst": "doc",
		"LICENSE": "doc", "site/index.html": "doc", "go.mod": "config", "cfg/app.yaml": "config", "package.json": "config",
		"Makefile": "code", "logo.svg": "other", "data.bin": "other", ".gitignore": "config",
	}
	for id, want := range tests {
		if got := kindOf(id); got != want {
			t.Errorf("kindOf(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestWalkIsDepthFirst checks that the walk, which reads folders on
// several goroutines, finds what a depth-first walk in name order finds, in that
// order: filepath.WalkDir with Ignored deciding each path, on a tree of
// 400 folders with ignore files at three depths, symbolic links, files
// over the size limit, names that are not UTF-8 and an index folder.
func TestWalkIsDepthFirst(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	root := t.TempDir()
	indexDir := filepath.Join(root, IndexDirName)
	writeFile(t, filepath.Join(root, ".gitignore"), "*.log\nbuild/\n")
	writeFile(t, filepath.Join(indexDir, "store.db"), "x")
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref")
	for a := range 8 {
		for b := range 10 {
			dir := filepath.Join(root, fmt.Sprintf("a%d", a), fmt.Sprintf("b%d", b))
			if b == 3 {
				writeFile(t, filepath.Join(dir, ".twindexignore"), "c1/\n!keep.log\n")
			}
			for c := range 4 {
				sub := filepath.Join(dir, fmt.Sprintf("c%d", c))
				writeFile(t, filepath.Join(sub, "f.go"), "package f")
				writeFile(t, filepath.Join(sub, "x.log"), "log")
				writeFile(t, filepath.Join(sub, "keep.log"), "kept")
				if c == 2 {
					writeFile(t, filepath.Join(sub, "build", "out.go"), "ignored")
					writeFile(t, filepath.Join(sub, "big.txt"), string(make([]byte, 200)))
					if err := os.Symlink(filepath.Join(sub, "f.go"), filepath.Join(sub, "link.go")); err != nil {
						t.Fatal(err)
					}
					writeFile(t, filepath.Join(sub, "bad\xffname", "g.go"), "package g")
				}
			}
			writeFile(t, filepath.Join(dir, "z.md"), "# z")
		}
	}

	w := &walker{root: root, indexDir: indexDir, maxSize: 100}
	if err := w.walk(root); err != nil {
		t.Fatal(err)
	}

	var want walkResult
	err := filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		id, _ := RelID(root, p)
		switch {
		case p == root || de.Type()&fs.ModeSymlink != 0:
			return nil
		case !utf8.ValidString(id):
			want.badNames = append(want.badNames, p)
			if de.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case Ignored(root, indexDir, p, de.IsDir()):
			if de.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case de.IsDir():
			want.dirs = append(want.dirs, id)
			return nil
		}
		fi, err := de.Info()
		if err != nil {
			return err
		}
		if fi.Size() > 100 {
			want.oversize = append(want.oversize, id)
		} else {
			want.files = append(want.files, fileEntry{id: id, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.files) < 400 || len(want.dirs) < 400 || len(want.oversize) == 0 || len(want.badNames) == 0 {
		t.Fatalf("the tree is not what the test means to walk: %d files, %d folders, %d over the limit, %d bad names",
			len(want.files), len(want.dirs), len(want.oversize), len(want.badNames))
	}
	if !slices.Equal(w.res.files, want.files) {
		t.Errorf("files differ: %d, want %d", len(w.res.files), len(want.files))
		for i := range min(len(w.res.files), len(want.files)) {
			if w.res.files[i] != want.files[i] {
				t.Errorf("first difference at %d: %+v, want %+v", i, w.res.files[i], want.files[i])
				break
			}
		}
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{{"folders", w.res.dirs, want.dirs}, {"over the limit", w.res.oversize, want.oversize}, {"bad names", w.res.badNames, want.badNames}} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

// TestWalkWhileFilesChange walks a tree while another goroutine removes
// folders, makes them again, and puts files where folders were: what an
// editor, a build or a checkout does beside a sync. A walk skips what
// vanished or changed kind under it; it never fails for it.
func TestWalkWhileFilesChange(t *testing.T) {
	root := t.TempDir()
	dirs := 40
	fill := func(d int) {
		for f := range 10 {
			writeFile(t, filepath.Join(root, fmt.Sprintf("d%02d", d), fmt.Sprintf("s%d", f%3), fmt.Sprintf("f%d.go", f)), "package f")
		}
	}
	for d := range dirs {
		fill(d)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 400 {
			dir := filepath.Join(root, fmt.Sprintf("d%02d", i%dirs))
			sub := filepath.Join(dir, fmt.Sprintf("s%d", i%3))
			os.RemoveAll(sub)
			if i%2 == 0 {
				os.WriteFile(sub, []byte("now a file"), 0o644) // a folder become a file
			}
			os.RemoveAll(sub)
			for f := range 4 {
				os.MkdirAll(sub, 0o755)
				os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%d.go", f)), []byte("package f"), 0o644)
			}
		}
	}()
	walks := 0
	for running := true; running; walks++ {
		select {
		case <-done:
			running = false
		default:
		}
		w := &walker{root: root, indexDir: filepath.Join(root, IndexDirName), maxSize: 1 << 20}
		if err := w.walk(root); err != nil {
			t.Fatalf("walk %d: %v", walks, err)
		}
	}
	t.Logf("%d walks beside the changes", walks)
}

// TestReadDirAgrees holds readDir (on unix, fstatat on the open folder)
// to readDirOS (os.ReadDir and Lstat, what other systems use): the same
// entries in name order, types, sizes and mtimes, on a folder of files,
// folders, an empty file, a symbolic link to a file and one to nothing.
func TestReadDirAgrees(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "b.go"), "package b")
	writeFile(t, filepath.Join(dir, "a.txt"), strings.Repeat("x", 5000))
	writeFile(t, filepath.Join(dir, "empty"), "")
	writeFile(t, filepath.Join(dir, "sub", "c.go"), "package c")
	old := time.Date(2001, 2, 3, 4, 5, 6, 789, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "b.go"), old, old); err != nil {
		t.Fatal(err)
	}
	for _, link := range []struct{ name, to string }{{"link.go", "b.go"}, {"dangling", "nothing"}} {
		if err := os.Symlink(link.to, filepath.Join(dir, link.name)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	for _, stat := range []bool{true, false} {
		got, err := readDir(dir, stat)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readDirOS(dir, stat)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) || len(got) != 6 {
			t.Errorf("statFiles %v: readDir %+v\nreadDirOS %+v", stat, got, want)
		}
		if stat && (!got[1].stated || got[1].mtime != old.UnixNano() || got[0].size != 5000) {
			t.Errorf("sizes and times: %+v", got)
		}
	}
	if _, err := readDir(filepath.Join(dir, "b.go"), true); err == nil {
		t.Error("readDir of a file: no error")
	}
}
