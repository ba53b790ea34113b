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
