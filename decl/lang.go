package decl

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ident returns the end of the identifier that starts at line[i] (letters,
// digits, _ and, for JavaScript, $), or i when none starts there.
func ident(line string, i int, dollar bool) int {
	j := i
	for j < len(line) {
		c := line[j]
		if c < utf8.RuneSelf {
			if c == '_' || c == '$' && dollar || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > i && '0' <= c && c <= '9' {
				j++
				continue
			}
			break
		}
		r, size := utf8.DecodeRuneInString(line[j:])
		if !unicode.IsLetter(r) && !(j > i && unicode.IsDigit(r)) {
			break
		}
		j += size
	}
	return j
}

// skipSpace returns the offset of the first byte at or after i that is not
// a space or a tab.
func skipSpace(line string, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// word returns the identifier at line[i:] and the offset after the spaces
// that follow it.
func word(line string, i int) (w string, next int) {
	e := ident(line, i, false)
	return line[i:e], skipSpace(line, e)
}

// keyword reports whether line[i:] starts with kw followed by a space, and
// returns the offset after the spaces.
func keyword(line string, i int, kw string) (int, bool) {
	if !strings.HasPrefix(line[i:], kw) {
		return i, false
	}
	j := i + len(kw)
	if j < len(line) && line[j] != ' ' && line[j] != '\t' {
		return i, false
	}
	return skipSpace(line, j), true
}

// name adds the identifier at line[i:] (line starts at off) and returns
// the offset after it; i when there is none.
func (s *scanner) name(off int, line string, i int, dollar bool) int {
	e := ident(line, i, dollar)
	if e > i && line[i:e] != "_" {
		s.add(off+i, off+e)
	}
	return e
}

// goLine: top-level func (methods too), type, var and const, and the
// specs of their groups.
func (s *scanner) goLine(off int, line string) {
	if line == "" {
		return
	}
	if s.group {
		switch {
		case line[0] == ')':
			s.group = false
		case line[0] == '\t' && len(line) > 1 && line[1] != '\t' && line[1] != ' ':
			s.goNames(off, line, 1)
		}
		return
	}
	if i, ok := keyword(line, 0, "func"); ok {
		if i < len(line) && line[i] == '(' {
			// A method: the name follows the receiver.
			depth := 0
			for ; i < len(line); i++ {
				if line[i] == '(' {
					depth++
				} else if line[i] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			i = skipSpace(line, i+1)
		}
		if i < len(line) {
			s.name(off, line, i, false)
		}
		return
	}
	for _, kw := range []string{"type", "var", "const"} {
		if i, ok := keyword(line, 0, kw); ok {
			if strings.HasPrefix(line[i:], "(") {
				rest := strings.TrimSpace(line[i+1:])
				s.group = rest == "" || strings.HasPrefix(rest, "//")
				return
			}
			s.goNames(off, line, i)
			return
		}
	}
}

// goNames adds the names a spec starting at line[i:] declares: a, b = 1, 2
// declares both.
func (s *scanner) goNames(off int, line string, i int) {
	for {
		e := s.name(off, line, i, false)
		if e == i {
			return
		}
		i = skipSpace(line, e)
		if i >= len(line) || line[i] != ',' {
			return
		}
		i = skipSpace(line, i+1)
	}
}

// pythonLine: def and class at any depth, assignments at the top level.
func (s *scanner) pythonLine(off int, line string) {
	i := skipSpace(line, 0)
	if j, ok := keyword(line, i, "async"); ok {
		i = j
	}
	for _, kw := range []string{"def", "class"} {
		if j, ok := keyword(line, i, kw); ok {
			s.name(off, line, j, false)
			return
		}
	}
	if i > 0 {
		return
	}
	// NAME = value, NAME: type = value; not NAME == x.
	e := ident(line, 0, false)
	if e == 0 || isPythonKeyword(line[:e]) {
		return
	}
	j := skipSpace(line, e)
	if j < len(line) && (line[j] == ':' || line[j] == '=' && !strings.HasPrefix(line[j:], "==")) {
		s.name(off, line, 0, false)
	}
}

func isPythonKeyword(w string) bool {
	switch w {
	case "if", "elif", "else", "for", "while", "try", "except", "finally", "with", "return", "import", "from",
		"global", "nonlocal", "assert", "del", "pass", "raise", "yield", "lambda", "match", "case", "print":
		return true
	}
	return false
}

// jsModifiers may precede a JavaScript or TypeScript declaration.
var jsModifiers = []string{"export", "default", "declare", "abstract", "async", "public", "private", "protected",
	"static", "readonly", "override", "get", "set"}

// jsLine: function, class, interface, type, enum and namespace anywhere;
// const, let and var at the top level (or exported); methods of classes.
func (s *scanner) jsLine(off int, line string) {
	i := skipSpace(line, 0)
	indented, modified := i > 0, false
	for more := true; more; {
		more = false
		for _, m := range jsModifiers {
			if j, ok := keyword(line, i, m); ok && j < len(line) && line[j] != '(' && line[j] != '=' && line[j] != ':' {
				i, more, modified = j, true, true
				break
			}
		}
	}
	if j, ok := keyword(line, i, "function"); ok || strings.HasPrefix(line[i:], "function*") {
		if !ok {
			j = skipSpace(line, i+len("function*"))
		}
		if j < len(line) && line[j] == '*' {
			j = skipSpace(line, j+1)
		}
		s.name(off, line, j, true)
		return
	}
	for _, kw := range []string{"class", "interface", "type", "enum", "namespace"} {
		if j, ok := keyword(line, i, kw); ok {
			if kw == "type" && !strings.ContainsAny(line[j:], "=<") {
				return
			}
			s.name(off, line, j, true)
			return
		}
	}
	for _, kw := range []string{"const", "let", "var"} {
		if j, ok := keyword(line, i, kw); ok {
			if !indented || modified {
				s.name(off, line, j, true)
			}
			return
		}
	}
	if !indented {
		return
	}
	// A method: name(params) { or name(params): Type {, not a call or a
	// statement.
	start := i
	if i < len(line) && line[i] == '#' {
		i++
	}
	e := ident(line, i, true)
	if e == i || isJSKeyword(line[i:e]) {
		return
	}
	j := skipSpace(line, e)
	if j < len(line) && line[j] == '<' {
		j = strings.IndexByte(line[j:], '(') + j
	}
	rest := strings.TrimSpace(line)
	if j >= start && j < len(line) && line[j] == '(' && strings.HasSuffix(rest, "{") && !strings.Contains(line[:j], "=") {
		s.name(off, line, i, true)
	}
}

func isJSKeyword(w string) bool {
	switch w {
	case "if", "else", "for", "while", "do", "switch", "case", "catch", "try", "finally", "return", "throw",
		"new", "typeof", "await", "yield", "function", "with", "super", "this", "constructor", "delete", "void":
		return true
	}
	return false
}

// rustLine: fn, struct, enum, union, trait, type, const, static, mod and
// macro_rules!, at any depth (methods are indented in impl blocks).
func (s *scanner) rustLine(off int, line string) {
	i := skipSpace(line, 0)
	if strings.HasPrefix(line[i:], "pub(") {
		if j := strings.IndexByte(line[i:], ')'); j >= 0 {
			i = skipSpace(line, i+j+1)
		}
	}
	for more := true; more; {
		more = false
		for _, m := range []string{"pub", "async", "unsafe", "default", "extern"} {
			if j, ok := keyword(line, i, m); ok {
				i, more = j, true
				if m == "extern" && j < len(line) && line[j] == '"' {
					i = skipSpace(line, quoted(line, j))
				}
				break
			}
		}
		if j, ok := keyword(line, i, "const"); ok && strings.HasPrefix(line[j:], "fn") {
			i, more = j, true
		}
	}
	if strings.HasPrefix(line[i:], "macro_rules!") {
		s.name(off, line, skipSpace(line, i+len("macro_rules!")), false)
		return
	}
	for _, kw := range []string{"fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod"} {
		if j, ok := keyword(line, i, kw); ok {
			if kw == "static" {
				if k, ok := keyword(line, j, "mut"); ok {
					j = k
				}
			}
			s.name(off, line, j, false)
			return
		}
	}
}

// javaModifiers may precede a Java declaration.
var javaModifiers = []string{"public", "protected", "private", "static", "final", "abstract", "synchronized",
	"native", "default", "strictfp", "sealed", "non-sealed", "transient", "volatile"}

// javaLine: classes, interfaces, enums, records, and methods and
// constructors: [modifiers] [<T>] Type name( with no = before the (.
func (s *scanner) javaLine(off int, line string) {
	i := skipSpace(line, 0)
	modified := false
	for more := true; more; {
		more = false
		for _, m := range javaModifiers {
			if j, ok := keyword(line, i, m); ok {
				i, more, modified = j, true, true
				break
			}
		}
	}
	if strings.HasPrefix(line[i:], "@interface") {
		s.name(off, line, skipSpace(line, i+len("@interface")), false)
		return
	}
	for _, kw := range []string{"class", "interface", "enum", "record"} {
		if j, ok := keyword(line, i, kw); ok {
			s.name(off, line, j, false)
			return
		}
	}
	paren := strings.IndexByte(line, '(')
	if paren < i || strings.Contains(line[:paren], "=") {
		return
	}
	// The words before the parenthesis: a type (with generics, arrays and
	// dots) and the name, or the name alone for a constructor.
	head := strings.TrimSpace(line[i:paren])
	if strings.HasPrefix(head, "<") {
		if j := strings.IndexByte(head, '>'); j >= 0 {
			head = strings.TrimSpace(head[j+1:])
		}
	}
	sp := strings.LastIndexAny(head, " \t>]")
	if sp < 0 && !modified {
		return
	}
	first, _ := word(head, 0)
	if isJavaStatement(first) {
		return
	}
	nameAt := i + strings.LastIndex(line[i:paren], head) + sp + 1
	if e := ident(line, nameAt, false); e > nameAt && skipSpace(line, e) == paren {
		s.name(off, line, nameAt, false)
	}
}

func isJavaStatement(w string) bool {
	switch w {
	case "return", "new", "throw", "if", "else", "for", "while", "do", "switch", "case", "catch", "try",
		"synchronized", "assert", "yield", "super", "this", "import", "package":
		return true
	}
	return false
}

// cLine: #define, struct, union, enum and class definitions, typedefs,
// and function definitions whose header starts at column 0 and does not
// end with ; (a prototype).
func (s *scanner) cLine(off int, line string) {
	i := skipSpace(line, 0)
	if strings.HasPrefix(line[i:], "#") {
		j := skipSpace(line, i+1)
		if k, ok := keyword(line, j, "define"); ok {
			s.name(off, line, k, false)
		}
		return
	}
	rest := strings.TrimSpace(line)
	if strings.HasPrefix(rest, "}") {
		// The end of typedef struct { ... } Name;
		j := skipSpace(line, strings.IndexByte(line, '}')+1)
		if e := ident(line, j, false); e > j && strings.HasPrefix(strings.TrimSpace(line[e:]), ";") {
			s.name(off, line, j, false)
		}
		return
	}
	if i > 0 || rest == "" {
		return
	}
	typedef := false
	if j, ok := keyword(line, i, "typedef"); ok {
		i, typedef = j, true
	}
	if strings.HasPrefix(line[i:], "template") {
		if j := strings.IndexByte(line, '>'); j >= 0 {
			i = skipSpace(line, j+1)
		}
	}
	for _, kw := range []string{"struct", "union", "enum", "class"} {
		if j, ok := keyword(line, i, kw); ok {
			if k, ok := keyword(line, j, "class"); ok && kw == "enum" {
				j = k
			}
			e := ident(line, j, false)
			after := strings.TrimSpace(line[e:])
			if e > j && !strings.ContainsAny(line[e:], "();") && (after == "" || after[0] == '{' || after[0] == ':') {
				s.name(off, line, j, false)
				return
			}
		}
	}
	paren := strings.IndexByte(line, '(')
	if typedef {
		if paren >= 0 && strings.HasPrefix(line[paren:], "(*") {
			s.name(off, line, skipSpace(line, paren+2), false)
		} else if semi := strings.LastIndexByte(line, ';'); semi > 0 && paren < 0 {
			j := semi
			for j > 0 && ident(line, j-1, false) == semi {
				j--
			}
			s.name(off, line, j, false)
		}
		return
	}
	if paren <= 0 || strings.HasSuffix(rest, ";") || strings.ContainsAny(line[:paren], "=\"") {
		return
	}
	first, _ := word(line, i)
	if isCStatement(first) {
		return
	}
	// The identifier just before the parenthesis; Class::name gives name.
	j := paren
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	e := j
	for j > 0 && ident(line, j-1, false) == e {
		j--
	}
	if j < e && !isCStatement(line[j:e]) {
		s.name(off, line, j, false)
	}
}

func isCStatement(w string) bool {
	switch w {
	case "if", "else", "for", "while", "do", "switch", "case", "return", "sizeof", "goto", "break", "continue",
		"default", "extern", "using", "namespace", "public", "private", "protected":
		return true
	}
	return false
}

// markdown: ATX headings (# Title) and setext headings (Title over === or
// ---), outside fenced code blocks.
func (s *scanner) markdown(off int, line string) {
	prev, prevOff := s.prev, s.prevOff
	s.prev = ""
	trimmed := strings.TrimLeft(line, " ")
	if s.raw != "" {
		if strings.HasPrefix(trimmed, s.raw) {
			s.raw = ""
		}
		return
	}
	if len(line)-len(trimmed) > 3 {
		return // indented code
	}
	if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
		s.raw = trimmed[:3]
		return
	}
	if level := len(trimmed) - len(strings.TrimLeft(trimmed, "#")); level > 0 {
		text := trimmed[level:]
		if level <= 6 && (text == "" || text[0] == ' ' || text[0] == '\t') {
			text = strings.TrimRight(strings.TrimRight(strings.TrimSpace(text), "#"), " \t")
			if text != "" {
				start := off + len(line) - len(trimmed) + level + strings.Index(trimmed[level:], text)
				s.add(start, start+len(text))
			}
			return
		}
	}
	u := strings.TrimSpace(line)
	if prev != "" && len(u) >= 2 && (u[0] == '=' || u[0] == '-') && strings.Trim(u, u[:1]) == "" {
		text := strings.TrimSpace(prev)
		start := prevOff + strings.Index(prev, text)
		s.add(start, start+len(text))
		return
	}
	if u != "" {
		s.prev, s.prevOff = line, off
	}
}
