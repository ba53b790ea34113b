package folder

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// fileEntry is one file a folder walk found.
type fileEntry struct {
	id    string // path relative to the root, '/' separators
	abs   string
	size  int64
	mtime int64 // unix nanoseconds
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
	res      walkResult
}

// walk walks scope, an absolute path at or below the root (a folder or a
// single file). Ignore files of the folders between the root and scope
// apply too.
func (w *walker) walk(scope string) error {
	scopeID, _ := RelID(w.root, scope)
	ig := &ignorer{}
	// Ignore files above scope, root first.
	var chain []string
	if scopeID != "" {
		parts := strings.Split(scopeID, "/")
		for i := range parts {
			chain = append(chain, strings.Join(parts[:i], "/"))
		}
	}
	for _, dirID := range chain {
		ig = loadIgnores(ig, filepath.Join(w.root, filepath.FromSlash(dirID)), dirID)
	}
	fi, err := os.Lstat(scope)
	if err != nil {
		return err
	}
	if scopeID != "" && ig.ignored(scopeID, fi.IsDir()) {
		return nil
	}
	if !fi.IsDir() {
		w.addFile(scopeID, scope, fi)
		return nil
	}
	return w.walkDir(scope, scopeID, ig)
}

func loadIgnores(ig *ignorer, dir, dirID string) *ignorer {
	for _, name := range []string{".gitignore", ".twindexignore"} {
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
	ig = loadIgnores(ig, dir, dirID)
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
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
		if de.IsDir() && (name == ".git" || name == IndexDirName || abs == w.indexDir) {
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
		if !de.Type().IsRegular() {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // vanished since ReadDir
		}
		w.addFile(id, abs, fi)
	}
	return nil
}

func (w *walker) addFile(id, abs string, fi os.FileInfo) {
	if !fi.Mode().IsRegular() {
		return
	}
	if fi.Size() > w.maxSize {
		w.res.oversize = append(w.res.oversize, id)
		return
	}
	w.res.files = append(w.res.files, fileEntry{id: id, abs: abs, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
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
