package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// maxLocalBody bounds a request on the local endpoint: a batch of the
// CLI's (folder.BatchBytes of text) with room for JSON escapes.
const maxLocalBody = 256 << 20

// localHandler serves an Engine to Clients: each route is one Engine
// method, with the engine's own types as JSON. It answers ErrStarting
// while ready says so. Writes run to completion even if the client goes
// away: a write is acknowledged only once durable, never half-made.
func localHandler(e Engine, ready func() error) http.Handler {
	mux := http.NewServeMux()
	route := func(pattern string, h func(ctx context.Context, body []byte) (any, error)) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			if err := ready(); err != nil {
				writeError(w, err)
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLocalBody))
			if err != nil {
				writeError(w, err)
				return
			}
			out, err := h(r.Context(), body)
			if err != nil {
				writeError(w, err)
				return
			}
			writeJSON(w, http.StatusOK, out)
		})
	}
	decode := func(body []byte, v any) error {
		if err := json.Unmarshal(body, v); err != nil {
			return &badRequest{msg: fmt.Sprintf("malformed request: %s", err)}
		}
		return nil
	}
	route("GET /engine/info", func(context.Context, []byte) (any, error) { return e.Info(), nil })
	route("POST /engine/search", func(ctx context.Context, body []byte) (any, error) {
		var req request
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return e.Search(ctx, req.index())
	})
	route("POST /engine/get", func(_ context.Context, body []byte) (any, error) {
		var a idArgs
		if err := decode(body, &a); err != nil {
			return nil, err
		}
		return e.Get(a.ID)
	})
	route("POST /engine/links", func(_ context.Context, body []byte) (any, error) {
		var a idArgs
		if err := decode(body, &a); err != nil {
			return nil, err
		}
		return e.Links(a.ID)
	})
	route("POST /engine/backlinks", func(_ context.Context, body []byte) (any, error) {
		var a idArgs
		if err := decode(body, &a); err != nil {
			return nil, err
		}
		return e.Backlinks(a.ID, a.Types...)
	})
	route("GET /engine/stats", func(context.Context, []byte) (any, error) { return e.Stats() })
	route("POST /engine/write", func(ctx context.Context, body []byte) (any, error) {
		var wr Writes
		if err := decode(body, &wr); err != nil {
			return nil, err
		}
		return e.Write(context.WithoutCancel(ctx), &wr)
	})
	route("POST /engine/check", func(ctx context.Context, _ []byte) (any, error) {
		r, err := e.Check(ctx)
		if err != nil {
			return nil, err
		}
		return toWireReport(r), nil
	})
	route("POST /engine/optimize", func(ctx context.Context, _ []byte) (any, error) {
		return struct{}{}, e.Optimize(context.WithoutCancel(ctx))
	})
	route("POST /engine/sync", func(ctx context.Context, body []byte) (any, error) {
		var a syncArgs
		if err := decode(body, &a); err != nil {
			return nil, err
		}
		return e.Sync(ctx, a.Scope, nil)
	})
	return mux
}
