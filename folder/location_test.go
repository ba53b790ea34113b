package folder

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	tests := []struct {
		name     string
		setup    func(t *testing.T, top string) // top holds repo/ and mod/
		path     string                         // under top
		wantDir  string                         // under top, or "cache" for the user cache
		wantRoot string                         // under top
		exists   bool
	}{
		{"git subfolder: the repository's root", func(t *testing.T, top string) {
			mkdir(t, top, "repo/.git", "repo/src/deep")
		}, "repo/src/deep", "repo/.twindex", "repo", false},
		{"git worktree: .git is a file", func(t *testing.T, top string) {
			mkdir(t, top, "repo/src")
			writeFile(t, filepath.Join(top, "repo", ".git"), "gitdir: /elsewhere\n")
		}, "repo/src", "repo/.twindex", "repo", false},
		{"no repository: the folder itself", func(t *testing.T, top string) {
			mkdir(t, top, "plain/sub")
		}, "plain/sub", "plain/sub/.twindex", "plain/sub", false},
		{"a file: its folder", func(t *testing.T, top string) {
			writeFile(t, filepath.Join(top, "plain", "a.txt"), "x")
		}, "plain/a.txt", "plain/.twindex", "plain", false},
		{"an existing index in a subfolder wins over the repository", func(t *testing.T, top string) {
			mkdir(t, top, "repo/.git", "repo/src/.twindex", "repo/src/x")
		}, "repo/src/x", "repo/src/.twindex", "repo/src", true},
		{"an existing index above the repository is used", func(t *testing.T, top string) {
			mkdir(t, top, ".twindex", "repo/.git", "repo/src")
		}, "repo/src", ".twindex", "", true},
		{"read-only folder: the user cache", func(t *testing.T, top string) {
			mkdir(t, top, "ro")
			os.Chmod(filepath.Join(top, "ro"), 0o555)
			t.Cleanup(func() { os.Chmod(filepath.Join(top, "ro"), 0o755) })
		}, "ro", "cache", "ro", false},
		{"module cache: the user cache", func(t *testing.T, top string) {
			mkdir(t, top, "mod/example.com/m@v1.0.0/sub")
		}, "mod/example.com/m@v1.0.0", "cache", "mod/example.com/m@v1.0.0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			t.Setenv("HOME", cache)
			t.Setenv("GOMODCACHE", filepath.Join(top, "mod"))
			tt.setup(t, top)
			loc, err := Locate("", filepath.Join(top, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			wantRoot := filepath.Join(top, tt.wantRoot)
			wantDir := filepath.Join(top, tt.wantDir)
			if tt.wantDir == "cache" {
				wantDir, _ = cacheDir(wantRoot)
				if filepath.Dir(filepath.Dir(wantDir)) != cache || loc.Cached == "" {
					t.Errorf("cache dir %s (%q) not in %s", wantDir, loc.Cached, cache)
				}
			} else if loc.Cached != "" {
				t.Errorf("Cached %q for a writable folder", loc.Cached)
			}
			if loc.Dir != wantDir || loc.Root != wantRoot || loc.Exists != tt.exists || loc.Explicit {
				t.Fatalf("got %+v, want dir %s root %s exists %v", loc, wantDir, wantRoot, tt.exists)
			}

			// Once made, the same index is found again from the path.
			if err := loc.Prepare(); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(loc.Dir, "store.db"), "")
			if err := loc.RecordRoot(loc.Root); err != nil {
				t.Fatal(err)
			}
			again, err := Locate("", filepath.Join(top, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			if again.Dir != loc.Dir || again.Root != loc.Root || !again.Exists {
				t.Errorf("found again: %+v, want %+v", again, loc)
			}
			if tt.wantDir == "cache" {
				if got := recordedRoot(loc.Dir); got != wantRoot {
					t.Errorf("recorded root %q, want %q", got, wantRoot)
				}
			}
		})
	}
}

// The .gitignore of a new .twindex keeps it out of git status.
func TestPrepare(t *testing.T) {
	top := t.TempDir()
	loc, err := Locate("", top)
	if err != nil {
		t.Fatal(err)
	}
	if err := loc.Prepare(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(top, IndexDirName, ".gitignore")); err != nil || !slices.Contains(strings.Split(string(b), "\n"), "*") {
		t.Errorf(".gitignore: %q %v", b, err)
	}
}

func mkdir(t *testing.T, top string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
