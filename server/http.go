package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of the HTTP API.
const (
	// MaxBody bounds a request body: a PUT of many documents. A larger
	// one is answered 413.
	MaxBody = 32 << 20
	// writeTimeout bounds writing a response, but for index_path and the
	// MCP endpoint's streams, which may rightly take longer.
	writeTimeout = 2 * time.Minute
)

// HTTPOptions configure the HTTP API; nil means defaults.
type HTTPOptions struct {
	// Token, when set, is required of every request as
	// "Authorization: Bearer <Token>" (compared in constant time);
	// others are answered 401.
	Token string
	// CORS is the one origin whose browser pages may call the API
	// (Access-Control-Allow-Origin); "" allows none.
	CORS string
	// Loopback says the listener is on a loopback address: then, without
	// a token, a request whose Host is not a loopback name is refused
	// (403), lest a web page reach the API through DNS rebinding.
	Loopback bool
}

// Handler serves the Service over HTTP: the tools as a JSON API under
// /v1 with the same arguments and results (the OpenAPI document at
// /v1/openapi.json), MCP over streamable HTTP at /mcp, and /healthz.
// Errors are {"error": {"code", "message"}} with a status that says what
// went wrong: 400 for a bad call (a malformed raw query's message has
// carets under the error), 401, 404, 409, 413, 503 while the index is
// being brought up to date.
func (s *Service) Handler(o *HTTPOptions) http.Handler {
	if o == nil {
		o = &HTTPOptions{}
	}
	mux := http.NewServeMux()
	api := func(pattern string, h func(r *http.Request, body []byte) (any, error)) {
		mux.Handle(pattern, s.apiHandler(h))
	}
	call := func(name string) func(r *http.Request, body []byte) (any, error) {
		t := s.tools[name]
		return func(r *http.Request, body []byte) (any, error) { return t.call(r.Context(), body) }
	}
	api("POST /v1/search", call("search"))
	api("POST /v1/docs/get", call("get"))
	api("PUT /v1/docs", call("upsert"))
	api("POST /v1/docs", s.add)
	api("POST /v1/docs/delete", call("remove"))
	api("GET /v1/docs/{id...}", s.getOne)
	api("DELETE /v1/docs/{id...}", s.removeOne)
	api("GET /v1/backlinks/{id...}", s.backlinksOf)
	api("GET /v1/stats", call("stats"))
	api("POST /v1/index", call("index_path"))
	mux.HandleFunc("GET /v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.openAPI())
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if !s.isReady() {
			w.Header().Set("Retry-After", "1")
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "starting"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	stream := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv },
		&mcp.StreamableHTTPOptions{Logger: s.log, MaxRequestBodyBytes: MaxBody})
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.NewResponseController(w).SetWriteDeadline(time.Time{})
		if r.Method == http.MethodGet {
			// A stream of server messages: it ends at EndStreams, rather
			// than holding up a graceful shutdown.
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(s.streams, cancel)()
			r = r.WithContext(ctx)
		}
		stream.ServeHTTP(w, r)
	}))
	return s.guard(o, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r) // sets the path's values, which Handler does not
			return
		}
		// No route: the mux says 404 or 405 (with Allow); say it in JSON.
		probe := &statusWriter{ResponseWriter: discard{w.Header()}}
		h.ServeHTTP(probe, r)
		e := &badRequest{code: "not_found", msg: fmt.Sprintf("no %s %s: the API is under /v1 (GET /v1/openapi.json describes it), MCP at /mcp", r.Method, r.URL.Path)}
		if probe.status == http.StatusMethodNotAllowed {
			e = &badRequest{code: "method_not_allowed", msg: fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, w.Header().Get("Allow"))}
		}
		writeError(w, e)
	}))
}

// discard is a ResponseWriter that keeps headers and drops the rest.
type discard struct{ h http.Header }

func (d discard) Header() http.Header       { return d.h }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}

// apiHandler reads the body of a JSON API call (bounded, JSON only),
// holds the call back with 503 while the index is being brought up to
// date, and writes the result or the error.
func (s *Service) apiHandler(h func(r *http.Request, body []byte) (any, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.isReady() {
			writeError(w, ErrStarting)
			return
		}
		var body []byte
		if r.Method == http.MethodPost || r.Method == http.MethodPut {
			if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
				// Also what keeps a web page from posting here without a
				// preflight request.
				writeError(w, &badRequest{code: "unsupported_media_type", msg: "send the body as JSON, with Content-Type: application/json"})
				return
			}
			var err error
			if body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody)); err != nil {
				writeError(w, fmt.Errorf("read the body (at most %d bytes): %w", MaxBody, err))
				return
			}
		}
		if r.URL.Path == "/v1/index" {
			http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		if r.Method != http.MethodGet {
			// A write is finished, and acknowledged only once durable,
			// even if the client goes away.
			r = r.WithContext(context.WithoutCancel(r.Context()))
		}
		out, err := h(r, body)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// isReady reports whether the index is up to date.
func (s *Service) isReady() bool {
	if s.ready == nil {
		return true
	}
	select {
	case <-s.ready:
		return true
	default:
		return false
	}
}

// add is POST /v1/docs: like PUT, but every document must be new (409).
func (s *Service) add(r *http.Request, body []byte) (any, error) {
	in, err := decodeArgs[upsertInput](s, "upsert", s.tools["upsert"].resolved, body)
	if err != nil {
		return nil, err
	}
	_, out, err := s.write(r.Context(), in, true)
	return out, err
}

// getOne is GET /v1/docs/{id}?maxBytes=&offset=: the document, or 404.
func (s *Service) getOne(r *http.Request, _ []byte) (any, error) {
	in := getInput{IDs: []string{r.PathValue("id")}}
	var err error
	if in.MaxBytes, err = intParam(r, "maxBytes"); err != nil {
		return nil, err
	}
	if in.Offset, err = intParam(r, "offset"); err != nil {
		return nil, err
	}
	b, _ := json.Marshal(in)
	res, err := s.tools["get"].call(r.Context(), b)
	if err != nil {
		return nil, err
	}
	out := res.(getOutput)
	if len(out.Documents) == 0 {
		return nil, &badRequest{code: "not_found", msg: fmt.Sprintf("no document %q", in.IDs[0])}
	}
	return out.Documents[0], nil
}

// removeOne is DELETE /v1/docs/{id}: 404 if there was no such document.
func (s *Service) removeOne(r *http.Request, _ []byte) (any, error) {
	id := r.PathValue("id")
	b, _ := json.Marshal(removeInput{IDs: []string{id}})
	res, err := s.tools["remove"].call(r.Context(), b)
	if err != nil {
		return nil, err
	}
	if out := res.(removeOutput); out.Removed == 0 {
		return nil, &badRequest{code: "not_found", msg: fmt.Sprintf("no document %q", id)}
	}
	return res, nil
}

// backlinksOf is GET /v1/backlinks/{id}?type=imports&type=...
func (s *Service) backlinksOf(r *http.Request, _ []byte) (any, error) {
	b, _ := json.Marshal(backlinksInput{ID: r.PathValue("id"), Types: r.URL.Query()["type"]})
	return s.tools["backlinks"].call(r.Context(), b)
}

func intParam(r *http.Request, name string) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, &badRequest{msg: fmt.Sprintf("query parameter %s=%q is not an integer", name, v)}
	}
	return n, nil
}

// guard checks what every request must pass before it is routed: the
// token, the Host header (against DNS rebinding) and the origin (CORS).
func (s *Service) guard(o *HTTPOptions, next http.Handler) http.Handler {
	var want [sha256.Size]byte
	if o.Token != "" {
		want = sha256.Sum256([]byte("Bearer " + o.Token))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			s.log.Debug("http", "method", r.Method, "path", r.URL.Path, "status", sw.status, "took", time.Since(start))
		}()
		if origin := r.Header.Get("Origin"); origin != "" && o.CORS != "" && origin == o.CORS {
			h := sw.Header()
			h.Set("Access-Control-Allow-Origin", o.CORS)
			h.Set("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
			if r.Method == http.MethodOptions {
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
				h.Set("Access-Control-Max-Age", "600")
				sw.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if o.Token != "" {
			got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
			if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				sw.Header().Set("WWW-Authenticate", `Bearer realm="twindex"`)
				writeError(sw, &badRequest{code: "unauthorized", msg: "send the server's token: Authorization: Bearer $TWINDEX_TOKEN"})
				return
			}
		} else if o.Loopback && !loopbackHost(r.Host) {
			writeError(sw, &badRequest{code: "forbidden", msg: fmt.Sprintf("Host %q is not this machine: the API answers requests to localhost only", r.Host)})
			return
		}
		next.ServeHTTP(sw, r)
	})
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// statusWriter remembers the status written, for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush lets the MCP endpoint stream through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// httpServer is an http.Server for h with the timeouts a server exposed
// to a network needs.
func httpServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// HTTPServer returns a server of h with the HTTP API's timeouts and
// limits, for a program that serves a Service's Handler on a listener of
// its own (a cluster node); Own makes its own.
func HTTPServer(h http.Handler, log *slog.Logger) *http.Server { return httpServer(h, log) }
