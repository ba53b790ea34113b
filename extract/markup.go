package extract

import (
	"bytes"
	"html"
	"strings"
)

// inline elements run on within a line; every other element starts one
// (a block), as a browser lays them out. DocBook's inline elements are
// here too.
var inline = setOf("a", "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em",
	"font", "i", "img", "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub",
	"sup", "time", "tt", "u", "var", "wbr", "nobr",
	"emphasis", "literal", "command", "filename", "replaceable", "option", "function", "varname", "quote",
	"userinput", "computeroutput", "envar", "parameter", "constant", "classname", "type", "ulink", "link", "xref",
	"citerefentry", "refentrytitle", "manvolnum", "application", "acronym", "firstterm", "systemitem", "keycap")

// cells are separated by a space, not a line.
var cells = setOf("td", "th")

// skipped elements' content is never text.
var skipped = setOf("script", "style", "template", "svg:script", "svg:style")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Markup returns the title and the text of an HTML or XML document: tags,
// comments, declarations, and the content of script, style and template
// elements dropped; entities decoded (a non-breaking space becomes a
// space); CDATA sections kept as text; whitespace collapsed as a browser
// does, except in <pre>; one line per block element. The first <title> is
// the title; its text is in the body too in DocBook and feeds, whose
// titles are headings, never in HTML. Broken markup
// (a tag never closed, a stray '<') loses the least text it can.
//
// Cost: linear in len(data).
func Markup(data []byte) (title, text string) {
	var w textWriter
	haveTitle := false
	// A browser never shows an HTML <title>; in DocBook and feeds titles
	// are the text's own headings.
	root := rootElement(data)
	titleIsText := docRoots[root] && root != "html" && root != "svg"
	for i := 0; i < len(data); {
		if data[i] != '<' {
			j := bytes.IndexByte(data[i:], '<')
			if j < 0 {
				j = len(data) - i
			}
			w.text(html.UnescapeString(string(data[i : i+j])))
			i += j
			continue
		}
		rest := data[i+1:]
		switch {
		case bytes.HasPrefix(rest, []byte("!--")):
			i = after(data, i+4, "-->")
		case bytes.HasPrefix(rest, []byte("![CDATA[")):
			start := i + 9
			end := bytes.Index(data[start:], []byte("]]>"))
			if end < 0 {
				end = len(data) - start
			}
			w.text(string(data[start : start+end]))
			i = min(start+end+3, len(data))
		case len(rest) > 0 && (rest[0] == '!' || rest[0] == '?'):
			i = after(data, i+1, ">")
		case len(rest) > 1 && rest[0] == '/' && isNameStart(rest[1]):
			name := tagName(rest[1:])
			i = tagEnd(data, i+2)
			switch {
			case name == "pre":
				w.pre = max(w.pre-1, 0)
				w.block()
			case cells[name]:
				w.space()
			case !inline[name]:
				w.block()
			}
		case len(rest) > 0 && isNameStart(rest[0]):
			name := tagName(rest)
			end := tagEnd(data, i+1)
			selfClosing := end >= 2 && data[end-2] == '/' && data[end-1] == '>'
			i = end
			if selfClosing {
				if !inline[name] && !cells[name] {
					w.block()
				}
				continue
			}
			switch {
			case skipped[name]:
				i = closeTag(data, i, name)
			case name == "title":
				close := closeTagStart(data, i, "title")
				t := collapse(html.UnescapeString(stripTags(data[i:close])))
				i = tagEnd(data, close+2)
				if !haveTitle {
					title, haveTitle = t, true
				}
				if titleIsText {
					w.block()
					w.text(t)
					w.block()
				}
			case name == "br":
				w.newline()
			case name == "pre":
				w.block()
				w.pre++
			case cells[name]:
				w.space()
			case !inline[name]:
				w.block()
			}
		default:
			w.text("<") // a '<' that starts no tag is text
			i++
		}
	}
	return title, w.String()
}

// after returns the index just past the first sep at or after from, or
// len(data) if there is none.
func after(data []byte, from int, sep string) int {
	if from >= len(data) {
		return len(data)
	}
	j := bytes.Index(data[from:], []byte(sep))
	if j < 0 {
		return len(data)
	}
	return from + j + len(sep)
}

// tagEnd returns the index just past the '>' that closes the tag whose
// name starts at from, skipping quoted attribute values; len(data) for a
// tag never closed. Quotes are honored over the first 4 KiB only: past
// that, or with an unbalanced quote, the tag ends at the first '>', as
// browsers recover, which keeps the scan linear on broken markup.
func tagEnd(data []byte, from int) int {
	if from >= len(data) {
		return len(data)
	}
	var quote byte
	for j := from; j < len(data) && j < from+4096; j++ {
		c := data[j]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return j + 1
		}
	}
	if j := bytes.IndexByte(data[from:], '>'); j >= 0 {
		return from + j + 1
	}
	return len(data)
}

// closeTagStart returns the index of the "</name" that ends a raw-text
// element whose content starts at from (any case), or len(data).
func closeTagStart(data []byte, from int, name string) int {
	for j := from; j < len(data); {
		k := bytes.Index(data[j:], []byte("</"))
		if k < 0 {
			break
		}
		j += k
		if end := j + 2 + len(name); end <= len(data) && strings.EqualFold(string(data[j+2:end]), name) &&
			(end == len(data) || !isNameByte(data[end])) {
			return j
		}
		j += 2
	}
	return len(data)
}

// closeTag returns the index just past the end tag of a raw-text element.
func closeTag(data []byte, from int, name string) int {
	j := closeTagStart(data, from, name)
	if j >= len(data) {
		return len(data)
	}
	return tagEnd(data, j+2)
}

// tagName reads an element name at the start of b, in lower case.
func tagName(b []byte) string {
	n := 0
	for n < len(b) && n < 64 && isNameByte(b[n]) {
		n++
	}
	return strings.ToLower(string(b[:n]))
}

func isNameStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isNameByte(c byte) bool {
	return isNameStart(c) || '0' <= c && c <= '9' || c == '-' || c == '_' || c == ':' || c == '.'
}

// stripTags drops what looks like tags from a title's content.
func stripTags(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			sb.Write(b)
			break
		}
		sb.Write(b[:i])
		j := bytes.IndexByte(b[i:], '>')
		if j < 0 {
			break
		}
		b = b[i+j+1:]
	}
	return sb.String()
}

// collapse turns runs of whitespace into one space and trims the ends.
func collapse(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u00a0", " ")), " ")
}

// textWriter lays out text as a browser would: runs of whitespace are one
// space (except in <pre>), and blocks start on a line of their own.
type textWriter struct {
	sb       strings.Builder
	pre      int  // depth of <pre> elements
	spaceDue bool // a space is due before the next text on this line
	newlines int  // newlines at the end of sb
}

func (w *textWriter) text(s string) {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	if w.pre > 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		if s == "" {
			return
		}
		if w.spaceDue && w.newlines == 0 && w.sb.Len() > 0 {
			w.sb.WriteByte(' ')
		}
		w.spaceDue = false
		w.sb.WriteString(s)
		w.newlines = len(s) - len(strings.TrimRight(s, "\n"))
		return
	}
	for i, f := range strings.Fields(s) {
		if (i > 0 || w.spaceDue || startsSpace(s)) && w.newlines == 0 && w.sb.Len() > 0 {
			w.sb.WriteByte(' ')
		}
		w.spaceDue = false
		w.sb.WriteString(f)
		w.newlines = 0
	}
	if endsSpace(s) {
		w.spaceDue = true
	}
}

func startsSpace(s string) bool { return s != "" && strings.TrimLeft(s, " \t\r\n\f") != s }
func endsSpace(s string) bool   { return s != "" && strings.TrimRight(s, " \t\r\n\f") != s }

// space separates what comes next on the line (table cells).
func (w *textWriter) space() { w.spaceDue = true }

// block ends the current line, if anything is on it.
func (w *textWriter) block() {
	w.spaceDue = false
	if w.sb.Len() > 0 && w.newlines == 0 {
		w.sb.WriteByte('\n')
		w.newlines = 1
	}
}

// newline is a <br>: a line break, blank lines kept up to one.
func (w *textWriter) newline() {
	w.spaceDue = false
	if w.sb.Len() > 0 && w.newlines < 2 {
		w.sb.WriteByte('\n')
		w.newlines++
	}
}

func (w *textWriter) String() string {
	return strings.TrimRight(w.sb.String(), " \n")
}
