package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// handler serves the site in dir. Browsers compile WebAssembly as it
// streams in only when it comes as application/wasm, so the type is set
// here rather than left to the system's MIME tables; no-cache makes a
// rebuild show on reload. The two cross-origin headers isolate the page,
// which gives it (and the engine's clock, which reads performance.now)
// microsecond timers instead of 100-microsecond ones: the page reports
// the engine's time per keystroke, most of them under a millisecond.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		files.ServeHTTP(w, r)
	})
}

// serve serves dir on 127.0.0.1:port until ctx ends, printing the URL on
// stdout once it listens.
func serve(ctx context.Context, dir string, port int, stdout, stderr io.Writer) error {
	if _, err := os.Stat(dir + "/index.html"); err != nil {
		return fmt.Errorf("no site in %s: %w", dir, err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler(dir), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "http://%s/\n", ln.Addr())
	fmt.Fprintf(stderr, "serving %s (Ctrl-C stops)\n", dir)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(shut); err != nil {
			return err
		}
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
