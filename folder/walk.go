package folder

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"
)

// fileEntry is one file a folder walk found.
type fileEntry struct {
	id    string // path relative to the root, '/' separators
	size  int64
	mtime int64 // unix nanoseconds
	named bool  // the scope itself: its content is compared even if size and mtime are unchanged
}

// walkResult is what a folder walk found under its scope.
type walkResult struct {
	files    []fileEntry
	dirs     []string // folder IDs below the root, parents before children
	oversize []string // IDs of files over the size limit
	badNames []string // paths whose names are not valid UTF-8
}

// walker walks a folder below an index root, honoring .gitignore and
// .twindexignore files and skipping .git, index folders and symlinks.
type walker struct {
	root     string // absolute
	indexDir string // absolute; never walked
	maxSize  int64
	dirsOnly bool // list folders only (Folders): no file is looked at
	res      walkResult
}

// walk walks scope, an absolute path at or below the root (a folder or a
// single file). Ignore files of the folders between the root and scope
// apply too. A scope that does not exist has nothing in it.
func (w *walker) walk(scope string) error {
	scopeID, _ := RelID(w.root, scope)
	ig, _ := w.above(scopeID)
	fi, err := os.Lstat(scope)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if scopeID != "" && ig.ignored(scopeID, fi.IsDir()) {
		return nil
	}
	if !fi.IsDir() {
		if !w.dirsOnly && fi.Mode().IsRegular() {
			w.addFile(scopeID, fi.Size(), fi.ModTime().UnixNano(), true)
		}
		return nil
	}
	return w.walkTree(scope, scopeID, ig)
}

// above returns the ignore rules of the folders from the root down to
// the one holding the path with ID id, and whether one of those folders
// is itself ignored or never walked: then a walk of the root never
// reaches the path.
func (w *walker) above(id string) (*ignorer, bool) {
	ig := &ignorer{}
	if id == "" {
		return ig, false
	}
	out := false
	parts := strings.Split(id, "/")
	for i := range parts {
		dirID := strings.Join(parts[:i], "/")
		abs := filepath.Join(w.root, filepath.FromSlash(dirID))
		if i > 0 && (w.never(parts[i-1], abs) || ig.ignored(dirID, true)) {
			out = true
		}
		ig = loadIgnores(ig, abs, dirID, nil)
	}
	return ig, out
}

// never reports a folder no walk enters: .git, index folders.
func (w *walker) never(name, abs string) bool {
	return name == ".git" || name == IndexDirName || abs == w.indexDir
}

// ignoreFiles are the files whose rules apply to their folder and below.
var ignoreFiles = []string{".gitignore", ".twindexignore"}

// loadIgnores adds the rules of dir's ignore files to ig. has, when not
// nil, says which names dir holds, so that absent files cost nothing.
func loadIgnores(ig *ignorer, dir, dirID string, has func(name string) bool) *ignorer {
	for _, name := range ignoreFiles {
		if has != nil && !has(name) {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			ig = ig.with(dirID, data)
		}
	}
	return ig
}

// dirList is a folder a walk read: its entries that the walk keeps, in
// name order, or why it could not be read.
type dirList struct {
	entries []listed
	err     error
}

// dirEntry is an entry of a folder as readDir returns it: a file's size
// and mtime (unix nanoseconds) are set when stated is.
type dirEntry struct {
	name        string
	typ         fs.FileMode
	size, mtime int64
	stated      bool
}

// listed is one entry of a folder that a walk keeps: a regular file, a
// subfolder (sub), or a path that is not valid UTF-8 (bad, the path in
// id).
type listed struct {
	id          string
	size, mtime int64
	sub         *dirList
	bad         bool
}

// walkTree walks the folder dir (ID dirID) and everything below it that
// is walked. Folders are read on several goroutines at once, each
// stating its files where it holds the folder open (statFiles); then the
// lists are joined depth first in name order, so the result is what a
// walk in that order finds. A folder below dir that cannot be read for
// want of permission, that vanished or that became a file is skipped; any
// other error ends the walk.
//
// Cost: a read of every folder and a stat of every file, spread over
// GOMAXPROCS goroutines (the Go tree: 1,589 folders, 12,487 files).
func (w *walker) walkTree(dir, dirID string, ig *ignorer) error {
	top := &dirList{}
	var wg sync.WaitGroup
	w.list(top, dir, dirID, ig, &wg)
	wg.Wait()
	if top.err != nil {
		return top.err
	}
	return w.join(top)
}

// list reads the folder dir into l and starts a goroutine on wg for each
// subfolder that is walked.
func (w *walker) list(l *dirList, dir, dirID string, ig *ignorer, wg *sync.WaitGroup) {
	ents, err := readDir(dir, !w.dirsOnly)
	if err != nil {
		l.err = err
		return
	}
	ig = loadIgnores(ig, dir, dirID, func(name string) bool {
		_, found := slices.BinarySearchFunc(ents, name, func(e dirEntry, name string) int { return strings.Compare(e.name, name) })
		return found
	})
	for _, e := range ents {
		id := e.name
		if dirID != "" {
			id = dirID + "/" + e.name
		}
		isDir := e.typ.IsDir()
		var abs string // a file's is not needed: Sync makes it from its ID when it reads one
		if isDir || !utf8.ValidString(id) {
			abs = filepath.Join(dir, e.name)
		}
		switch {
		case e.typ&os.ModeSymlink != 0, isDir && w.never(e.name, abs):
			continue
		case !utf8.ValidString(id):
			l.entries = append(l.entries, listed{id: abs, bad: true})
			continue
		case ig.ignored(id, isDir):
			continue
		case isDir:
			sub := &dirList{}
			l.entries = append(l.entries, listed{id: id, sub: sub})
			wg.Go(func() { w.list(sub, abs, id, ig, wg) })
		case e.stated:
			l.entries = append(l.entries, listed{id: id, size: e.size, mtime: e.mtime})
		}
	}
}

// join adds what the lists below l found, depth first in name order.
func (w *walker) join(l *dirList) error {
	for _, e := range l.entries {
		switch {
		case e.bad:
			w.res.badNames = append(w.res.badNames, e.id)
		case e.sub != nil:
			w.res.dirs = append(w.res.dirs, e.id)
			if err := e.sub.err; err != nil {
				// It vanished, or became a file, since its parent was
				// read: it is gone as a folder.
				if os.IsPermission(err) || os.IsNotExist(err) || errors.Is(err, syscall.ENOTDIR) {
					continue
				}
				return err
			}
			if err := w.join(e.sub); err != nil {
				return err
			}
		default:
			w.addFile(e.id, e.size, e.mtime, false)
		}
	}
	return nil
}

// addFile adds a regular file, or notes it as over the size limit.
func (w *walker) addFile(id string, size, mtime int64, named bool) {
	if size > w.maxSize {
		w.res.oversize = append(w.res.oversize, id)
		return
	}
	w.res.files = append(w.res.files, fileEntry{id: id, size: size, mtime: mtime, named: named})
}

// isBinary reports a NUL byte in the first 8 KiB, as git and ripgrep do.
func isBinary(data []byte) bool {
	if len(data) > 8<<10 {
		data = data[:8<<10]
	}
	for _, c := range data {
		if c == 0 {
			return true
		}
	}
	return false
}

var codeExts = setOf(".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx", ".c", ".h", ".cc", ".cpp", ".cxx",
	".hpp", ".hh", ".rs", ".java", ".kt", ".kts", ".scala", ".rb", ".php", ".cs", ".swift", ".m", ".mm", ".sh",
	".bash", ".zsh", ".fish", ".ps1", ".lua", ".pl", ".pm", ".r", ".sql", ".hs", ".ml", ".mli", ".ex", ".exs",
	".erl", ".clj", ".dart", ".vue", ".svelte", ".css", ".scss", ".less", ".proto", ".s", ".asm", ".zig", ".nim",
	".jl", ".f90", ".v", ".sv", ".vhd", ".tf", ".groovy", ".gradle", ".cmake", ".mk", ".el", ".vim", ".wat")

var docExts = setOf(".md", ".markdown", ".txt", ".rst", ".adoc", ".asciidoc", ".html", ".htm", ".org", ".tex", ".man", ".1", ".pod", ".rtf")

var configExts = setOf(".json", ".jsonc", ".json5", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".xml",
	".properties", ".env", ".editorconfig", ".lock", ".mod", ".sum", ".plist")

var codeNames = setOf("makefile", "dockerfile", "gnumakefile", "rakefile", "gemfile", "justfile", "build", "workspace")

var docNames = setOf("readme", "license", "licence", "copying", "authors", "contributors", "changelog", "notice", "patents", "contributing")

func setOf(vals ...string) map[string]bool {
	m := make(map[string]bool, len(vals))
	for _, v := range vals {
		m[v] = true
	}
	return m
}

// kindOf classifies a file by its path: test, code, doc, config or other.
func kindOf(id string) string {
	name := path.Base(id)
	lower := strings.ToLower(name)
	ext := path.Ext(lower)
	stem := strings.TrimSuffix(lower, ext)
	isCode := codeExts[ext]
	if isCode {
		switch {
		case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"),
			strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"),
			strings.HasSuffix(stem, "_spec"), strings.HasSuffix(stem, "test") && ext == ".java":
			return "test"
		}
		for _, dir := range strings.Split(path.Dir(id), "/") {
			switch strings.ToLower(dir) {
			case "test", "tests", "__tests__", "spec":
				return "test"
			}
		}
		return "code"
	}
	switch {
	case docExts[ext] || docNames[stem]:
		return "doc"
	case configExts[ext] || strings.HasPrefix(lower, ".") && ext == lower && lower != "":
		return "config"
	case codeNames[lower] || codeNames[stem]:
		return "code"
	}
	return "other"
}

// Folders lists the folders a Sync of scope would walk: scope itself, if
// it is one, and every folder below it that is not ignored, .git, an
// index folder or a symbolic link, parents before children (absolute
// paths). A scope that does not exist or is ignored has none. Cost: a
// walk of the folders only, reading their ignore files.
func Folders(root, indexDir, scope string) ([]string, error) {
	if !isDirPath(scope) || Ignored(root, indexDir, scope, true) {
		return nil, nil
	}
	w := &walker{root: root, indexDir: indexDir, dirsOnly: true}
	if err := w.walk(scope); err != nil {
		return nil, &WalkError{Path: scope, Err: err}
	}
	out := []string{scope}
	for _, d := range w.res.dirs {
		out = append(out, filepath.Join(root, filepath.FromSlash(d)))
	}
	return out, nil
}

// Ignored reports whether a walk of the root never reaches p (absolute,
// under the root): it, or a folder above it, is ignored or never walked
// (.git, an index folder). isDir says whether p is a folder, for patterns
// that match only folders. A path outside the root is ignored.
func Ignored(root, indexDir, p string, isDir bool) bool {
	id, ok := RelID(root, p)
	if !ok {
		return true
	}
	if id == "" {
		return false
	}
	w := &walker{root: root, indexDir: indexDir}
	ig, out := w.above(id)
	return out || ig.ignored(id, isDir) || isDir && w.never(path.Base(id), p)
}
