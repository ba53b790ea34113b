package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMarkup(t *testing.T) {
	tests := []struct {
		name, in, title, text string
	}{
		{"page", `<!DOCTYPE html><html><head><title>The  &amp; Title</title><meta charset="utf-8">
<style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
<body><h1>Heading</h1><p>One <b>bold</b> word,
spread over   lines.</p><!-- a <p>comment</p> --><ul><li>first</li><li>second</li></ul></body></html>`,
			"The & Title", "Heading\nOne bold word, spread over lines.\nfirst\nsecond"},
		{"inline tags join words", `<p>foo<b>bar</b>baz <i>qux</i></p>`, "", "foobarbaz qux"},
		{"entities", `<p>&lt;tag&gt; &quot;q&quot; &#39;s&#x27; caf&eacute; a&nbsp;b &bogus; AT&T</p>`, "", `<tag> "q" 's' café a b &bogus; AT&T`},
		{"pre keeps its lines", "<p>x</p><pre>  a  b\n\tc\n</pre><p>y</p>", "", "x\n  a  b\n\tc\ny"},
		{"br and table", "a<br>b<br/><br>c<table><tr><td>1</td><td>2</td></tr><tr><th>3</th><td>4</td></tr></table>", "", "a\nb\n\nc\n1 2\n3 4"},
		{"script in any case, closing tag with attributes", `a<SCRIPT type="x">if (a</b) {}</script >b<style>x</STYLE>c`, "", "abc"},
		{"quoted > in attributes", `<a href="x>y" title='>'>link</a> text`, "", "link text"},
		{"stray less-than", `1 < 2 and 3 <= 4 <`, "", "1 < 2 and 3 <= 4 <"},
		{"tag never closed", `text <a href="x`, "", "text"},
		{"comment never closed", `text <!-- forever`, "", "text"},
		{"script never closed", `text<script>x = 1`, "", "text"},
		{"CDATA", `<r><![CDATA[a < b && c]]></r>`, "", "a < b && c"},
		{"processing instruction and doctype", `<?xml version="1.0"?><!DOCTYPE book><book>x</book>`, "", "x"},
		{"docbook titles are text too", `<book><title>Guide <emphasis>one</emphasis></title><chapter><title>Start</title><para>Run <command>go</command>.</para></chapter></book>`,
			"Guide one", "Guide one\nStart\nRun go."},
		{"a title in the body of a page is not shown", `<body><title>T</title>x</body>`, "T", "x"},
		{"only the first title", `<head><title>A</title><title>B</title></head>`, "A", ""},
		{"self-closing block", `a<hr/>b<img src=x />c`, "", "a\nbc"},
		{"invalid UTF-8 passes through", "<p>\xff</p>", "", "\xff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			title, text := Markup([]byte(tt.in))
			if title != tt.title || text != tt.text {
				t.Errorf("Markup:\ntitle %q\ntext  %q\nwant  %q\n      %q", title, text, tt.title, tt.text)
			}
		})
	}
}

func FuzzMarkup(f *testing.F) {
	for _, s := range []string{"<p>a</p>", "<title>x", "<script>", "</", "<!--", "<![CDATA[", "<a b='>", "<pre>\n</pre>",
		"&amp;&#x1F600;&#0;", "<br><br><br>", "<td>a<td>b", "<\xff>", "<a\x00>", "<head><title>t</title></head>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		title, text := Markup(data)
		if len(text) > 4*len(data)+4 || len(title) > 4*len(data)+4 {
			t.Fatalf("output grew: %d bytes of text from %d", len(text), len(data))
		}
		if utf8.Valid(data) && (!utf8.ValidString(text) || !utf8.ValidString(title)) {
			t.Fatalf("invalid UTF-8 out of valid input: %q", text)
		}
		if strings.ContainsAny(string(data), "<&") {
			return
		}
		// Without tags or entities, only whitespace changes.
		if got, want := strings.Join(strings.Fields(text), " "), collapse(string(data)); got != want {
			t.Fatalf("plain text changed: %q -> %q", want, got)
		}
	})
}
