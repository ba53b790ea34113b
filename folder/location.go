package folder

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// IndexDirName is the index folder at a root, like .git.
const IndexDirName = ".twindex"

// rootFile, inside an index directory given explicitly or kept in the
// user cache, records the folder its file IDs are relative to. The
// default .twindex/ needs none: its root is the folder holding it.
const rootFile = "cli-root"

// Location says where an index lives and which folder its file IDs are
// relative to.
type Location struct {
	Dir      string // the index directory
	Root     string // absolute folder file IDs are relative to; "" when unknown
	Explicit bool   // Dir was given (--index or $TWINDEX_INDEX), not found
	Exists   bool   // Dir holds an index already
	// Cached says why Dir is in the user cache folder rather than in
	// Root, after the root's name ("is read-only", "is in Go's module
	// cache"); "" when it is not.
	Cached string
}

// Locate finds the index for path: dir if it is not "" (a directory
// given explicitly; its root is the one recorded in it, or the folder
// holding it for an existing .twindex/), else the nearest index at or above path (a .twindex/
// folder, or the one kept in the user cache folder for a folder that
// cannot be written), else a new one (not created) for the root of the
// enclosing git repository, or for path itself outside one. A root that
// cannot be written (in Go's module cache, or a folder without write
// permission) gets its index in the user cache folder instead, so that
// searching a folder never modifies it.
//
// Cost: two or three stats per folder from path up to /.
func Locate(dir, path string) (Location, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Location{}, fmt.Errorf("path %s: %w", path, err)
	}
	if dir != "" {
		d, err := filepath.Abs(dir)
		if err != nil {
			return Location{}, fmt.Errorf("index %s: %w", dir, err)
		}
		loc := Location{Dir: d, Explicit: true, Exists: IsIndex(d), Root: recordedRoot(d)}
		if loc.Root == "" && filepath.Base(d) == IndexDirName {
			// A folder's own .twindex/: its file IDs are relative to
			// that folder, as when it was found by walking up.
			loc.Root = filepath.Dir(d)
		}
		return loc, nil
	}
	start := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		start = filepath.Dir(abs)
	}
	gitRoot := ""
	for d := start; ; {
		if fi, err := os.Stat(filepath.Join(d, IndexDirName)); err == nil && fi.IsDir() {
			return Location{Dir: filepath.Join(d, IndexDirName), Root: d, Exists: true}, nil
		}
		if c, err := cacheDir(d); err == nil && IsIndex(c) {
			return Location{Dir: c, Root: d, Exists: true, Cached: "has its index in the user cache"}, nil
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil && gitRoot == "" {
			gitRoot = d // a folder or, in worktrees and submodules, a file
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	root := start
	if gitRoot != "" {
		root = gitRoot
	}
	return At(root), nil
}

// At is the location of a new index for root: root/.twindex, or the user
// cache folder when root cannot be written.
func At(root string) Location {
	loc := Location{Dir: filepath.Join(root, IndexDirName), Root: root}
	if why := readOnly(root); why != "" {
		loc.useCache(why)
	}
	return loc
}

// useCache moves a new index to the user cache folder. When the cache
// folder is unknown ($HOME unset) the location stays, and creating it
// fails with the reason.
func (l *Location) useCache(why string) {
	if c, err := cacheDir(l.Root); err == nil {
		l.Dir, l.Cached = c, why
	}
}

// cacheDir is where the index of root goes when root cannot be written:
// os.UserCacheDir()/twindex/<name>-<hash of root>.
func cacheDir(root string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	name := filepath.Base(root)
	if name == string(filepath.Separator) || name == "." {
		name = "root"
	}
	return filepath.Join(base, "twindex", name+"-"+hex.EncodeToString(sum[:8])), nil
}

// readOnly says why an index cannot go in root, or "": root is in Go's
// module cache, whose files must stay as downloaded (go mod verify), or
// root's permissions deny writing to everyone, root included.
func readOnly(root string) string {
	if mc := modCache(); mc != "" {
		if _, in := RelID(mc, root); in {
			return "is in Go's module cache"
		}
	}
	if fi, err := os.Stat(root); err == nil && fi.Mode().Perm()&0o200 == 0 {
		return "is read-only"
	}
	return ""
}

// modCache is Go's module cache folder as `go env GOMODCACHE` reports it,
// read from the environment and Go's env file without running go.
func modCache() string {
	if v := goEnv("GOMODCACHE"); v != "" {
		return v
	}
	gopath := goEnv("GOPATH")
	if gopath == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		gopath = filepath.Join(home, "go")
	}
	first, _, _ := strings.Cut(gopath, string(filepath.ListSeparator))
	return filepath.Join(first, "pkg", "mod")
}

// goEnv reads a Go setting from the environment, else from the file `go
// env -w` writes.
func goEnv(key string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	file := os.Getenv("GOENV")
	if file == "" {
		cfg, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		file = filepath.Join(cfg, "go", "env")
	}
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Prepare makes the index directory before the index is opened to be
// written. A new .twindex/ gets a .gitignore holding "*", so it never
// shows in git status (one that lacks it gets it too); when the root
// turns out not to be writable, the location moves to the user cache
// folder and Cached says so.
func (l *Location) Prepare() error {
	if l.Explicit || l.Cached != "" {
		return os.MkdirAll(l.Dir, 0o755)
	}
	err := os.MkdirAll(l.Dir, 0o755)
	if denied(err) && !l.Exists {
		l.useCache("cannot be written")
		if l.Cached != "" {
			return os.MkdirAll(l.Dir, 0o755)
		}
	}
	if err != nil {
		return err
	}
	ign := filepath.Join(l.Dir, ".gitignore")
	if _, err := os.Lstat(ign); errors.Is(err, fs.ErrNotExist) {
		// An index that works without it is no reason to fail.
		_ = os.WriteFile(ign, []byte("# twindex's index: never committed\n*\n"), 0o644)
	}
	return nil
}

func denied(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// IsIndex reports whether dir holds an index.
func IsIndex(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "store.db"))
	return err == nil
}

func recordedRoot(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, rootFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// RecordRoot sets the root and remembers it in an index directory given
// explicitly or kept in the user cache.
func (l *Location) RecordRoot(root string) error {
	l.Root = root
	if !l.Explicit && l.Cached == "" {
		return nil
	}
	return os.WriteFile(filepath.Join(l.Dir, rootFile), []byte(root+"\n"), 0o644)
}

// RelID turns an absolute path under root into a document ID: the
// relative path with '/' separators, "" for root itself. It reports false
// for a path outside root.
func RelID(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	if rel == "." {
		return "", true
	}
	return filepath.ToSlash(rel), true
}
