package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/index"
)

// mcpTest is a client session connected in memory to a server on a fresh
// index in t.TempDir().
type mcpTest struct {
	t        *testing.T
	cs       *mcp.ClientSession
	srv      *Service
	host     *Host
	dir      string // the index directory
	root     string // the folder it mirrors
	progress chan *mcp.ProgressNotificationParams
}

func newMCPTest(t *testing.T) *mcpTest {
	t.Helper()
	return newMCPTestWith(t, nil)
}

// newMCPTestWith is newMCPTest on an index opened with opts, the server
// told of its reranker.
func newMCPTestWith(t *testing.T, opts *index.Options) *mcpTest {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "idx")
	ix, err := index.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	mt := &mcpTest{t: t, dir: dir, root: t.TempDir(), progress: make(chan *mcp.ProgressNotificationParams, 1000)}
	mt.host = NewHost(ix, &HostOptions{Root: mt.root, Reranker: opts != nil && opts.Reranker != nil})
	mt.srv = New(mt.host, nil)
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mt.srv.ServeMCP(ctx, st) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "twindex-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case mt.progress <- r.Params:
			default:
			}
		}})
	mt.cs, err = client.Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		mt.cs.Close()
		cancel()
		<-done
		mt.srv.Close()
		if err := mt.host.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return mt
}

// call calls a tool and fails the test on a protocol error (a tool error
// result is returned, not a failure).
func (mt *mcpTest) call(name string, args any) *mcp.CallToolResult {
	mt.t.Helper()
	res, err := mt.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		mt.t.Fatalf("%s %v: protocol error: %v", name, args, err)
	}
	return res
}

// ok calls a tool, fails on an error result, and decodes the structured
// content into out.
func (mt *mcpTest) ok(name string, args any, out any) *mcp.CallToolResult {
	mt.t.Helper()
	res := mt.call(name, args)
	if res.IsError {
		mt.t.Fatalf("%s %v: error result: %s", name, args, resultText(res))
	}
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			mt.t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			mt.t.Fatalf("%s: structured content %s: %v", name, b, err)
		}
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

type object = map[string]any

func (mt *mcpTest) upsert(docs ...object) {
	mt.t.Helper()
	var out upsertOutput
	mt.ok("upsert", object{"docs": docs}, &out)
	if len(out.IDs) != len(docs) {
		mt.t.Fatalf("upsert wrote %v, want %d ids", out.IDs, len(docs))
	}
}

func TestMCPListTools(t *testing.T) {
	mt := newMCPTest(t)
	res, err := mt.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	var names []string
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"backlinks", "get", "index_path", "remove", "search", "stats", "upsert"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}

	type prop struct {
		name     string
		min, max *float64
		minItems *int
		enum     []any
		def      string
	}
	tests := []struct {
		tool     string
		readOnly bool
		required []string
		props    []prop
	}{
		{"search", true, []string{"query"}, []prop{
			{name: "query"},
			{name: "mode", enum: []any{"auto", "substring", "text", "vector", "hybrid", "substring+vector", "text+vector"}, def: `"auto"`},
			{name: "syntax", enum: []any{"simple", "raw"}, def: `"simple"`},
			{name: "fuzzy", enum: []any{"off", "auto", "1", "2"}, def: `"off"`},
			{name: "fallback", min: num(0), def: "3"},
			{name: "expand", min: num(0), max: num(3)},
			{name: "boostProject"}, {name: "boostSession"},
			{name: "order", enum: []any{"score", "date_asc", "date_desc"}, def: `"score"`},
			{name: "limit", min: num(1), max: num(50), def: "10"},
			{name: "offset", min: num(0), max: num(index.MaxOffset)},
			{name: "kinds"}, {name: "projects"}, {name: "tags"}, {name: "role"}, {name: "under"}, {name: "ids"},
			{name: "since"}, {name: "until"}, {name: "explain"},
			{name: "rerank", min: num(0), max: num(50)},
			{name: "minSeq", min: num(0)},
		}},
		{"get", true, []string{"ids"}, []prop{
			{name: "ids", minItems: count(1)},
			{name: "maxBytes", min: num(1), max: num(getMaxMaxBytes), def: "8000"},
			{name: "offset", min: num(0)},
		}},
		{"upsert", false, []string{"docs"}, []prop{{name: "docs", minItems: count(1)}}},
		{"backlinks", true, []string{"id"}, []prop{{name: "id"}, {name: "types"}}},
		{"remove", false, []string{"ids"}, []prop{{name: "ids", minItems: count(1)}}},
		{"index_path", false, []string{"path"}, []prop{{name: "path"}}},
		{"stats", true, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			tl := tools[tt.tool]
			if tl.Description == "" || tl.Annotations == nil {
				t.Fatalf("no description or annotations: %+v", tl)
			}
			if tl.Annotations.ReadOnlyHint != tt.readOnly || tl.Annotations.OpenWorldHint == nil || *tl.Annotations.OpenWorldHint {
				t.Errorf("annotations %+v", tl.Annotations)
			}
			if tl.OutputSchema == nil {
				t.Error("no output schema")
			}
			var s jsonschema.Schema
			b, _ := json.Marshal(tl.InputSchema)
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Required, tt.required) {
				t.Errorf("required %v, want %v", s.Required, tt.required)
			}
			if len(s.Properties) != len(tt.props) {
				t.Errorf("%d properties, want %d: %s", len(s.Properties), len(tt.props), b)
			}
			for _, p := range tt.props {
				got, ok := s.Properties[p.name]
				switch {
				case !ok:
					t.Errorf("no property %s", p.name)
					continue
				case got.Description == "":
					t.Errorf("%s: no description", p.name)
				case !eqPtr(got.Minimum, p.min) || !eqPtr(got.Maximum, p.max) || !eqPtr(got.MinItems, p.minItems):
					t.Errorf("%s: bounds %v..%v minItems %v", p.name, got.Minimum, got.Maximum, got.MinItems)
				case !slices.Equal(got.Enum, p.enum):
					t.Errorf("%s: enum %v, want %v", p.name, got.Enum, p.enum)
				case string(got.Default) != p.def:
					t.Errorf("%s: default %s, want %s", p.name, got.Default, p.def)
				}
			}
		})
	}
	// No ["null", T] unions: clients that build arguments from the schema
	// (the MCP Inspector) could not send arrays or numbers for them.
	for _, tl := range res.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		if strings.Contains(string(b), `"null"`) {
			t.Errorf("%s: input schema has a null type: %s", tl.Name, b)
		}
	}
	search := tools["search"].Description
	for _, want := range []string{"substring", "RRF", "nextOffset"} {
		if !strings.Contains(search, want) {
			t.Errorf("search description lacks %q", want)
		}
	}
}

func eqPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func TestMCPSearchModesAndPaging(t *testing.T) {
	mt := newMCPTest(t)
	var docs []object
	for i := range 23 {
		docs = append(docs, object{"id": fmt.Sprintf("doc%02d", i), "kind": []string{"note", "code"}[i%2],
			"title": fmt.Sprintf("note %d", i), "body": fmt.Sprintf("opening the widgetFactory file number %d", i),
			"ts": fmt.Sprintf("2024-01-%02d", i+1)})
	}
	mt.upsert(docs...)

	for _, mode := range []string{"auto", "substring", "text"} {
		t.Run(mode, func(t *testing.T) {
			q := map[string]string{"auto": "widgetfactory", "substring": "getFact", "text": "opened"}[mode]
			var seen []string
			offset := 0
			for page := 0; ; page++ {
				var out searchOutput
				res := mt.ok("search", object{"query": q, "mode": mode, "limit": 10, "offset": offset}, &out)
				if out.Total != 23 {
					t.Fatalf("page %d: total %d, want 23", page, out.Total)
				}
				for _, h := range out.Hits {
					seen = append(seen, h.ID)
					if h.Snippet == "" || h.Score <= 0 || len(h.MatchedIn) == 0 || h.Kind == "" {
						t.Errorf("hit %+v", h)
					}
				}
				if !strings.Contains(resultText(res), "23 hits") {
					t.Errorf("text rendering %q", resultText(res))
				}
				if out.NextOffset == nil {
					if out.Truncated {
						t.Error("truncated on the last page")
					}
					break
				}
				if !out.Truncated || *out.NextOffset != offset+len(out.Hits) || len(out.Hits) != 10 {
					t.Fatalf("page %d: %d hits, nextOffset %d, truncated %v", page, len(out.Hits), *out.NextOffset, out.Truncated)
				}
				if !strings.Contains(resultText(res), fmt.Sprintf("offset=%d", *out.NextOffset)) {
					t.Errorf("text rendering lacks the next offset: %q", resultText(res))
				}
				offset = *out.NextOffset
			}
			slices.Sort(seen)
			if len(slices.Compact(seen)) != 23 {
				t.Errorf("paging saw %d distinct documents, want 23", len(seen))
			}
		})
	}

	t.Run("filters", func(t *testing.T) {
		var out searchOutput
		mt.ok("search", object{"query": "widgetfactory", "kinds": []string{"code"}, "since": "2024-01-05",
			"until": "2024-01-10T00:00:00Z", "order": "date_desc", "explain": true}, &out)
		// Days 5..9 are docs 4..8; odd ones are code.
		var ids []string
		for _, h := range out.Hits {
			ids = append(ids, h.ID)
			if h.Explain == nil {
				t.Errorf("%s: no explain", h.ID)
			}
		}
		if want := []string{"doc07", "doc05"}; !slices.Equal(ids, want) {
			t.Errorf("hits %v, want %v", ids, want)
		}
	})

	t.Run("no hits", func(t *testing.T) {
		var out searchOutput
		res := mt.ok("search", object{"query": "zebra"}, &out)
		if out.Total != 0 || out.Hits == nil || out.NextOffset != nil {
			t.Errorf("%+v", out)
		}
		if !strings.Contains(resultText(res), "No hits") {
			t.Errorf("text %q", resultText(res))
		}
	})
}

func TestMCPErrors(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(object{"id": "a", "body": "alpha"})
	tests := []struct {
		name, tool string
		args       object
		want       []string // substrings of the message
	}{
		{"missing query", "search", object{}, []string{`missing required argument "query"`, "open file"}},
		{"empty query", "search", object{"query": ""}, []string{"query is empty", "words"}},
		{"blank query", "search", object{"query": "   "}, []string{"query is empty"}},
		{"nothing to search", "search", object{"query": "\"\""}, []string{"nothing to search for"}},
		{"limit 0", "search", object{"query": "a", "limit": 0}, []string{"invalid limit 0", "1 to 50", "nextOffset"}},
		{"limit 51", "search", object{"query": "a", "limit": 51}, []string{"invalid limit 51", "1 to 50"}},
		{"limit type", "search", object{"query": "a", "limit": "ten"}, []string{`invalid limit "ten"`, "integer"}},
		{"negative offset", "search", object{"query": "a", "offset": -1}, []string{"invalid offset -1", "nextOffset"}},
		{"deep offset", "search", object{"query": "a", "offset": int64(1) << 40}, []string{"invalid offset 1099511627776", "0 to 16777216", "nextOffset"}},
		{"unknown mode", "search", object{"query": "a", "mode": "fuzzy"}, []string{`invalid mode "fuzzy"`, "auto", "substring", "text"}},
		{"unknown order", "search", object{"query": "a", "order": "newest"}, []string{`invalid order "newest"`, "date_desc"}},
		{"bad since", "search", object{"query": "a", "since": "yesterday"}, []string{"since", `"yesterday"`, "2024-05-01"}},
		{"bad until", "search", object{"query": "a", "until": "2024-13-45"}, []string{"until", "2024-05-01T12:00:00Z"}},
		{"until before since", "search", object{"query": "a", "since": "2024-02-01", "until": "2024-01-01"}, []string{"not after since"}},
		{"unknown argument", "search", object{"query": "a", "limt": 5}, []string{`unknown argument "limt"`, "limit"}},
		{"get no ids", "get", object{"ids": []string{}}, []string{"invalid ids", "1 to 100"}},
		{"get maxBytes 0", "get", object{"ids": []string{"a"}, "maxBytes": 0}, []string{"invalid maxBytes 0", "default 8000"}},
		{"upsert no docs", "upsert", object{"docs": []object{}}, []string{"invalid docs", "non-empty id"}},
		{"upsert missing id", "upsert", object{"docs": []object{{"id": "b"}, {"body": "x"}}}, []string{"invalid docs", `"id"`}},
		{"upsert empty id", "upsert", object{"docs": []object{{"id": "b"}, {"id": ""}}}, []string{"docs[1]", "empty", "nothing was written"}},
		{"upsert bad ts", "upsert", object{"docs": []object{{"id": "b", "ts": "soon"}}}, []string{"docs[0]", "ts", "2024-05-01", "nothing was written"}},
		{"remove no ids", "remove", object{"ids": []string{}}, []string{"invalid ids"}},
		{"get null ids", "get", object{"ids": nil}, []string{"no ids", "search hits"}},
		{"upsert null docs", "upsert", object{"docs": nil}, []string{"no docs"}},
		{"remove null ids", "remove", object{"ids": nil}, []string{"no ids"}},
		{"index_path missing", "index_path", object{"path": filepath.Join(mt.root, "nope")}, []string{"pass an existing folder"}},
		{"index_path empty", "index_path", object{"path": ""}, []string{"path is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mt.call(tt.tool, tt.args)
			msg := resultText(res)
			if !res.IsError {
				t.Fatalf("not an error: %s", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
	// The failed upserts wrote nothing.
	var got getOutput
	mt.ok("get", object{"ids": []string{"b"}}, &got)
	if len(got.Documents) != 0 || !slices.Equal(got.Missing, []string{"b"}) {
		t.Errorf("a failed upsert wrote: %+v", got)
	}
}

func TestMCPIndexFailureIsAnError(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(object{"id": "a", "body": "alpha"})
	// Close the index under the server: every engine call now fails.
	if err := mt.host.Index().Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args object
	}{
		{"search", object{"query": "alpha"}},
		{"get", object{"ids": []string{"a"}}},
		{"upsert", object{"docs": []object{{"id": "b"}}}},
		{"remove", object{"ids": []string{"a"}}},
		{"stats", object{}},
	} {
		res := mt.call(c.tool, c.args)
		if !res.IsError || !strings.Contains(resultText(res), "closed") {
			t.Errorf("%s on a closed index: isError %v, %q", c.tool, res.IsError, resultText(res))
		}
	}
}

func TestMCPDocuments(t *testing.T) {
	mt := newMCPTest(t)
	body := strings.Repeat("ünïcödé text 😀 ", 700) // ~15 KB, multi-byte runes
	mt.upsert(
		object{"id": "long", "kind": "note", "title": "Long", "body": body, "parent": "root", "tags": []string{"x", "y"},
			"role": "user", "project": "p", "source": "s.txt", "ts": "2024-05-01T12:00:00Z", "meta": object{"k": "v"}},
		object{"id": "short", "body": "tiny"},
	)

	var out getOutput
	res := mt.ok("get", object{"ids": []string{"long", "short", "gone"}}, &out)
	if len(out.Documents) != 2 || !slices.Equal(out.Missing, []string{"gone"}) {
		t.Fatalf("get: %d documents, missing %v", len(out.Documents), out.Missing)
	}
	d := out.Documents[0]
	if d.ID != "long" || d.Kind != "note" || d.Parent != "root" || !slices.Equal(d.Tags, []string{"x", "y"}) || d.Role != "user" ||
		d.Project != "p" || d.Source != "s.txt" || d.TS != "2024-05-01T12:00:00Z" || d.Meta["k"] != "v" {
		t.Errorf("fields %+v", d)
	}
	if !d.Truncated || d.NextOffset == nil || len(d.Body) > getDefaultMaxBytes || d.BodyBytes != len(body) {
		t.Errorf("default cap: truncated %v, %d bytes of %d", d.Truncated, len(d.Body), d.BodyBytes)
	}
	if s := out.Documents[1]; s.Truncated || s.Body != "tiny" || s.NextOffset != nil {
		t.Errorf("short %+v", s)
	}
	if txt := resultText(res); !strings.Contains(txt, "offset=") || !strings.Contains(txt, `"gone"`) {
		t.Errorf("text rendering %q", txt)
	}

	// Page through the body in small, odd-sized pieces.
	var got strings.Builder
	offset, pages := 0, 0
	for {
		var page getOutput
		mt.ok("get", object{"ids": []string{"long"}, "maxBytes": 997, "offset": offset}, &page)
		p := page.Documents[0]
		if p.Offset != offset {
			t.Fatalf("offset %d, asked %d", p.Offset, offset)
		}
		got.WriteString(p.Body)
		pages++
		if p.NextOffset == nil {
			break
		}
		offset = *p.NextOffset
	}
	if got.String() != body {
		t.Errorf("paged body differs (%d bytes in %d pages, want %d bytes)", got.Len(), pages, len(body))
	}

	var rm removeOutput
	mt.ok("remove", object{"ids": []string{"long", "gone"}}, &rm)
	if rm.Removed != 1 || rm.Requested != 2 {
		t.Errorf("remove: %+v", rm)
	}
	var after searchOutput
	mt.ok("search", object{"query": "ünïcödé"}, &after)
	if after.Total != 0 {
		t.Errorf("removed document still found: %+v", after)
	}
}

func TestBodyWindow(t *testing.T) {
	body := "aé😀b" // 1 + 2 + 4 + 1 bytes
	tests := []struct {
		name               string
		offset, max        int
		wantStart, wantEnd int
	}{
		{"all", 0, 100, 0, 8},
		{"cut before a rune", 0, 2, 0, 1},
		{"start inside a rune moves on", 2, 10, 3, 8},
		{"a rune longer than max still advances", 3, 1, 3, 7},
		{"past the end", 50, 10, 8, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, e := bodyWindow(body, tt.offset, tt.max)
			if s != tt.wantStart || e != tt.wantEnd {
				t.Errorf("bodyWindow(%d, %d) = %d, %d, want %d, %d", tt.offset, tt.max, s, e, tt.wantStart, tt.wantEnd)
			}
		})
	}
}

func TestMCPIndexPathAndStats(t *testing.T) {
	mt := newMCPTest(t)
	root := mt.root
	for i := range 30 {
		name := filepath.Join(root, "src", fmt.Sprintf("f%02d.go", i))
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte(fmt.Sprintf("package src\n\nfunc openFile%d() {}\n", i)), 0o644)
	}
	os.WriteFile(filepath.Join(root, "README.md"), []byte("# Notes\nHow to open a file.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x", 2<<20)), 0o644)

	args := object{"path": root}
	params := &mcp.CallToolParams{Name: "index_path", Arguments: args}
	params.SetProgressToken("tok-1")
	res, err := mt.cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("index_path: %v %s", err, resultText(res))
	}
	var out indexPathOutput
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if out.Root != root || out.Written != 32 || out.Skipped != 1 || !slices.Equal(out.Oversize, []string{"big.txt"}) {
		t.Errorf("index_path: %+v", out) // 31 files and the src folder
	}
	var last *mcp.ProgressNotificationParams
	deadline := time.After(5 * time.Second)
wait:
	for {
		select {
		case p := <-mt.progress:
			if p.ProgressToken != "tok-1" {
				t.Errorf("progress token %v", p.ProgressToken)
			}
			last = p
			if p.Progress == p.Total {
				break wait
			}
		case <-deadline:
			break wait
		}
	}
	if last == nil || last.Progress != last.Total || last.Total != 31 {
		t.Errorf("last progress notification %+v, want 31 of 31", last)
	}

	var hits searchOutput
	mt.ok("search", object{"query": "openFile7(", "mode": "substring", "under": "src", "kinds": []string{"code"}}, &hits)
	if hits.Total != 1 || hits.Hits[0].ID != "src/f07.go" {
		t.Errorf("search after index_path: %+v", hits)
	}
	// Again: nothing changed; a relative path is relative to the root.
	mt.ok("index_path", object{"path": "src"}, &out)
	if out.Written != 0 || out.Unchanged != 30 || out.Scope != "src" {
		t.Errorf("second index_path: %+v", out)
	}
	res = mt.call("index_path", object{"path": t.TempDir()})
	if !res.IsError || !strings.Contains(resultText(res), "outside the index root") {
		t.Errorf("path outside the root: %s", resultText(res))
	}

	mt.ok("search", object{"query": "zqxjvkwp"}, nil)
	var st statsOutput
	mt.ok("stats", object{}, &st)
	if st.Docs != 32 || st.Kinds["code"] != 30 || st.Kinds["doc"] != 1 || st.Root != root || st.Index != mt.dir || st.Updated == "" {
		t.Errorf("stats %+v", st)
	}
	if c := st.Searches; c.Served != 2 || c.WithHits != 1 || c.SnippetBytes != int64(len(hits.Hits[0].Snippet)) {
		t.Errorf("search counters %+v", c)
	}
}

// An unknown tool and a call the SDK refuses are errors, and the session
// goes on.
func TestMCPUnknownTool(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(object{"id": "a", "body": "alpha"})
	for _, name := range []string{"nope", ""} {
		res, err := mt.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: object{}})
		if err == nil && (res == nil || !res.IsError) {
			t.Errorf("tool %q: no error: %+v", name, res)
		}
	}
	res, err := mt.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: object{"query": 7}})
	if err == nil && !res.IsError {
		t.Errorf("a number for query: no error")
	}
	var out searchOutput
	mt.ok("search", object{"query": "alpha"}, &out)
	if out.Total != 1 {
		t.Errorf("search after the bad calls: %+v", out)
	}
}
