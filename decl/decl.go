package decl

import (
	"path"
	"strings"
	"unicode/utf8"
)

// Lang is a language whose declarations Scan knows.
type Lang uint8

// The languages Scan knows; None scans only for a licence comment.
const (
	None Lang = iota
	Go
	Python
	JavaScript // and TypeScript
	Rust
	Java
	C // and C++
	Markdown
)

var langNames = [...]string{None: "", Go: "go", Python: "python", JavaScript: "javascript", Rust: "rust", Java: "java", C: "c", Markdown: "markdown"}

// String is the language's name in lower case; "" for None.
func (l Lang) String() string {
	if int(l) < len(langNames) {
		return langNames[l]
	}
	return ""
}

var byExt = map[string]Lang{
	".go": Go,
	".py": Python, ".pyi": Python,
	".js": JavaScript, ".mjs": JavaScript, ".cjs": JavaScript, ".jsx": JavaScript,
	".ts": JavaScript, ".tsx": JavaScript, ".mts": JavaScript, ".cts": JavaScript,
	".rs":   Rust,
	".java": Java,
	".c":    C, ".h": C, ".cc": C, ".cpp": C, ".cxx": C, ".hh": C, ".hpp": C, ".hxx": C,
	".md": Markdown, ".markdown": Markdown,
}

// LangOf returns the language of a file by its name's extension (case
// insensitive), or of a document whose kind names a language ("go",
// "python", "markdown", ...); None for anything else. Of several names
// (a document's ID, kind and title), the first that tells wins.
func LangOf(names ...string) Lang {
	for _, name := range names {
		if l, ok := langOfExt(path.Ext(name)); ok {
			return l
		}
		for l, n := range langNames {
			if n != "" && strings.EqualFold(name, n) {
				return Lang(l)
			}
		}
	}
	return None
}

// langOfExt looks ext up in byExt, case insensitively. An ASCII
// extension is lowered on the stack: a search asks the language of every
// hit (by its ID, kind and title), and strings.ToLower allocated for each
// that has an upper-case letter (bufio.Scanner).
func langOfExt(ext string) (Lang, bool) {
	var buf [16]byte
	if len(ext) > len(buf) || strings.ContainsFunc(ext, func(r rune) bool { return r >= utf8.RuneSelf }) {
		l, ok := byExt[strings.ToLower(ext)]
		return l, ok
	}
	b := buf[:len(ext)]
	for i := range len(ext) {
		c := ext[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	l, ok := byExt[string(b)]
	return l, ok
}

// Limits of what Scan returns.
const (
	MaxNames     = 4096 // names per document; the rest are dropped
	MaxNameBytes = 256  // a longer name (a long Markdown heading) is dropped
)

// Name is a declared name: Text is src[Start:End].
type Name struct {
	Text       string
	Start, End int
}

// File is what Scan finds in a document.
type File struct {
	// Names are the declared names (for Markdown, the headings' text),
	// in input order, duplicates kept.
	Names []Name
	// Boilerplate is the length of the licence comment the text starts
	// with: a block of comment lines, after an optional #! line and blank
	// lines, that mentions a copyright or a licence; 0 when there is none.
	// It ends at the end of a line, blank lines after the block included.
	Boilerplate int
}

// Scan returns the declarations and the licence comment of src, a
// document of language lang. Cost: one pass over src.
func Scan(lang Lang, src string) File {
	var f File
	f.Boilerplate = Boilerplate(lang, src)
	if lang != None {
		s := scanner{lang: lang, src: src, f: &f}
		s.run()
	}
	return f
}

// Find returns the first name of src (what Scan would return) for which
// want reports true. Cost: it reads src up to the end of that name's line.
func Find(lang Lang, src string, want func(name string) bool) (Name, bool) {
	if lang == None {
		return Name{}, false
	}
	var f File
	s := scanner{lang: lang, src: src, f: &f, want: want}
	s.run()
	if s.found < 0 {
		return Name{}, false
	}
	return f.Names[s.found], true
}

// run scans the lines of the source until its end, MaxNames names, or
// the name want asks for.
func (s *scanner) run() {
	src, f := s.src, s.f
	s.found = -1
	for start := 0; start < len(src) && len(f.Names) < MaxNames && s.found < 0; {
		end := strings.IndexByte(src[start:], '\n')
		next := len(src)
		if end < 0 {
			end = len(src)
		} else {
			end += start
			next = end + 1
		}
		line := strings.TrimSuffix(src[start:end], "\r")
		s.line(start, line)
		start = next
	}
}

// scanner holds the state carried from line to line: an open block
// comment, multi-line string or fenced code block, and Go's open
// declaration group.
type scanner struct {
	lang  Lang
	src   string
	f     *File
	block bool   // inside /* */
	raw   string // the delimiter that closes an open multi-line string or code fence
	group bool   // Go: inside type ( ... ), var ( ... ) or const ( ... )
	// Markdown: the line before and its offset, for setext headings.
	prev    string
	prevOff int
	// want, for Find, asks for a name; found is its index in f.Names,
	// -1 until then.
	want  func(string) bool
	found int
}

func (s *scanner) add(start, end int) {
	if end <= start || end-start > MaxNameBytes || len(s.f.Names) >= MaxNames {
		return
	}
	s.f.Names = append(s.f.Names, Name{Text: s.src[start:end], Start: start, End: end})
	if s.want != nil && s.found < 0 && s.want(s.src[start:end]) {
		s.found = len(s.f.Names) - 1
	}
}

// line scans one line, which starts at byte off of the source: its
// declaration, when it starts as code, then the comments and strings it
// opens or closes.
func (s *scanner) line(off int, line string) {
	if s.lang == Markdown {
		s.markdown(off, line)
		return
	}
	if !s.block && s.raw == "" {
		switch s.lang {
		case Go:
			s.goLine(off, line)
		case Python:
			s.pythonLine(off, line)
		case JavaScript:
			s.jsLine(off, line)
		case Rust:
			s.rustLine(off, line)
		case Java:
			s.javaLine(off, line)
		case C:
			s.cLine(off, line)
		}
	}
	s.lex(line)
}

// lex follows the comments and strings of one line, so that the next line
// is known to start inside a block comment or a multi-line string or not.
func (s *scanner) lex(line string) {
	python := s.lang == Python
	for i := 0; i < len(line); {
		switch {
		case s.block:
			j := strings.Index(line[i:], "*/")
			if j < 0 {
				return
			}
			s.block, i = false, i+j+2
			continue
		case s.raw != "":
			j := strings.Index(line[i:], s.raw)
			if j < 0 {
				return
			}
			i += j + len(s.raw)
			s.raw = ""
			continue
		}
		for i < len(line) && !special[line[i]] {
			i++
		}
		if i == len(line) {
			return
		}
		c := line[i]
		switch {
		case python && c == '#', !python && c == '/' && strings.HasPrefix(line[i:], "//"):
			return
		case !python && c == '/' && strings.HasPrefix(line[i:], "/*"):
			s.block, i = true, i+2
		case python && (strings.HasPrefix(line[i:], `"""`) || strings.HasPrefix(line[i:], "'''")):
			s.raw, i = line[i:i+3], i+3
		case c == '`' && (s.lang == Go || s.lang == JavaScript):
			s.raw, i = "`", i+1
		case c == '"' || c == '\'' && (python || s.lang == JavaScript):
			i = quoted(line, i)
		case c == '\'':
			// A character literal ('x', '\n', '\u00e9'); a Rust lifetime
			// ('a) has no closing quote near and is skipped as a quote.
			if j := strings.IndexByte(line[i+1:min(len(line), i+12)], '\''); j >= 0 && (j > 0 || line[i+1] == '\'') {
				i = quoted(line, i)
			} else {
				i++
			}
		default:
			i++
		}
	}
}

// special marks the bytes that may open or close a comment or a string.
var special = func() (t [256]bool) {
	for _, c := range "/\"'`#" {
		t[c] = true
	}
	return t
}()

// quoted returns the offset after the string that starts with the quote at
// line[i], or the line's end when it does not close on the line.
func quoted(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(line)
}

// Boilerplate returns File.Boilerplate of src alone. Cost: it reads the
// licence comment's lines, at most 16 KiB.
func Boilerplate(lang Lang, src string) int {
	if lang == Markdown {
		return 0
	}
	const scanLimit = 16 << 10 // a licence comment longer than this is a document
	pos := 0
	// A #! line and blank lines may come first.
	for first := true; pos < len(src); first = false {
		line := strings.TrimSpace(src[pos : pos+lineLen(src[pos:])])
		if line != "" && !(first && strings.HasPrefix(line, "#!")) {
			break
		}
		pos += lineLen(src[pos:])
	}
	start, block := pos, false
	for pos < len(src) && pos-start < scanLimit {
		line := strings.TrimSpace(src[pos : pos+lineLen(src[pos:])])
		switch {
		case block:
			block = !strings.Contains(line, "*/")
		case isComment(lang, line):
			block = strings.HasPrefix(line, "/*") && !strings.Contains(line[2:], "*/")
		default:
			return licence(src, start, pos)
		}
		pos += lineLen(src[pos:])
	}
	if block || pos-start >= scanLimit {
		return 0
	}
	return licence(src, start, pos)
}

// lineLen is the length of the first line of s, its newline included.
func lineLen(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i + 1
	}
	return len(s)
}

// licence returns the end of the comment block src[start:end] and the
// blank lines after it when the block mentions a copyright or a licence,
// else 0.
func licence(src string, start, end int) int {
	if end == start {
		return 0
	}
	c := strings.ToLower(src[start:end])
	if !strings.Contains(c, "copyright") && !strings.Contains(c, "licens") && !strings.Contains(c, "licenc") &&
		!strings.Contains(c, "all rights reserved") {
		return 0
	}
	for end < len(src) && strings.TrimSpace(src[end:end+lineLen(src[end:])]) == "" {
		end += lineLen(src[end:])
	}
	return end
}

// isComment reports whether a trimmed line is a comment line in lang; for
// None, in any of the common styles.
func isComment(lang Lang, line string) bool {
	slashes := strings.HasPrefix(line, "//") || strings.HasPrefix(line, "/*")
	switch lang {
	case Python:
		return strings.HasPrefix(line, "#")
	case None:
		return slashes || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "<!--") || strings.HasPrefix(line, "--") || strings.HasPrefix(line, ";")
	}
	return slashes
}
