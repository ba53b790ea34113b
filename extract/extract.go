package extract

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"strings"
)

// File is the text of a file as it is indexed.
type File struct {
	// Name is the file's name less a .gz suffix: what kind of file the
	// text is.
	Name string
	// Title is the document's own title (HTML's <title>), "" if it has
	// none.
	Title string
	Text  []byte
}

// Read returns the text of the file named name (a path or a base name)
// whose bytes are data: decompressed if the name ends in .gz, with at
// most limit bytes of decompressed text; the text of HTML and of
// document XML (Markup); else the bytes as they are. It fails with
// ErrGzip or ErrTooLarge (wrapped), only for a .gz file.
//
// Cost: linear in the size of data and of the text.
func Read(name string, data []byte, limit int) (File, error) {
	f := File{Name: name, Text: data}
	if inner, ok := gzipName(name); ok {
		text, err := Gunzip(data, limit)
		if err != nil {
			return f, err
		}
		f.Name, f.Text = inner, text
	}
	if IsMarkup(f.Name, f.Text) {
		title, text := Markup(f.Text)
		f.Title, f.Text = title, []byte(text)
	}
	return f, nil
}

// Compressed reports whether Read decompresses the file named name: its
// bytes are not its text, so a NUL byte in them says nothing of it.
func Compressed(name string) bool {
	_, ok := gzipName(name)
	return ok
}

// gzipName is name less a .gz suffix, and whether it had one.
func gzipName(name string) (string, bool) {
	inner, ok := cutSuffixFold(name, ".gz")
	return inner, ok && inner != "" && !strings.HasSuffix(inner, "/")
}

// Gunzip decompresses data, every member of a multi-member file, up to
// limit bytes. It fails with ErrTooLarge (wrapped) when the text is
// longer, having decompressed no more than limit+1 bytes of it, and with
// ErrGzip (wrapped) when data is not valid gzip.
func Gunzip(data []byte, limit int) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGzip, err)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGzip, err)
	}
	if len(out) > limit {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, limit)
	}
	return out, nil
}

// htmlExts are read as HTML whatever they hold.
var htmlExts = map[string]bool{".html": true, ".htm": true, ".xhtml": true, ".shtml": true}

// xmlExts are read as text when their root element is a document's.
var xmlExts = map[string]bool{".xml": true, ".rss": true, ".atom": true, ".svg": true}

// docRoots are the root elements of XML that is read, not configured:
// XHTML, feeds, DocBook. Other XML (pom.xml, layouts, project files) is
// searched as it is: its element names are what people look for in it.
var docRoots = map[string]bool{
	"html": true, "rss": true, "feed": true, "svg": true,
	"book": true, "article": true, "chapter": true, "section": true, "refentry": true, "part": true,
	"set": true, "reference": true, "preface": true, "appendix": true,
}

// IsMarkup reports whether a file named name holding data is read by its
// text: HTML by its extension, XML when its root element is a
// document's (docRoots).
func IsMarkup(name string, data []byte) bool {
	ext := strings.ToLower(path.Ext(name))
	if htmlExts[ext] {
		return true
	}
	return xmlExts[ext] && docRoots[rootElement(data)]
}

// rootElement is the lower-case local name of the first element of an
// XML document, after its prolog, comments and doctype; "" if none is
// found in the first 64 KiB.
func rootElement(data []byte) string {
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	for {
		i := bytes.IndexByte(data, '<')
		if i < 0 || i+1 >= len(data) {
			return ""
		}
		data = data[i+1:]
		switch {
		case bytes.HasPrefix(data, []byte("!--")):
			end := bytes.Index(data, []byte("-->"))
			if end < 0 {
				return ""
			}
			data = data[end+3:]
		case data[0] == '?' || data[0] == '!':
			continue
		default:
			name := tagName(data)
			if j := strings.IndexByte(name, ':'); j >= 0 {
				name = name[j+1:]
			}
			return name
		}
	}
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}
