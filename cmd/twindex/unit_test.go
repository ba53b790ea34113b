package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/twindex/twindex/index"
)

func TestFlagsAnywhere(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		pos     []string
		json, l bool
		lim, c  int
		err     string
	}{
		{name: "flags first", args: []string{"--json", "--limit", "5", "q", "p"}, pos: []string{"q", "p"}, json: true, lim: 5},
		{name: "flags last", args: []string{"q", "p", "--json", "--limit=5"}, pos: []string{"q", "p"}, json: true, lim: 5},
		{name: "mixed", args: []string{"q", "-limit", "5", "p", "-json"}, pos: []string{"q", "p"}, json: true, lim: 5},
		{name: "double dash", args: []string{"--limit", "5", "--", "--json", "x"}, pos: []string{"--json", "x"}, lim: 5},
		{name: "double dash before a query like a flag", args: []string{"--", "-race"}, pos: []string{"-race"}},
		{name: "dash alone is positional", args: []string{"-", "--json"}, pos: []string{"-"}, json: true},
		{name: "short alias", args: []string{"-m", "3", "q"}, pos: []string{"q"}, lim: 3},
		{name: "short alias with =", args: []string{"q", "-m=3"}, pos: []string{"q"}, lim: 3},
		{name: "bundle of booleans", args: []string{"-lj", "q"}, pos: []string{"q"}, json: true, l: true},
		{name: "value glued on", args: []string{"-C2", "q"}, pos: []string{"q"}, c: 2},
		{name: "bundle ending in a glued value", args: []string{"q", "-lC12"}, pos: []string{"q"}, l: true, c: 12},
		{name: "bundle ending in a flag that takes the next argument", args: []string{"-lC", "4", "q"}, pos: []string{"q"}, l: true, c: 4},
		{name: "long flags are not bundles", args: []string{"--lj", "q"}, err: "flag provided but not defined: -lj"},
		{name: "unknown letter in a bundle", args: []string{"-lx", "q"}, err: "flag provided but not defined: -lx"},
		{name: "a value that is not a number", args: []string{"-Cx", "q"}, err: `invalid value "x" for flag -C`},
		{name: "missing value", args: []string{"q", "--limit"}, err: "flag needs an argument: --limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &env{stdout: io.Discard, stderr: io.Discard}
			fs := newFlagSet(e, "x", "x", "")
			j := fs.Bool("json", false, "")
			fs.alias("j", "json")
			l := fs.Bool("files-with-matches", false, "")
			fs.alias("l", "files-with-matches")
			lim := fs.Int("limit", 0, "")
			fs.alias("m", "limit")
			c := fs.Int("context", 0, "")
			fs.alias("C", "context")
			pos, err := fs.parse(tt.args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(pos, "|") != strings.Join(tt.pos, "|") || *j != tt.json || *l != tt.l || *lim != tt.lim || *c != tt.c {
				t.Errorf("got %q json=%v l=%v limit=%d context=%d", pos, *j, *l, *lim, *c)
			}
		})
	}
}

func TestGlobalFlags(t *testing.T) {
	tests := []struct {
		args  []string
		index string
		rest  []string
		err   bool
	}{
		{[]string{"--index", "/x", "search", "q"}, "/x", []string{"search", "q"}, false},
		{[]string{"--index=/x", "get", "a"}, "/x", []string{"get", "a"}, false},
		{[]string{"-index", "/x", "stats"}, "/x", []string{"stats"}, false},
		{[]string{"search", "--index", "/x"}, "", []string{"search", "--index", "/x"}, false},
		{[]string{"--", "search"}, "", []string{"search"}, false},
		{[]string{"--index"}, "", nil, true},
		{[]string{"--help"}, "", []string{"--help"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			e := &env{}
			rest, err := globalFlags(e, tt.args)
			if (err != nil) != tt.err || e.index != tt.index || strings.Join(rest, "|") != strings.Join(tt.rest, "|") {
				t.Errorf("got %q index %q err %v", rest, e.index, err)
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
