package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"syscall"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/query"
)

// The JSON forms of what crosses the local endpoint between a Client and
// its Owner, and of errors on both the local endpoint and the HTTP API.

// errorBody is every error response: {"error": {"code", "message"}}.
type errorBody struct {
	Error apiError `json:"error"`
}

// apiError is an error as the HTTP API and the local endpoint send it.
type apiError struct {
	Code    string `json:"code" jsonschema:"what kind of error: bad_request, query_syntax, not_found, exists, too_large, unauthorized, starting, ..."`
	Message string `json:"message" jsonschema:"what went wrong and how to fix it; for query_syntax, the query with carets under the error on the last line"`
	// Query locates a syntax error in a raw query.
	Query *queryError `json:"query,omitempty" jsonschema:"for query_syntax: where in the query the error is"`
}

// queryError is a *query.Error on the wire.
type queryError struct {
	Query string `json:"query" jsonschema:"the whole query"`
	Pos   int    `json:"pos" jsonschema:"byte offset of the error"`
	Len   int    `json:"len" jsonschema:"byte length of the offending part"`
	Msg   string `json:"msg" jsonschema:"what is wrong"`
}

// The error codes, and the sentinel each one matches on the client.
var errorCodes = []struct {
	code   string
	status int
	is     error
}{
	{"empty_query", http.StatusBadRequest, index.ErrEmptyQuery},
	{"invalid_request", http.StatusBadRequest, index.ErrInvalidRequest},
	{"invalid_doc", http.StatusBadRequest, index.ErrInvalidDoc},
	{"not_found", http.StatusNotFound, index.ErrNotFound},
	{"exists", http.StatusConflict, index.ErrExists},
	{"outside_root", http.StatusBadRequest, folder.ErrOutsideRoot},
	{"walk", http.StatusBadRequest, folder.ErrWalk},
	{"no_root", http.StatusBadRequest, ErrNoRoot},
	{"closed", http.StatusServiceUnavailable, index.ErrClosed},
	{"starting", http.StatusServiceUnavailable, ErrStarting},
	{"corrupt", http.StatusInternalServerError, index.ErrCorrupt},
	{"no_space", http.StatusInsufficientStorage, syscall.ENOSPC},
	{"canceled", http.StatusServiceUnavailable, context.Canceled},
}

// errorOf is the status and wire form of err.
func errorOf(err error) (int, apiError) {
	e := apiError{Code: "internal", Message: err.Error()}
	var qe *query.Error
	var br *badRequest
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &qe):
		e.Code = "query_syntax"
		e.Query = &queryError{Query: qe.Query, Pos: qe.Pos, Len: qe.Len, Msg: qe.Msg}
		return http.StatusBadRequest, e
	case errors.As(err, &mb):
		e.Code = "too_large"
		return http.StatusRequestEntityTooLarge, e
	case errors.As(err, &br):
		e.Code = br.code
		if e.Code == "" {
			e.Code = "bad_request"
		}
		return br.status(), e
	}
	for _, c := range errorCodes {
		if errors.Is(err, c.is) {
			e.Code = c.code
			return c.status, e
		}
	}
	return http.StatusInternalServerError, e
}

// writeError writes err as the JSON error response.
func writeError(w http.ResponseWriter, err error) {
	status, e := errorOf(err)
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, status, errorBody{e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// remoteError is an error a Client received: the Owner's message, and
// the sentinel (and syntax error) its code stands for, so that
// errors.Is and errors.As answer as on the Owner's side.
type remoteError struct {
	msg string
	is  error
	qe  *query.Error
}

func (e *remoteError) Error() string { return e.msg }

func (e *remoteError) Unwrap() []error {
	var errs []error
	if e.is != nil {
		errs = append(errs, e.is)
	}
	if e.qe != nil {
		errs = append(errs, e.qe)
	}
	return errs
}

// decodeError turns an error response back into an error.
func decodeError(e apiError) error {
	re := &remoteError{msg: e.Message}
	for _, c := range errorCodes {
		if c.code == e.Code {
			re.is = c.is
		}
	}
	if e.Query != nil {
		re.is = index.ErrInvalidRequest
		re.qe = &query.Error{Query: e.Query.Query, Pos: e.Query.Pos, Len: e.Query.Len, Msg: e.Query.Msg}
	}
	return re
}

// badRequest is an error in a call, not in the index: the HTTP API
// answers it with 400 (or code's status) and the tools with an error
// result that says how to fix the call.
type badRequest struct {
	msg  string
	code string // "" means bad_request
	err  error  // what it explains, if anything: a *query.Error
}

func (e *badRequest) Error() string { return e.msg }

func (e *badRequest) Unwrap() error { return e.err }

func (e *badRequest) status() int {
	switch e.code {
	case "not_found":
		return http.StatusNotFound
	case "exists":
		return http.StatusConflict
	case "too_large":
		return http.StatusRequestEntityTooLarge
	case "unauthorized":
		return http.StatusUnauthorized
	case "forbidden":
		return http.StatusForbidden
	case "unsupported_media_type":
		return http.StatusUnsupportedMediaType
	case "method_not_allowed":
		return http.StatusMethodNotAllowed
	}
	return http.StatusBadRequest
}

// request is an index.Request on the wire: Expand without its Admit
// function, which the engine sets.
type request struct {
	Query        string
	Syntax       index.Syntax
	Mode         index.Mode
	Fuzzy        index.Fuzzy
	Prefix       bool
	Fallback     int
	Kinds        []string
	Projects     []string
	Tags         []string
	Role         string
	IDs          []string
	Under        string
	Since, Until time.Time
	Order        index.Order
	Limit        int
	Offset       int
	Explain      bool
	Expand       *expand
	Boost        *index.Boost
	Vector       []float32
	VectorWeight float64
	Rerank       int
	MarkStart    string
	MarkEnd      string
	Lines        *index.LineOptions
	Bare         bool
	MinSeq       uint64
}

type expand struct {
	Depth        int
	Decay        float64
	EdgeDecay    map[string]float64
	TopK         int
	MinScore     float64
	MaxResults   int
	SkipIncoming []string
}

func toWire(r index.Request) request {
	w := request{Query: r.Query, Syntax: r.Syntax, Mode: r.Mode, Fuzzy: r.Fuzzy, Prefix: r.Prefix, Fallback: r.Fallback, Kinds: r.Kinds,
		Projects: r.Projects, Tags: r.Tags, Role: r.Role, IDs: r.IDs, Under: r.Under, Since: r.Since, Until: r.Until,
		Order: r.Order, Limit: r.Limit, Offset: r.Offset, Explain: r.Explain, Boost: r.Boost, Vector: r.Vector,
		VectorWeight: r.VectorWeight, Rerank: r.Rerank, MarkStart: r.MarkStart, MarkEnd: r.MarkEnd, Lines: r.Lines,
		Bare: r.Bare, MinSeq: r.MinSeq}
	if x := r.Expand; x != nil {
		w.Expand = &expand{Depth: x.Depth, Decay: x.Decay, EdgeDecay: x.EdgeDecay, TopK: x.TopK, MinScore: x.MinScore,
			MaxResults: x.MaxResults, SkipIncoming: x.SkipIncoming}
	}
	return w
}

func (w request) index() index.Request {
	r := index.Request{Query: w.Query, Syntax: w.Syntax, Mode: w.Mode, Fuzzy: w.Fuzzy, Prefix: w.Prefix, Fallback: w.Fallback, Kinds: w.Kinds,
		Projects: w.Projects, Tags: w.Tags, Role: w.Role, IDs: w.IDs, Under: w.Under, Since: w.Since, Until: w.Until,
		Order: w.Order, Limit: w.Limit, Offset: w.Offset, Explain: w.Explain, Boost: w.Boost, Vector: w.Vector,
		VectorWeight: w.VectorWeight, Rerank: w.Rerank, MarkStart: w.MarkStart, MarkEnd: w.MarkEnd, Lines: w.Lines,
		Bare: w.Bare, MinSeq: w.MinSeq}
	if x := w.Expand; x != nil {
		r.Expand = &index.Expand{Depth: x.Depth, Decay: x.Decay, EdgeDecay: x.EdgeDecay, TopK: x.TopK, MinScore: x.MinScore,
			MaxResults: x.MaxResults, SkipIncoming: x.SkipIncoming}
	}
	return r
}

// report is an index.Report on the wire, with the counts JSON omits.
type report struct {
	Docs      int
	Seq       uint64
	Text      legReport
	Trigram   legReport
	BadPairs  []string
	BadPairsN int
}

type legReport struct {
	index.LegReport
	MissingN, ExtraN, ChangedN int
}

func toWireReport(r *index.Report) report {
	leg := func(l index.LegReport) legReport {
		return legReport{LegReport: l, MissingN: l.MissingN, ExtraN: l.ExtraN, ChangedN: l.ChangedN}
	}
	return report{Docs: r.Docs, Seq: r.Seq, Text: leg(r.Text), Trigram: leg(r.Trigram), BadPairs: r.BadPairs, BadPairsN: r.BadPairsN}
}

func (w report) index() *index.Report {
	leg := func(l legReport) index.LegReport {
		r := l.LegReport
		r.MissingN, r.ExtraN, r.ChangedN = l.MissingN, l.ExtraN, l.ChangedN
		return r
	}
	return &index.Report{Docs: w.Docs, Seq: w.Seq, Text: leg(w.Text), Trigram: leg(w.Trigram), BadPairs: w.BadPairs, BadPairsN: w.BadPairsN}
}
