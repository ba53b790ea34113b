package folder

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// IndexDirName is the index folder at a root, like .git.
const IndexDirName = ".twindex"

// rootFile, inside an index directory given explicitly, records the
// folder its file IDs are relative to. The default .twindex/ needs none:
// its root is the folder holding it.
const rootFile = "cli-root"

// Location says where an index lives and which folder its file IDs are
// relative to.
type Location struct {
	Dir      string // the index directory
	Root     string // absolute folder file IDs are relative to; "" when unknown
	Explicit bool   // Dir was given (--index or $TWINDEX_INDEX), not found
	Exists   bool   // Dir holds an index already
}

// Locate finds the index for path: dir if it is not "" (a directory
// given explicitly), else the nearest .twindex/ at or above path, else
// path/.twindex (not created).
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
		loc := Location{Dir: d, Explicit: true, Exists: IsIndex(d)}
		if b, err := os.ReadFile(filepath.Join(d, rootFile)); err == nil {
			loc.Root = strings.TrimSpace(string(b))
		}
		return loc, nil
	}
	start := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		start = filepath.Dir(abs)
	}
	for d := start; ; {
		if fi, err := os.Stat(filepath.Join(d, IndexDirName)); err == nil && fi.IsDir() {
			return Location{Dir: filepath.Join(d, IndexDirName), Root: d, Exists: true}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return Location{Dir: filepath.Join(start, IndexDirName), Root: start}, nil
}

// IsIndex reports whether dir holds an index.
func IsIndex(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "store.db"))
	return err == nil
}

// RecordRoot sets the root and remembers it in an explicit index
// directory.
func (l *Location) RecordRoot(root string) error {
	l.Root = root
	if !l.Explicit {
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
