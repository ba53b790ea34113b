package folder

import (
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ids lists the documents of ix.
func ids(t *testing.T, ix *index.Index) []string {
	t.Helper()
	var out []string
	if err := ix.WalkMeta(context.Background(), nil, func(id []byte, _ [][]byte) error {
		out = append(out, string(id))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// openIndex opens the index of a folder at root, closed when the test
// ends.
func openIndex(t *testing.T, root string) *index.Index {
	t.Helper()
	ix, err := index.Open(filepath.Join(root, IndexDirName), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// Sync with several scopes, some gone, some inside others, and a file
// rewritten within the same mtime: what a watcher hands it.
func TestSyncScopes(t *testing.T) {
	root := t.TempDir()
	ix := openIndex(t, root)
	ctx := context.Background()
	o := &Options{Root: root, IndexDir: filepath.Join(root, IndexDirName)}
	writeFile(t, filepath.Join(root, "a", "x.txt"), "one")
	writeFile(t, filepath.Join(root, "a", "b", "y.txt"), "two")
	writeFile(t, filepath.Join(root, "c", "z.txt"), "three")
	writeFile(t, filepath.Join(root, ".gitignore"), "out/\n")
	writeFile(t, filepath.Join(root, "out", "gen.txt"), "generated")
	if _, err := Sync(ctx, ix, o); err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "a", "a/b", "a/b/y.txt", "a/x.txt", "c", "c/z.txt"}
	if got := ids(t, ix); !slices.Equal(got, want) {
		t.Fatalf("first sync: %v, want %v", got, want)
	}

	// Same size, same mtime, new content: a named file is hashed anyway.
	x := filepath.Join(root, "a", "x.txt")
	fi, _ := os.Stat(x)
	writeFile(t, x, "uno")
	os.Chtimes(x, fi.ModTime(), fi.ModTime())
	os.RemoveAll(filepath.Join(root, "a", "b"))
	os.RemoveAll(filepath.Join(root, "c"))
	rep, err := Sync(ctx, ix, o, x, filepath.Join(root, "a", "b"), filepath.Join(root, "a", "b", "y.txt"), filepath.Join(root, "c"), x)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Written != 1 || rep.Removed != 4 {
		t.Errorf("report %+v, want 1 written, 4 removed", rep)
	}
	want = []string{".gitignore", "a", "a/x.txt"}
	if got := ids(t, ix); !slices.Equal(got, want) {
		t.Fatalf("after the scoped sync: %v, want %v", got, want)
	}
	if d, err := ix.Get("a/x.txt"); err != nil || d.Body != "uno" {
		t.Errorf("a/x.txt: %v %v", d, err)
	}

	// A scope under a folder that is gone leaves no folder document.
	if _, err := Sync(ctx, ix, o, filepath.Join(root, "gone", "deeper", "f.txt")); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, ix); !slices.Equal(got, want) {
		t.Errorf("a vanished path's folders were written: %v", got)
	}
	if _, err := Sync(ctx, ix, o, t.TempDir()); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("a scope outside the root: %v", err)
	}
}

// A touched file (new mtime, same content) is written once with its new
// mtime and Time, then left alone: before, its mtime was never stored and
// every sync read and hashed it again.
func TestSyncStoresTouch(t *testing.T) {
	root := t.TempDir()
	ix := openIndex(t, root)
	ctx := context.Background()
	o := &Options{Root: root, IndexDir: filepath.Join(root, IndexDirName)}
	p := filepath.Join(root, "notes.txt")
	writeFile(t, p, "pelican")
	if _, err := Sync(ctx, ix, o); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	for i, want := range []Report{{Written: 1}, {Unchanged: 1}} {
		rep, err := Sync(ctx, ix, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Written != want.Written || rep.Unchanged != want.Unchanged {
			t.Errorf("sync %d after the touch: %d written, %d unchanged; want %d, %d", i+1, rep.Written, rep.Unchanged, want.Written, want.Unchanged)
		}
	}
	d, err := ix.Get("notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	if d.Meta[metaMtime] != strconv.FormatInt(later.UnixNano(), 10) || !d.Time.Equal(later) {
		t.Errorf("stored mtime %s, time %s; want %d, %s", d.Meta[metaMtime], d.Time, later.UnixNano(), later)
	}
}

// Files are indexed as extract reads them: .gz decompressed, HTML by its
// text; a bad .gz is reported and skipped, and one whose text is over
// the size limit is reported as oversize.
func TestSyncExtracts(t *testing.T) {
	root := t.TempDir()
	ix := openIndex(t, root)
	gzipped := func(s string) string {
		var b strings.Builder
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.String()
	}
	writeFile(t, filepath.Join(root, "changelog.Debian.gz"), gzipped("pelican release\n"))
	writeFile(t, filepath.Join(root, "site", "index.html"), "<title>Home</title><p>pelican <b>page</b></p><script>secret()</script>")
	writeFile(t, filepath.Join(root, "bad.gz"), "not gzip at all")
	writeFile(t, filepath.Join(root, "big.txt.gz"), gzipped(strings.Repeat("x", 2000)))
	rep, err := Sync(context.Background(), ix, &Options{Root: root, IndexDir: filepath.Join(root, IndexDirName), MaxSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Invalid) != 1 || rep.Invalid[0].ID != "bad.gz" || !strings.Contains(rep.Invalid[0].Reason, "gzip") {
		t.Errorf("invalid: %+v", rep.Invalid)
	}
	if !slices.Equal(rep.Oversize, []string{"big.txt.gz"}) {
		t.Errorf("oversize: %v", rep.Oversize)
	}
	for id, want := range map[string]index.Doc{
		"changelog.Debian.gz": {Kind: "doc", Title: "changelog.Debian.gz", Body: "pelican release\n"},
		"site/index.html":     {Kind: "doc", Title: "Home", Body: "pelican page"},
	} {
		d, err := ix.Get(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if d.Kind != want.Kind || d.Title != want.Title || d.Body != want.Body {
			t.Errorf("%s: %q %q %q, want %q %q %q", id, d.Kind, d.Title, d.Body, want.Kind, want.Title, want.Body)
		}
	}
}

func TestOutermost(t *testing.T) {
	got := outermost([]string{"/r/a/b", "/r/a-b", "/r/a", "/r/a/b/c", "/r/a-b/", "/r/z"})
	if want := []string{"/r/a", "/r/a-b", "/r/z"}; !slices.Equal(got, want) {
		t.Errorf("outermost: %v, want %v", got, want)
	}
}

func TestFoldersAndIgnored(t *testing.T) {
	root := t.TempDir()
	indexDir := filepath.Join(root, IndexDirName)
	writeFile(t, filepath.Join(root, ".gitignore"), "node_modules/\n*.log\n")
	for _, d := range []string{"src/a", "node_modules/x", ".git/objects", IndexDirName + "/text"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Folders(root, indexDir, root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{root, filepath.Join(root, "src"), filepath.Join(root, "src", "a")}
	if !slices.Equal(got, want) {
		t.Errorf("Folders: %v, want %v", got, want)
	}
	if got, _ := Folders(root, indexDir, filepath.Join(root, "node_modules", "x")); got != nil {
		t.Errorf("Folders of an ignored folder: %v", got)
	}
	tests := []struct {
		path    string
		dir     bool
		ignored bool
	}{
		{"src/a/f.go", false, false},
		{"src/debug.log", false, true},
		{"node_modules", true, true},
		{"node_modules/x/y.js", false, true},
		{".git/HEAD", false, true},
		{IndexDirName + "/store.db", false, true},
		{IndexDirName, true, true},
		{"", true, false},
	}
	for _, tt := range tests {
		if got := Ignored(root, indexDir, filepath.Join(root, tt.path), tt.dir); got != tt.ignored {
			t.Errorf("Ignored(%q) = %v, want %v", tt.path, got, tt.ignored)
		}
	}
	if !Ignored(root, indexDir, t.TempDir(), true) {
		t.Error("a path outside the root is not ignored")
	}
}

// TestSyncWhileFilesChange syncs a folder while another goroutine
// removes folders, puts files where they were and makes them again: no
// sync fails, and one after the changes leaves the index as the folder
// is.
func TestSyncWhileFilesChange(t *testing.T) {
	root := t.TempDir()
	ix := openIndex(t, root)
	ctx := context.Background()
	sub := func(i int) string { return filepath.Join(root, "d"+strconv.Itoa(i%8), "s"+strconv.Itoa(i%3)) }
	for i := range 24 {
		writeFile(t, filepath.Join(sub(i), "f.go"), "package f // pelican")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 150 {
			os.RemoveAll(sub(i))
			if i%2 == 0 {
				os.WriteFile(sub(i), []byte("pelican, a file now"), 0o644)
				os.Remove(sub(i))
			}
			os.MkdirAll(sub(i), 0o755)
			os.WriteFile(filepath.Join(sub(i), "g"+strconv.Itoa(i%4)+".go"), []byte("package g // pelican"), 0o644)
		}
	}()
	o := &Options{Root: root, IndexDir: filepath.Join(root, IndexDirName)}
	syncs := 0
	for running := true; running; syncs++ {
		select {
		case <-done:
			running = false
		default:
		}
		if _, err := Sync(ctx, ix, o); err != nil {
			t.Fatalf("sync %d: %v", syncs, err)
		}
	}
	t.Logf("%d syncs beside the changes", syncs)
	// The index now holds the folder's files and folders, no more.
	var want []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		if d.Name() == IndexDirName {
			return filepath.SkipDir
		}
		id, _ := RelID(root, p)
		want = append(want, id)
		return nil
	})
	slices.Sort(want)
	if got := ids(t, ix); !slices.Equal(got, want) {
		t.Errorf("after %d syncs beside the changes the index holds %q, the folder %q", syncs, got, want)
	}
}
