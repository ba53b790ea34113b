// Command serve builds the twindex browser demo and serves it on loopback:
//
//	go run ./cmd/twindex-wasm/serve                  build into cmd/twindex-wasm/web, serve on 127.0.0.1:8080
//	go run ./cmd/twindex-wasm/serve --port 0         the same on a free port
//	go run ./cmd/twindex-wasm/serve --build-only DIR write the static site into DIR and exit
//	go run ./cmd/twindex-wasm/serve --dir DIR        serve DIR as it is, without building
//
// The build compiles cmd/twindex-wasm with GOOS=js GOARCH=wasm and
// -ldflags='-s -w', copies wasm_exec.js from $(go env GOROOT)/lib/wasm,
// and generates corpus.json from the Go standard library's sources. It
// needs the go command on PATH and the module's sources.
//
// The URL is printed on stdout ("http://127.0.0.1:PORT/"), build progress
// and sizes on stderr.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/twindex/twindex/cmd/twindex-wasm/gencorpus"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", 8080, "port on 127.0.0.1; 0 picks a free one")
	buildOnly := fs.String("build-only", "", "write the static site into `DIR` and exit")
	dir := fs.String("dir", "", "serve `DIR` as it is, without building")
	docs := fs.Int("docs", gencorpus.DefaultMax, "documents in the corpus; -1 for the whole standard library")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./cmd/twindex-wasm/serve [--port N] [--docs N] [--build-only DIR | --dir DIR]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *buildOnly != "" && *dir != "" {
		fs.Usage()
		return 2
	}

	site := *dir
	if site == "" {
		b := builder{log: stderr, docs: *docs}
		out := *buildOnly
		if out == "" {
			web, err := b.webDir(ctx)
			if err != nil {
				fmt.Fprintf(stderr, "serve: %v\n", err)
				return 1
			}
			out = web
		}
		if err := b.build(ctx, out); err != nil {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return 1
		}
		if *buildOnly != "" {
			abs, _ := filepath.Abs(out)
			fmt.Fprintln(stdout, abs)
			return 0
		}
		site = out
	}
	if err := serve(ctx, site, *port, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return 1
	}
	return 0
}
