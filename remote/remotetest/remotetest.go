// Package remotetest runs fake embedding and rerank servers for tests of
// code that uses package remote, as net/http/httptest runs HTTP servers.
//
// One fake answers all three APIs remote speaks, on their default paths:
//
//	POST /api/embed       {"model","input"} -> {"embeddings"}, in input order (Ollama)
//	POST /v1/embeddings   {"model","input"} -> {"data":[{"index","embedding"}]},
//	                      in reverse order, so a client must place vectors by index (OpenAI)
//	POST /v1/rerank       {"model","query","documents","top_n"} ->
//	                      {"results":[{"index","relevance_score"}]}, best first
//
// A request of another method or path, one that does not decode, names
// another model than Options.Model, or asks to rerank with an empty query
// or a top_n other than the number of documents is answered with a 4xx
// and the reason, which a remote client reports in its *remote.StatusError.
// Vectors and scores are whatever Options.Embed and Options.Score say, so
// a test knows what to expect.
package remotetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
)

// Options say what a fake server expects and answers. A nil *Options, and
// each zero field, mean the defaults.
type Options struct {
	// Model, if set, is the model every request must name.
	Model string
	// Embed gives the vector of a text. nil means {len(text), 1}.
	Embed func(text string) []float32
	// Score gives the relevance of a document to a query; higher is
	// better. nil means the number of times the query occurs in the
	// document.
	Score func(query, doc string) float64
}

// Handler returns the fake's handler, for a test that serves it itself,
// for example behind a wrapper that fails some requests. It is safe for
// concurrent use; Embed and Score are called from the requests'
// goroutines.
func Handler(opts *Options) http.Handler {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Embed == nil {
		o.Embed = func(text string) []float32 { return []float32{float32(len(text)), 1} }
	}
	if o.Score == nil {
		o.Score = func(query, doc string) float64 { return float64(strings.Count(doc, query)) }
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/embed", o.ollama)
	mux.HandleFunc("POST /v1/embeddings", o.openAI)
	mux.HandleFunc("POST /v1/rerank", o.rerank)
	return mux
}

// Server is a fake on a local port, started by NewServer. Its methods may
// be called from any goroutine.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:port, to give to
	// remote.NewEmbedder or remote.NewReranker.
	URL string

	srv      *httptest.Server
	requests atomic.Int64
	down     atomic.Bool
}

// NewServer starts a fake server with opts on a local port. The caller
// must Close it, typically with t.Cleanup(srv.Close).
func NewServer(opts *Options) *Server {
	s := &Server{}
	h := Handler(opts)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		if s.down.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		h.ServeHTTP(w, r)
	}))
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down, waiting for requests in flight.
func (s *Server) Close() { s.srv.Close() }

// Requests returns how many requests the server has received, answered
// or not.
func (s *Server) Requests() int { return int(s.requests.Load()) }

// SetDown makes the server answer every request with 500 "down" while down
// is true, as a server that crashed or is loading a model.
func (s *Server) SetDown(down bool) { s.down.Store(down) }

// embedRequest is what both embedding APIs receive.
type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

func (o *Options) ollama(w http.ResponseWriter, r *http.Request) {
	var req embedRequest
	if !o.decode(w, r, &req, &req.Model) {
		return
	}
	var resp struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	for _, s := range req.Input {
		resp.Embeddings = append(resp.Embeddings, o.Embed(s))
	}
	reply(w, resp)
}

func (o *Options) openAI(w http.ResponseWriter, r *http.Request) {
	var req embedRequest
	if !o.decode(w, r, &req, &req.Model) {
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var resp struct {
		Data []item `json:"data"`
	}
	for i := len(req.Input) - 1; i >= 0; i-- {
		resp.Data = append(resp.Data, item{i, o.Embed(req.Input[i])})
	}
	reply(w, resp)
}

func (o *Options) rerank(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model     string   `json:"model"`
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
		TopN      int      `json:"top_n"`
	}
	if !o.decode(w, r, &req, &req.Model) {
		return
	}
	switch {
	case req.Query == "":
		http.Error(w, "empty query", http.StatusBadRequest)
		return
	case req.TopN != len(req.Documents):
		http.Error(w, fmt.Sprintf("top_n %d for %d documents", req.TopN, len(req.Documents)), http.StatusBadRequest)
		return
	}
	type result struct {
		Index int     `json:"index"`
		Score float64 `json:"relevance_score"`
	}
	var resp struct {
		Results []result `json:"results"`
	}
	for i, d := range req.Documents {
		resp.Results = append(resp.Results, result{i, o.Score(req.Query, d)})
	}
	// Rerank servers list the best first; ties keep the documents' order.
	slices.SortStableFunc(resp.Results, func(a, b result) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	reply(w, resp)
}

// decode reads the request's JSON into v and checks the model it names,
// answering 400 and returning false when either is wrong.
func (o *Options) decode(w http.ResponseWriter, r *http.Request, v any, model *string) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		http.Error(w, "decode request: "+err.Error(), http.StatusBadRequest)
		return false
	}
	if o.Model != "" && *model != o.Model {
		http.Error(w, fmt.Sprintf("model %q, want %q", *model, o.Model), http.StatusBadRequest)
		return false
	}
	return true
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
