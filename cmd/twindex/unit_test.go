package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/twindex/twindex/index"
)

func TestIgnorer(t *testing.T) {
	type check struct {
		id      string
		dir     bool
		ignored bool
	}
	tests := []struct {
		name   string
		files  map[string]string // folder ID -> ignore file content
		checks []check
	}{
		{"basename glob at any depth", map[string]string{"": "*.log\n"}, []check{
			{"a.log", false, true}, {"x/y/b.log", false, true}, {"a.log.txt", false, false}, {"log", false, false}}},
		{"comments and blanks", map[string]string{"": "# *.go\n\n   \n"}, []check{{"a.go", false, false}}},
		{"escaped hash and bang", map[string]string{"": `\#notes` + "\n" + `\!important` + "\n"}, []check{
			{"#notes", false, true}, {"!important", false, true}}},
		{"anchored with leading slash", map[string]string{"": "/build\n"}, []check{
			{"build", true, true}, {"src/build", true, false}}},
		{"inner slash anchors", map[string]string{"": "doc/gen\n"}, []check{
			{"doc/gen", true, true}, {"x/doc/gen", true, false}}},
		{"trailing slash: folders only", map[string]string{"": "out/\n"}, []check{
			{"out", true, true}, {"out", false, false}, {"a/out", true, true}}},
		{"negation re-includes", map[string]string{"": "*.log\n!keep.log\n"}, []check{
			{"a.log", false, true}, {"keep.log", false, false}, {"d/keep.log", false, false}}},
		{"later rule wins", map[string]string{"": "!keep.log\n*.log\n"}, []check{{"keep.log", false, true}}},
		{"double star prefix", map[string]string{"": "**/cache\n"}, []check{
			{"cache", true, true}, {"a/b/cache", true, true}, {"cachex", true, false}}},
		{"double star middle", map[string]string{"": "a/**/z.txt\n"}, []check{
			{"a/z.txt", false, true}, {"a/b/c/z.txt", false, true}, {"b/a/z.txt", false, false}}},
		{"double star suffix", map[string]string{"": "vendor/**\n"}, []check{
			{"vendor/x", false, true}, {"vendor/x/y.go", false, true}, {"vendor", true, false}}},
		{"question mark and class", map[string]string{"": "file?.[ch]\n[!a]x\n"}, []check{
			{"file1.c", false, true}, {"file1.h", false, true}, {"file12.c", false, false}, {"file1.o", false, false},
			{"bx", false, true}, {"ax", false, false}}},
		{"star does not cross folders", map[string]string{"": "/a*b\n"}, []check{{"axxb", false, true}, {"ax/b", false, false}}},
		{"nested file applies to its subtree", map[string]string{"": "*.tmp\n", "sub": "*.md\n!x.tmp\n"}, []check{
			{"sub/a.md", false, true}, {"a.md", false, false}, {"sub/x.tmp", false, false}, {"y/x.tmp", false, true}}},
		{"nested anchored", map[string]string{"sub": "/gen\n"}, []check{{"sub/gen", true, true}, {"sub/x/gen", true, false}, {"gen", true, false}}},
		{"trailing spaces and CRLF", map[string]string{"": "a.txt  \r\nb.txt\\ \n"}, []check{{"a.txt", false, true}, {"b.txt ", false, true}}},
		{"unclosed bracket is literal", map[string]string{"": "[abc\n"}, []check{{"[abc", false, true}, {"a", false, false}}},
		{"regexp metacharacters are literal", map[string]string{"": "a+b(c).txt\n"}, []check{{"a+b(c).txt", false, true}, {"aab(c).txt", false, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ig := &ignorer{}
			for _, base := range []string{"", "sub"} {
				if content, ok := tt.files[base]; ok {
					ig = ig.with(base, []byte(content))
				}
			}
			for _, c := range tt.checks {
				if got := ig.ignored(c.id, c.dir); got != c.ignored {
					t.Errorf("ignored(%q, dir=%v) = %v, want %v", c.id, c.dir, got, c.ignored)
				}
			}
		})
	}
}

func TestKindOf(t *testing.T) {
	tests := map[string]string{
		"main.go": "code", "index/search_test.go": "test", "pkg/test_api.py": "test", "web/app.test.js": "test",
		"tests/helpers.py": "test", "src/test/Foo.java": "test", "README.md": "doc", "docs/guide.rst": "doc",
		"LICENSE": "doc", "site/index.html": "doc", "go.mod": "config", "cfg/app.yaml": "config", "package.json": "config",
		"Makefile": "code", "logo.svg": "other", "data.bin": "other", ".gitignore": "config",
	}
	for id, want := range tests {
		if got := kindOf(id); got != want {
			t.Errorf("kindOf(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestFlagsAnywhere(t *testing.T) {
	tests := []struct {
		name string
		args []string
		pos  []string
		json bool
		lim  int
	}{
		{"flags first", []string{"--json", "--limit", "5", "q", "p"}, []string{"q", "p"}, true, 5},
		{"flags last", []string{"q", "p", "--json", "--limit=5"}, []string{"q", "p"}, true, 5},
		{"mixed", []string{"q", "-limit", "5", "p", "-json"}, []string{"q", "p"}, true, 5},
		{"double dash", []string{"--limit", "5", "--", "--json", "x"}, []string{"--json", "x"}, false, 5},
		{"dash alone is positional", []string{"-", "--json"}, []string{"-"}, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &env{stdout: io.Discard, stderr: io.Discard}
			fs := newFlagSet(e, "x", "x", "")
			j := fs.Bool("json", false, "")
			l := fs.Int("limit", 0, "")
			pos, err := fs.parse(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(pos, "|") != strings.Join(tt.pos, "|") || *j != tt.json || *l != tt.lim {
				t.Errorf("got %q json=%v limit=%d", pos, *j, *l)
			}
		})
	}
}

func TestLineReader(t *testing.T) {
	in := "one\r\n" + strings.Repeat("x", 100) + "\nthree\nlast"
	lr := newLineReader(strings.NewReader("\xef\xbb\xbf"+in), 50)
	var got []string
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err == errLineTooLong {
			got = append(got, "TOO LONG")
			continue
		}
		got = append(got, string(line))
	}
	if strings.Join(got, "|") != "one|TOO LONG|three|last" || lr.n != 4 {
		t.Errorf("got %q, n=%d", got, lr.n)
	}
}

func FuzzJSONL(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","title":"t","body":"b","tags":["x","y"],"ts":"2024-01-02"}`,
		`{"_id":"1","text":"beir"}`,
		`{"id":""}`, `{"id":null}`, `{"id":1}`, `[]`, `null`, `"str"`, `{}`, `{"id":"a"} {"id":"b"}`,
		`{"id":"a\u0000b"}`, `{"id":"\ud800"}`, `{"id":"a","parent":"p\u0000"}`, `{"id":"a","ts":"2024-13-45"}`,
		`{"id":"a","ts":""}`, `{"id":"a","tags":[1,2]}`, `{"id":"a","meta":{"k":1}}`, "{\"id\":\"\xff\"}",
		`{"id":"a","body":"` + strings.Repeat("x", 100) + `"}`, `{"id":"a",`, `{"id":"a"}garbage`, "\xef\xbb\xbf{}",
		`{"id":"a","id":"b"}`, `{"ID":"upper"}`, `{"id":"a","ts":"2024-01-02T03:04:05.999999999+14:00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		d, err := parseDocLine(line, 64)
		if err != nil {
			return
		}
		if d.ID == "" || len(d.ID) > index.MaxIDBytes || !utf8.ValidString(d.ID) || strings.IndexByte(d.ID, 0) >= 0 ||
			strings.IndexByte(d.Parent, 0) >= 0 || len(d.Title)+len(d.Body) > 64 {
			t.Fatalf("accepted a document the engine refuses: %+v", d)
		}
		// Whatever is accepted round-trips through the engine.
		ix, err := index.OpenMemory(&index.Options{MaxDocBytes: 64})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if err := ix.Upsert(t.Context(), d); err != nil {
			t.Fatalf("engine refused %+v: %v", d, err)
		}
		if _, _, err := parseQueryLine(bytes.TrimSpace(line), 1); err != nil && !strings.HasPrefix(string(bytes.TrimSpace(line)), "{") {
			t.Fatalf("plain query line refused: %v", err)
		}
	})
}
