package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/query"
)

// owned starts an Owner of a new index in dir mirroring root, and
// returns its Host and a Client of it.
func owned(t *testing.T, dir, root string) (*Host, *Client) {
	t.Helper()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, &HostOptions{Root: root})
	ow, err := Own(h, &OwnOptions{Version: "test", NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		if err := ow.Close(context.Background()); err != nil {
			t.Error(err)
		}
		h.Close()
	})
	return h, c
}

// A Client answers as the Host it reaches: the same results, and errors
// with the same messages that match the same sentinels.
func TestClientMatchesHost(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "src", "main.go"), "package main\n\nfunc openFile() {}\n")
	h, c := owned(t, filepath.Join(t.TempDir(), "idx"), root)
	ctx := context.Background()
	if _, err := c.Write(ctx, &Writes{Upsert: []index.Doc{
		{ID: "a", Title: "Alpha", Body: "the lemon parser", Kind: "note", Links: []index.Link{{To: "b", Type: "imports"}}},
		{ID: "b", Body: "a lexer of lemons"},
	}}); err != nil {
		t.Fatal(err)
	}
	if rep, err := c.Sync(ctx, "", nil); err != nil || rep.Written != 2 {
		t.Fatalf("sync through the client: %+v %v", rep, err)
	}
	if got, want := c.Info(), h.Info(); got != want {
		t.Errorf("info %+v, want %+v", got, want)
	}

	same := func(name string, call func(e Engine) (any, error)) {
		t.Helper()
		want, werr := call(h)
		got, gerr := call(c)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%s: error %v, want %v", name, gerr, werr)
			return
		}
		for _, sentinel := range []error{index.ErrNotFound, index.ErrEmptyQuery, index.ErrInvalidRequest, index.ErrInvalidDoc,
			index.ErrExists, folder.ErrOutsideRoot, folder.ErrWalk, ErrNoRoot} {
			if errors.Is(werr, sentinel) != errors.Is(gerr, sentinel) {
				t.Errorf("%s: errors.Is(%v, %v) differs", name, gerr, sentinel)
			}
		}
		for _, r := range []any{got, want} {
			if rep, ok := r.(*folder.Report); ok && rep != nil {
				rep.Elapsed = 0
			}
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
	}
	search := func(req index.Request) func(e Engine) (any, error) {
		return func(e Engine) (any, error) { return e.Search(ctx, req) }
	}
	same("search", search(index.Request{Query: "lemon", Explain: true, Kinds: []string{"note"}}))
	same("search expand", search(index.Request{Query: "parser", Expand: &index.Expand{Depth: 1}, Fallback: -1}))
	same("search substring under", search(index.Request{Query: "openFile(", Mode: index.ModeSubstring, Under: "src"}))
	same("empty query", search(index.Request{Query: `""`}))
	same("bad limit", search(index.Request{Query: "x", Limit: 1000}))
	same("raw syntax error", search(index.Request{Query: "lemon AND", Syntax: index.SyntaxRaw}))
	same("get", func(e Engine) (any, error) { return e.Get("a") })
	same("get missing", func(e Engine) (any, error) { return e.Get("zz") })
	same("links", func(e Engine) (any, error) { return e.Links("a") })
	same("links missing", func(e Engine) (any, error) { return e.Links("zz") })
	same("backlinks", func(e Engine) (any, error) { return e.Backlinks("b", "imports") })
	same("invalid doc", func(e Engine) (any, error) { return e.Write(ctx, &Writes{Upsert: []index.Doc{{ID: ""}}}) })
	same("add existing", func(e Engine) (any, error) { return e.Write(ctx, &Writes{Add: []index.Doc{{ID: "a"}}}) })
	outside := t.TempDir()
	same("sync outside", func(e Engine) (any, error) { return e.Sync(ctx, outside, nil) })
	same("sync missing", func(e Engine) (any, error) { return e.Sync(ctx, filepath.Join(root, "nope"), nil) })
	same("check", func(e Engine) (any, error) { return e.Check(ctx) })

	// A raw query's syntax error keeps its position across the endpoint.
	_, err := c.Search(ctx, index.Request{Query: "lemon AND", Syntax: index.SyntaxRaw})
	var qe *query.Error
	if !errors.As(err, &qe) || !strings.Contains(qe.Caret(), "^") {
		t.Errorf("syntax error through the client: %v", err)
	}
	if err := c.Optimize(ctx); err != nil {
		t.Errorf("optimize: %v", err)
	}
	st, err := c.Stats()
	if err != nil || st.Docs != 4 { // a, b, src, src/main.go
		t.Errorf("stats %+v %v", st, err)
	}
}

// Dial finds no owner where none is, nor where a killed one left its
// files; RemoveStale clears them.
func TestDialStale(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	if _, err := Dial(dir); !errors.Is(err, ErrNoOwner) {
		t.Fatalf("no index: %v", err)
	}
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// What a server killed with SIGKILL leaves: its endpoint folder, the
	// owner file, a socket nobody listens on.
	ep, err := listenLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := ep.record(&Owned{PID: 1 << 30, Socket: ep.ln.Addr().String(), Protocol: protocol}); err != nil {
		t.Fatal(err)
	}
	ep.ln.(interface{ SetUnlinkOnClose(bool) }).SetUnlinkOnClose(false)
	ep.ln.Close()
	if _, err := os.Stat(filepath.Join(dir, endpointDir, socketName)); err != nil {
		t.Fatalf("the stale socket is gone already: %v", err)
	}
	if _, err := Dial(dir); !errors.Is(err, ErrNoOwner) {
		t.Fatalf("stale endpoint: %v", err)
	}
	RemoveStale(dir)
	if _, err := os.Stat(filepath.Join(dir, endpointDir)); !os.IsNotExist(err) {
		t.Errorf("RemoveStale left %s: %v", endpointDir, err)
	}
}

// An index folder too deep for a socket path gets its socket under the
// temporary folder, recorded in the owner file and removed at close.
func TestLongSocketPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60), "idx")
	var sock string
	t.Cleanup(func() { // after the Owner's close
		if _, err := os.Stat(filepath.Dir(sock)); !os.IsNotExist(err) {
			t.Errorf("the socket folder %s is left: %v", filepath.Dir(sock), err)
		}
	})
	_, c := owned(t, dir, "")
	sock = c.Owned().Socket
	if !strings.HasPrefix(sock, os.TempDir()) || len(sock) >= sunPathLimit {
		t.Fatalf("socket %s", sock)
	}
	fi, err := os.Stat(filepath.Dir(sock))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("socket folder %v %v", fi.Mode(), err)
	}
	if _, err := c.Stats(); err != nil {
		t.Fatal(err)
	}
}

// While its Owner brings the index up to date, a Client's calls wait
// (the endpoint answers 503 starting), saying so once; then they run.
func TestClientWaitsForStart(t *testing.T) {
	root := t.TempDir()
	for i := range 1500 {
		writeFile(t, filepath.Join(root, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("f%04d.txt", i)), fmt.Sprintf("file %d of many", i))
	}
	dir := filepath.Join(root, ".twindex")
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, &HostOptions{Root: root})
	defer h.Close()
	ow, err := Own(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ow.Close(context.Background())
	c, err := Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var said atomic.Int32
	c.Starting = func() { said.Add(1) }
	res, err := c.Search(context.Background(), index.Request{Query: "many", Limit: 1})
	if err != nil || res.Total != 1500 {
		t.Fatalf("search after the start: %v %v", res, err)
	}
	if said.Load() != 1 {
		t.Errorf("Starting called %d times, want once (the first sync of 1,500 files outran the search?)", said.Load())
	}
}
