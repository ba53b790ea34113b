package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Service; nil means defaults.
type Options struct {
	Log     *slog.Logger // nil: discard
	Version string       // the server's version, told to MCP clients
	// Ready, when set, holds tool calls back until it is closed: until
	// the Owner has brought the index up to date (Owner.Ready).
	Ready <-chan struct{}
}

// Service serves an Engine as MCP tools, and as the same calls over the
// HTTP API (Handler).
//
// Concurrency: the SDK runs each tool call on its own goroutine, so
// searches run while an upsert or index_path is in progress; the index
// serializes writes and no search sees half a batch, and the Engine
// serializes syncs. Every call is tracked, and Close cancels and waits
// for the calls still running.
type Service struct {
	eng     Engine
	info    Info
	version string
	log     *slog.Logger
	ready   <-chan struct{}
	srv     *mcp.Server
	args    map[string]map[string]arg // per tool, for argument errors
	props   map[string][]string       // per tool, its argument names
	tools   map[string]*tool          // per tool, for the HTTP API

	mu      sync.Mutex // guards closing
	closing bool

	stop context.Context // cancelled by Close: running calls stop
	halt context.CancelFunc

	streams    context.Context // cancelled by EndStreams: MCP streams over HTTP end
	endStreams context.CancelFunc
	calls      sync.WaitGroup

	searches, searchesWithHits, snippetBytes atomic.Int64
}

// New makes the service of eng. The root eng.Info reports is fixed for
// the service's life: index_path refuses every path outside it, and no
// call can change it.
func New(eng Engine, o *Options) *Service {
	if o == nil {
		o = &Options{}
	}
	s := &Service{eng: eng, info: eng.Info(), version: o.Version, log: o.Log, ready: o.Ready,
		args: map[string]map[string]arg{}, props: map[string][]string{}, tools: map[string]*tool{}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.stop, s.halt = context.WithCancel(context.Background())
	s.streams, s.endStreams = context.WithCancel(s.stop)
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "twindex", Title: "twindex search", Version: o.Version},
		&mcp.ServerOptions{Instructions: mcpInstructions, Logger: s.log, Capabilities: &mcp.ServerCapabilities{
			Tools: &mcp.ToolCapabilities{}}})
	s.srv.AddReceivingMiddleware(s.middleware)
	s.addSearch()
	s.addGet()
	s.addUpsert()
	s.addBacklinks()
	s.addRemove()
	s.addIndexPath()
	s.addStats()
	return s
}

const mcpInstructions = `twindex is a full-text and substring search index over documents and files. ` +
	`Start with search (mode auto suits most queries), page with offset=nextOffset, then read a hit in full with get. ` +
	`Scores are relative rank-fusion values: use them to order hits, not as a relevance threshold.`

// ServeMCP runs one MCP session over t until the client closes it (for
// stdio: stdin reaches EOF) or ctx is cancelled.
func (s *Service) ServeMCP(ctx context.Context, t mcp.Transport) error {
	return s.srv.Run(ctx, t)
}

// EndStreams ends the MCP streams of server messages that HTTP clients
// hold open, so that a graceful shutdown of the HTTP server need not wait
// for them; calls in progress go on.
func (s *Service) EndStreams() { s.endStreams() }

// Close stops accepting calls, cancels and waits for the running ones.
// Whole batches a cancelled call committed stay. It leaves the Engine
// open: its owner closes it.
func (s *Service) Close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.halt()
	s.calls.Wait()
}

func boolPtr(b bool) *bool { return &b }

// addTool registers a typed tool with its input schema built from In and
// args, and remembers args to explain invalid arguments.
func addTool[In, Out any](s *Service, t *mcp.Tool, args map[string]arg, h mcp.ToolHandlerFor[In, Out]) {
	schema := inputSchema[In](args)
	t.InputSchema = schema
	s.args[t.Name] = args
	props := slices.Clone(schema.PropertyOrder)
	if len(props) == 0 {
		for p := range schema.Properties {
			props = append(props, p)
		}
		slices.Sort(props)
	}
	s.props[t.Name] = props
	h = recovering(s, t.Name, h)
	mcp.AddTool(s.srv, t, h)
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(err)
	}
	s.tools[t.Name] = &tool{def: t, in: schema, out: out, resolved: resolved, call: func(ctx context.Context, raw []byte) (any, error) {
		in, err := decodeArgs[In](s, t.Name, resolved, raw)
		if err != nil {
			return nil, err
		}
		_, res, err := h(ctx, nil, in)
		return res, err
	}}
}

// recovering is h with a panic turned into the call's error, and logged
// with its stack: a bug in one call, of MCP or of the HTTP API, fails that
// call instead of ending a server that many agents share.
func recovering[In, Out any](s *Service, name string, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("tool panicked: a bug in twindex", "tool", name, "panic", r, "stack", string(debug.Stack()))
				err = fmt.Errorf("%s: internal error (a bug in twindex; the server's log has its stack): %v", name, r)
			}
		}()
		return h(ctx, req, in)
	}
}

// tool is a tool as the HTTP API calls it: with its arguments as the
// JSON body, checked against the same input schema, and its structured
// result as the response.
type tool struct {
	def      *mcp.Tool
	in, out  *jsonschema.Schema
	resolved *jsonschema.Resolved // in, ready to validate
	call     func(ctx context.Context, body []byte) (any, error)
}

// decodeArgs checks raw against the tool's input schema, as the SDK does
// for an MCP call, and decodes it.
func decodeArgs[In any](s *Service, name string, schema *jsonschema.Resolved, raw []byte) (In, error) {
	var in In
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return in, &badRequest{msg: fmt.Sprintf("%s: the body is not JSON: %s", name, err)}
	}
	if err := schema.Validate(v); err != nil {
		return in, &badRequest{msg: argError(name, s.args[name], s.props[name], raw, err.Error())}
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, &badRequest{msg: fmt.Sprintf("%s: %s; see the tool's input schema", name, err)}
	}
	return in, nil
}

// middleware tracks tool calls for close, logs them, and rewrites the
// SDK's schema validation errors into messages that say how to fix the
// call.
func (s *Service) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok {
			return next(ctx, method, req)
		}
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			return nil, errors.New("twindex is shutting down")
		}
		s.calls.Add(1)
		s.mu.Unlock()
		defer s.calls.Done()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(s.stop, cancel)()
		if s.ready != nil {
			select {
			case <-s.ready:
			case <-ctx.Done():
				return nil, fmt.Errorf("%s: %w", call.Params.Name, ctx.Err())
			}
		}

		start := time.Now()
		res, err := next(ctx, method, req)
		name := call.Params.Name
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			msg := ""
			if e := r.GetError(); e != nil {
				msg = e.Error()
			}
			if strings.HasPrefix(msg, sdkValidationPrefix) {
				msg = argError(name, s.args[name], s.props[name], call.Params.Arguments, msg)
				r.Content = []mcp.Content{&mcp.TextContent{Text: msg}}
			}
			s.log.Info("tool error", "tool", name, "took", time.Since(start), "error", msg)
			return res, err
		}
		if err != nil {
			s.log.Warn("tool failed", "tool", name, "took", time.Since(start), "error", err)
		} else {
			s.log.Debug("tool call", "tool", name, "took", time.Since(start))
		}
		return res, err
	}
}

// badArg is a tool error for bad input: the message says what was wrong
// and how to fix it.
func badArg(tool, format string, args ...any) error {
	return &badRequest{msg: tool + ": " + fmt.Sprintf(format, args...)}
}
