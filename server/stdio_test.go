package server

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// Every line in gets one answer or is passed on: valid messages go to the
// session unchanged, the rest get a JSON-RPC error on out.
func TestFilterLines(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`not json`,
		``,
		`{"jsonrpc":"1.0","id":2,"method":"x"}`,
		`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		`[1]`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}, "\n")
	pr, pw := io.Pipe()
	var out bytes.Buffer
	go filterLines(strings.NewReader(in), pw, &out)
	passed, _ := io.ReadAll(pr)
	want := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" +
		`[{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"
	if string(passed) != want {
		t.Errorf("passed on:\n%s\nwant:\n%s", passed, want)
	}
	var codes []float64
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			Error struct{ Code float64 }
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("answer %q: %v", l, err)
		}
		codes = append(codes, m.Error.Code)
	}
	if len(codes) != 3 || codes[0] != codeParseError || codes[1] != codeInvalidRequest || codes[2] != codeInvalidRequest {
		t.Errorf("answers %v, want parse error, invalid request, invalid request", codes)
	}
}

func FuzzCheckMessage(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"x"}`, `[]`, `[{}]`, `null`, `"x"`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if code, msg := checkMessage(line); (code == 0) != (msg == "") {
			t.Errorf("code %d with message %q", code, msg)
		}
	})
}
