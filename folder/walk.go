package folder

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// fileEntry is one file a folder walk found.
type fileEntry struct {
	id    string // path relative to the root, '/' separators
	abs   string
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
	met      []metFile // files walkDir met and statMet has yet to stat
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
		if !w.dirsOnly {
			w.addFile(scopeID, scope, fi, true)
		}
		return nil
	}
	if err := w.walkDir(scope, scopeID, ig); err != nil {
		return err
	}
	w.statMet()
	return nil
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

func (w *walker) walkDir(dir, dirID string, ig *ignorer) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	// ReadDir sorts by name.
	ig = loadIgnores(ig, dir, dirID, func(name string) bool {
		_, found := slices.BinarySearchFunc(ents, name, func(de os.DirEntry, name string) int { return strings.Compare(de.Name(), name) })
		return found
	})
	for _, de := range ents {
		name := de.Name()
		abs := filepath.Join(dir, name)
		id := name
		if dirID != "" {
			id = dirID + "/" + name
		}
		if de.Type()&os.ModeSymlink != 0 {
			continue
		}
		if de.IsDir() && w.never(name, abs) {
			continue
		}
		if !utf8.ValidString(id) {
			w.res.badNames = append(w.res.badNames, abs)
			continue
		}
		if ig.ignored(id, de.IsDir()) {
			continue
		}
		if de.IsDir() {
			w.res.dirs = append(w.res.dirs, id)
			if err := w.walkDir(abs, id, ig); err != nil && !os.IsPermission(err) && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if !de.Type().IsRegular() || w.dirsOnly {
			continue
		}
		w.met = append(w.met, metFile{id, abs, de})
	}
	return nil
}

// metFile is a file walkDir met, to stat.
type metFile struct {
	id, abs string
	de      os.DirEntry
}

// statsPerWorker is the fewest files each goroutine of statMet stats.
const statsPerWorker = 256

// statMet stats the files walkDir met and adds them in the order met.
// A stat per file is most of a walk's time (12,000 files in the Go
// tree), so the stats are spread over GOMAXPROCS goroutines.
func (w *walker) statMet() {
	infos := make([]os.FileInfo, len(w.met))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(w.met)/statsPerWorker))
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			for i := k * len(w.met) / workers; i < (k+1)*len(w.met)/workers; i++ {
				infos[i], _ = w.met[i].de.Info() // nil: vanished since ReadDir
			}
		})
	}
	wg.Wait()
	for i, m := range w.met {
		if infos[i] != nil {
			w.addFile(m.id, m.abs, infos[i], false)
		}
	}
	w.met = w.met[:0]
}

func (w *walker) addFile(id, abs string, fi os.FileInfo, named bool) {
	if !fi.Mode().IsRegular() {
		return
	}
	if fi.Size() > w.maxSize {
		w.res.oversize = append(w.res.oversize, id)
		return
	}
	w.res.files = append(w.res.files, fileEntry{id: id, abs: abs, size: fi.Size(), mtime: fi.ModTime().UnixNano(), named: named})
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
