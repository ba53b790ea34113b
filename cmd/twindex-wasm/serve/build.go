package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/twindex/twindex/cmd/twindex-wasm/gencorpus"
	"github.com/twindex/twindex/index"
)

// wasmPkg is the package compiled to twindex.wasm.
const wasmPkg = "github.com/twindex/twindex/cmd/twindex-wasm"

// generated lists the files a build writes into the site beside the
// page's own files; web/.gitignore keeps them out of the repository.
var generated = map[string]bool{"twindex.wasm": true, "wasm_exec.js": true, "corpus.json": true, snapshotFile: true}

// snapshotFile is the prebuilt index of the corpus that the page loads,
// gzip-compressed; the page indexes corpus.json itself when it is absent
// or when asked to with ?index=browser.
const snapshotFile = "index.snap.gz"

// builder makes the static site. log receives progress and sizes.
type builder struct {
	log  io.Writer
	docs int // corpus size, as gencorpus.Options.Max
}

// goCmd runs the go command with extra environment, returning stdout.
func (b builder) goCmd(ctx context.Context, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// webDir is cmd/twindex-wasm/web in the module's sources.
func (b builder) webDir(ctx context.Context) (string, error) {
	dir, err := b.goCmd(ctx, nil, "list", "-f", "{{.Dir}}", wasmPkg+"/gencorpus")
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dir), "web"), nil
}

// build writes the site into out: the page, the engine, wasm_exec.js,
// the corpus and its prebuilt index.
func (b builder) build(ctx context.Context, out string) error {
	web, err := b.webDir(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if !sameDir(web, out) {
		if err := copyPage(web, out); err != nil {
			return err
		}
	}
	goroot, err := b.goCmd(ctx, nil, "env", "GOROOT")
	if err != nil {
		return err
	}

	fmt.Fprintf(b.log, "building twindex.wasm (GOOS=js GOARCH=wasm, -ldflags='-s -w')\n")
	wasm := filepath.Join(out, "twindex.wasm")
	if _, err := b.goCmd(ctx, []string{"GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0"},
		"build", "-trimpath", "-ldflags=-s -w", "-o", wasm, wasmPkg); err != nil {
		return err
	}
	raw, gz, err := sizes(wasm)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.log, "twindex.wasm: %s raw, %s gzip\n", mib(raw), mib(gz))

	if err := copyFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(out, "wasm_exec.js")); err != nil {
		return err
	}

	fmt.Fprintf(b.log, "generating corpus.json from %s\n", filepath.Join(goroot, "src"))
	docs, err := gencorpus.Generate(goroot, &gencorpus.Options{Max: b.docs})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := gencorpus.WriteJSON(&buf, docs); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "corpus.json"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(b.log, "corpus.json: %d documents, %s\n", len(docs), mib(int64(buf.Len())))
	return b.snapshot(ctx, docs, filepath.Join(out, snapshotFile))
}

// snapshot indexes docs as the page would, on the Compact backend, and
// writes the index to path, gzip-compressed.
func (b builder) snapshot(ctx context.Context, docs []gencorpus.Doc, path string) error {
	ix, err := index.OpenMemory(&index.Options{Backend: index.Compact})
	if err != nil {
		return err
	}
	defer ix.Close()
	batch := make([]index.Doc, len(docs))
	for i, d := range docs {
		batch[i] = index.Doc{ID: d.ID, Kind: d.Kind, Title: d.Title, Body: d.Body}
	}
	if err := ix.Upsert(ctx, batch...); err != nil {
		return fmt.Errorf("index the corpus: %w", err)
	}
	var raw countWriter
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := ix.WriteSnapshot(io.MultiWriter(zw, &raw)); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(b.log, "%s: %s raw, %s gzip\n", snapshotFile, mib(int64(raw)), mib(int64(gz.Len())))
	return nil
}

func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// copyPage copies the page's own files, not the generated ones a local
// build may have left in web/.
func copyPage(web, out string) error {
	entries, err := os.ReadDir(web)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || generated[name] || strings.HasPrefix(name, ".") {
			continue
		}
		if err := copyFile(filepath.Join(web, name), filepath.Join(out, name)); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// sizes returns a file's size and its size gzip-compressed at the default
// level, as a server would send it.
func sizes(path string) (raw, gz int64, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	var n countWriter
	zw := gzip.NewWriter(&n)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return 0, 0, err
	}
	return int64(len(data)), int64(n), nil
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

func mib(n int64) string {
	return fmt.Sprintf("%.2f MiB (%d bytes)", float64(n)/(1<<20), n)
}
