package gencorpus_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twindex/twindex/cmd/twindex-wasm/gencorpus"
	"github.com/twindex/twindex/internal/goroot"
)

// fakeRoot writes a GOROOT with the given files under src.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, "src", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const widgetSrc = `// Package widget makes widgets.
package widget

// MaxSize is the largest widget.
const MaxSize = 10

// ErrBroken is returned for a broken widget.
var ErrBroken = error(nil)

// Widget is a thing.
type Widget struct{ n int }

// NewWidget returns a widget of size n.
func NewWidget(n int) *Widget { return &Widget{n} }

// Size reports the widget's size.
func (w *Widget) Size() int { return w.n }

func (w *Widget) undocumented() {}

// helper is unexported.
func helper() {}

// Undocumented functions are left out.
func Documented() {}

func Bare() {}
`

func TestGenerate(t *testing.T) {
	root := fakeRoot(t, map[string]string{
		"widget/widget.go":         widgetSrc,
		"widget/widget_test.go":    "package widget\n\n// TestX is a test.\nfunc TestX() {}\n",
		"widget/widget_windows.go": "package widget\n\n// OnlyWindows is for windows.\nfunc OnlyWindows() {}\n",
		"widget/internal/x/x.go":   "// Package x is internal.\npackage x\n\n// Hidden is internal.\nfunc Hidden() {}\n",
		"cmd/tool/main.go":         "// Tool is a command.\npackage main\n",
		"fmt/print.go":             "// Package fmt formats.\npackage fmt\n\n// Println prints.\nfunc Println(a ...any) {}\n",
	})
	docs, err := gencorpus.Generate(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	byID := map[string]gencorpus.Doc{}
	for _, d := range docs {
		got = append(got, d.Kind+" "+d.ID)
		byID[d.ID] = d
	}
	// fmt comes first: the most used packages lead the corpus.
	want := []string{
		"package fmt", "func fmt.Println",
		"package widget", "const widget.MaxSize", "var widget.ErrBroken", "func widget.Documented",
		"type widget.Widget", "func widget.NewWidget", "method widget.Widget.Size",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("documents:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	size := byID["widget.Widget.Size"]
	if size.Title != "widget.Widget.Size" || !strings.HasPrefix(size.Body, "func (w *Widget) Size() int\n\nSize reports") {
		t.Errorf("method document: %+v", size)
	}
	if strings.Contains(size.Body, "return w.n") {
		t.Errorf("a function's body leaked into its document: %q", size.Body)
	}
}

func TestGenerateOptions(t *testing.T) {
	root := fakeRoot(t, map[string]string{
		"widget/widget.go": widgetSrc,
		"net/http/h.go":    "// Package http serves.\npackage http\n\n// Get gets.\nfunc Get() {}\n",
		"net/n.go":         "// Package net dials.\npackage net\n\n// Dial dials.\nfunc Dial() {}\n",
	})
	tests := []struct {
		name string
		opts gencorpus.Options
		want int
	}{
		{"all", gencorpus.Options{Max: -1}, 11},
		{"max", gencorpus.Options{Max: 3}, 3},
		{"package prefix", gencorpus.Options{Packages: []string{"net"}}, 4},
		{"exact package", gencorpus.Options{Packages: []string{"net/http"}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := gencorpus.Generate(root, &tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != tt.want {
				t.Errorf("%d documents, want %d", len(docs), tt.want)
			}
		})
	}
}

// TestGenerateGOROOT runs over the real standard library: IDs are unique
// and the output round-trips through JSON.
func TestGenerateGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the standard library")
	}
	dir, err := goroot.Dir()
	if err != nil {
		t.Fatal(err)
	}
	docs, err := gencorpus.Generate(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != gencorpus.DefaultMax {
		t.Fatalf("%d documents, want %d", len(docs), gencorpus.DefaultMax)
	}
	seen := map[string]bool{}
	for _, d := range docs {
		if seen[d.ID] {
			t.Errorf("duplicate ID %q", d.ID)
		}
		seen[d.ID] = true
		if d.Title == "" || d.Body == "" || d.Kind == "" {
			t.Errorf("incomplete document %+v", d)
		}
	}
	for _, id := range []string{"fmt.Println", "io.ReadAll", "strings.NewReader", "net/http.Handler"} {
		if !seen[id] {
			t.Errorf("%s is missing", id)
		}
	}
	var buf bytes.Buffer
	if err := gencorpus.WriteJSON(&buf, docs); err != nil {
		t.Fatal(err)
	}
	var back []gencorpus.Doc
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != len(docs) || back[0] != docs[0] {
		t.Errorf("round trip: %d documents, first %+v", len(back), back[0])
	}
	buf.Reset()
	if err := gencorpus.WriteJSONL(&buf, docs[:2]); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 2 {
		t.Errorf("JSONL has %d lines, want 2", n)
	}
}

func ExampleGenerate() {
	docs, err := gencorpus.Generate("testdata/goroot", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range docs {
		fmt.Printf("%-7s %-18s %q\n", d.Kind, d.Title, firstLine(d.Body))
	}
	// Output:
	// package widget             "package widget"
	// type    widget.Widget      "type Widget struct {"
	// func    widget.NewWidget   "func NewWidget(n int) *Widget"
	// method  widget.Widget.Size "func (w *Widget) Size() int"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
