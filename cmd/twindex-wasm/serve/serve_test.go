package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/cmd/twindex-wasm/gencorpus"
	"github.com/twindex/twindex/index"
)

func TestHandlerTypes(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"index.html": "<!doctype html>", "twindex.wasm": "\x00asm", "app.js": "1"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(handler(dir))
	defer srv.Close()
	tests := []struct {
		path, wantType string
	}{
		{"/", "text/html"},
		{"/twindex.wasm", "application/wasm"},
		{"/app.js", "javascript"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), tt.wantType) {
				t.Errorf("%d %q, want 200 %q", resp.StatusCode, resp.Header.Get("Content-Type"), tt.wantType)
			}
			if resp.Header.Get("Cross-Origin-Opener-Policy") != "same-origin" || resp.Header.Get("Cross-Origin-Embedder-Policy") != "require-corp" {
				t.Errorf("not cross-origin isolated: %v", resp.Header)
			}
		})
	}
}

func TestServeDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"--dir", dir, "--port", "0"}, pw, &stderr) }()
	buf := make([]byte, 100)
	n, err := pr.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(string(buf[:n]))
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("printed %q, want the URL", url)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "hello" {
		t.Errorf("GET / = %q", body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop")
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"help", []string{"-h"}, 0},
		{"unknown flag", []string{"--nope"}, 2},
		{"extra argument", []string{"x"}, 2},
		{"both modes", []string{"--dir", "a", "--build-only", "b"}, 2},
		{"no site", []string{"--dir", "/nonexistent", "--port", "0"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(context.Background(), tt.args, &out, &errb); code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, errb.String())
			}
		})
	}
}

func TestSnapshotOfCorpus(t *testing.T) {
	docs := []gencorpus.Doc{
		{ID: "io.ReadAll", Kind: gencorpus.KindFunc, Title: "io.ReadAll", Body: "ReadAll reads from r until an error or EOF"},
		{ID: "strings", Kind: gencorpus.KindPackage, Title: "strings", Body: "Package strings implements simple functions"},
	}
	path := filepath.Join(t.TempDir(), snapshotFile)
	var log bytes.Buffer
	if err := (builder{log: &log}).snapshot(context.Background(), docs, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.OpenSnapshot(zr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	res, err := ix.Search(context.Background(), index.Request{Query: "eadAll", Mode: index.ModeSubstring})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || res.Hits[0].ID != "io.ReadAll" || res.Hits[0].Kind != gencorpus.KindFunc {
		t.Fatalf("search of the loaded snapshot: %+v", res)
	}
	if !strings.Contains(log.String(), snapshotFile) {
		t.Errorf("no sizes logged: %q", log.String())
	}
}
