//go:build js && wasm

// Command twindex-wasm is twindex compiled to WebAssembly for the browser.
// It holds one in-memory index and exposes it to JavaScript as the global
// object twindex:
//
//	twindex.add(docs)             Promise<{written, docs}>
//	twindex.load(snapshot, opts)  Promise<{docs, ms}>
//	twindex.buildTrigrams()       Promise<{ms}>
//	twindex.search(query, opts)   Promise<result>
//	twindex.remove(ids)           Promise<{removed, docs}>
//	twindex.stats()               Promise<stats>
//
// docs is an array of documents ({id, kind, title, body, ...}, the fields
// of index.Doc), one document, or a string holding either as JSON (the
// fastest way to hand over a big corpus). opts is {mode, kinds, limit,
// offset, explain, prefix}; prefix (default true: the page searches as
// the user types) makes the last word also match as a prefix, which
// `twindex search` does not do. A result has the top-level fields of the
// CLI's --json result: {query, mode, hits, total, nextOffset, truncated,
// tookMs}, and the engine Result's others (tolerant, didYouMean,
// warnings). Its hits are the engine's (index.Hit's JSON), not the CLI's:
// {id, kind, title, field, snippet, line, column, score, norm, matchedIn,
// explain} as the CLI has them, with the stored fields beside (parent,
// tags, role, project, source, ts, meta), kind and title left out when
// empty, matchedIn null rather than []. Snippets are HTML-escaped with
// <mark> around matches.
// snapshot is a Uint8Array or ArrayBuffer holding an index written by
// index.WriteSnapshot (serve builds one of the corpus): load replaces the
// page's index with it, far faster than adding the documents. With opts
// {trigramsLater: true} it resolves before it builds the trigram index,
// nine tenths of its work: searches then read every document, with exact
// matches and totals and substring ranks of their own, until
// buildTrigrams, which yields to the event loop between its batches,
// resolves (index.Options.TrigramsLater).
//
// A failed call rejects with an Error whose code is "empty_query",
// "invalid_request", "invalid_doc", "corrupt" or "internal".
//
// Each call returns at once and does its work on a goroutine. The browser
// runs Go on the page's one thread, so work still runs between events,
// not beside them; add applies big inputs in slices and yields between
// them so the page stays responsive while a corpus loads.
//
// When the API is installed the program dispatches a "twindex:ready"
// event on globalThis and sets twindex.ready to true.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/twindex/twindex/cmd/twindex-wasm/resultjson"
	"github.com/twindex/twindex/index"
)

// addSlice is the number of documents applied between two yields to the
// event loop. Smaller slices keep the page livelier and cost more batches.
const addSlice = 500

// memoryLimit is the Go heap size at which the collector works harder
// to stay below it (debug.SetMemoryLimit). A WebAssembly memory grows and
// never shrinks, so the page keeps what the heap reached at its highest:
// with the collector's default pacing (GOGC 100, a heap up to twice what
// is live) loading the corpus took the memory to 62 MiB, and the fold
// cache and scan tables after a few searches to 94 MiB. Past the limit a
// bigger corpus costs collections, not a failure.
const memoryLimit = 28 << 20

// building holds the tight memory limit while a load or an add builds,
// and then raises it to the memory the runtime already holds, which the
// page cannot give back: held at 28 MiB after a load that took the memory
// to 36 MiB, the collector ran in its over-the-limit mode on every
// keystroke. It returns the func that raises it.
func building() (done func()) {
	debug.SetMemoryLimit(memoryLimit)
	return func() {
		s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(max(memoryLimit, int64(s[0].Value.Uint64())))
		}
	}
}

func main() {
	debug.SetMemoryLimit(memoryLimit)
	a := &api{}
	obj := js.Global().Get("Object").New()
	obj.Set("add", promiseFunc(a.add))
	obj.Set("load", promiseFunc(a.load))
	obj.Set("buildTrigrams", promiseFunc(a.buildTrigrams))
	obj.Set("search", promiseFunc(a.search))
	obj.Set("remove", promiseFunc(a.remove))
	obj.Set("stats", promiseFunc(a.stats))
	obj.Set("version", "twindex-wasm")
	obj.Set("ready", true)
	js.Global().Set("twindex", obj)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("twindex:ready"))
	select {} // serve calls for the life of the page
}

// api holds the page's index. Calls arrive on the JS thread and run on
// goroutines; the index serializes writes itself. load swaps in another
// index and closes the old one: a call still running on that one may
// fail with "closed".
type api struct {
	ix atomic.Pointer[index.Index] // nil until load, or the first other call
}

// index returns the page's index: the one load put in, else an empty one,
// opened on the first call that needs it. A page that loads a snapshot
// never opens the empty one: 3-9 ms under node (five runs), 10-20 ms in
// Chromium's profile of the page, before the engine said it was ready.
func (a *api) index() (*index.Index, error) {
	if ix := a.ix.Load(); ix != nil {
		return ix, nil
	}
	ix, err := index.OpenMemory(nil)
	if err != nil {
		return nil, err
	}
	if !a.ix.CompareAndSwap(nil, ix) {
		ix.Close()
		return a.ix.Load(), nil
	}
	return ix, nil
}

// codedError carries the code the JS Error gets.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

func errCode(err error) string {
	var ce *codedError
	switch {
	case errors.As(err, &ce):
		return ce.code
	case errors.Is(err, index.ErrEmptyQuery):
		return "empty_query"
	case errors.Is(err, index.ErrInvalidRequest):
		return "invalid_request"
	case errors.Is(err, index.ErrInvalidDoc):
		return "invalid_doc"
	case errors.Is(err, index.ErrCorrupt):
		return "corrupt"
	}
	return "internal"
}

// promiseFunc wraps fn as a JS function returning a Promise. The
// arguments are read on the JS thread, before the call returns, because
// js.Value arguments must not be kept past it; fn's work runs on a
// goroutine and its value, JSON, is parsed into a JS value on resolve.
func promiseFunc(fn func(args []js.Value) (func() (any, error), error)) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) any {
		work, err := fn(args)
		executor := js.FuncOf(func(this js.Value, p []js.Value) any {
			resolve, reject := p[0], p[1]
			go func() {
				var out any
				if err == nil {
					out, err = work()
				}
				buf := jsonBufs.Get().(*[]byte)
				defer jsonBufs.Put(buf)
				if err == nil {
					*buf, err = marshal((*buf)[:0], out)
				}
				if err != nil {
					e := js.Global().Get("Error").New(err.Error())
					e.Set("code", errCode(err))
					reject.Invoke(e)
					return
				}
				// The JSON is copied into a JS string as the call is
				// made, so the buffer is free again once it returns.
				resolve.Invoke(js.Global().Get("JSON").Call("parse", unsafe.String(unsafe.SliceData(*buf), len(*buf))))
			}()
			return nil
		})
		// The Promise constructor calls the executor before returning.
		defer executor.Release()
		return js.Global().Get("Promise").New(executor)
	})
}

// jsonBufs hold the calls' JSON between calls: a keystroke's answer
// (14 KB for 20 hits) is then no garbage for the page's collector.
var jsonBufs = sync.Pool{New: func() any { return new([]byte) }}

// marshal appends v's JSON to dst, keeping < and > readable in snippets,
// as the CLI's JSON does. A search's result writes itself (package
// resultjson: encoding/json took a third of a keystroke's time in
// js/wasm).
func marshal(dst []byte, v any) ([]byte, error) {
	if r, ok := v.(*resultjson.Result); ok {
		return r.AppendJSON(dst)
	}
	b := bytes.NewBuffer(dst)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	return b.Bytes(), nil
}

func badArg(format string, a ...any) error {
	return &codedError{code: "invalid_request", err: fmt.Errorf(format, a...)}
}

// jsonOf returns v as JSON text: a string is taken as JSON already.
func jsonOf(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return js.Global().Get("JSON").Call("stringify", v).String()
}

func (a *api) add(args []js.Value) (func() (any, error), error) {
	if len(args) < 1 || args[0].IsUndefined() || args[0].IsNull() {
		return nil, badArg("add: want documents: an array, one document, or JSON text")
	}
	text := strings.TrimSpace(jsonOf(args[0]))
	var docs []index.Doc
	var err error
	if strings.HasPrefix(text, "{") {
		var d index.Doc
		err = json.Unmarshal([]byte(text), &d)
		docs = []index.Doc{d}
	} else {
		err = json.Unmarshal([]byte(text), &docs)
	}
	if err != nil {
		return nil, &codedError{code: "invalid_doc", err: fmt.Errorf("add: %w", err)}
	}
	return func() (any, error) {
		defer building()()
		ctx := context.Background()
		ix, err := a.index()
		if err != nil {
			return nil, err
		}
		for start := 0; start < len(docs); start += addSlice {
			end := min(start+addSlice, len(docs))
			if err := ix.Upsert(ctx, docs[start:end]...); err != nil {
				return nil, fmt.Errorf("add: %w", err)
			}
			if end < len(docs) {
				yield()
			}
		}
		n, err := ix.Count()
		if err != nil {
			return nil, err
		}
		return map[string]int{"written": len(docs), "docs": n}, nil
	}, nil
}

func (a *api) load(args []js.Value) (func() (any, error), error) {
	if len(args) < 1 || !args[0].InstanceOf(js.Global().Get("Uint8Array")) && !args[0].InstanceOf(js.Global().Get("ArrayBuffer")) {
		return nil, badArg("load: want a snapshot: a Uint8Array or an ArrayBuffer")
	}
	var o struct {
		TrigramsLater bool `json:"trigramsLater"`
	}
	if len(args) > 1 && !args[1].IsUndefined() && !args[1].IsNull() {
		if err := json.Unmarshal([]byte(jsonOf(args[1])), &o); err != nil {
			return nil, badArg("load options: %w", err)
		}
	}
	arr := js.Global().Get("Uint8Array").New(args[0])
	data := make([]byte, arr.Get("length").Int())
	js.CopyBytesToGo(data, arr)
	return func() (any, error) {
		defer building()()
		start := time.Now()
		ix, err := index.OpenSnapshot(bytes.NewBuffer(data), &index.Options{TrigramsLater: o.TrigramsLater})
		if err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
		if old := a.ix.Swap(ix); old != nil {
			old.Close()
		}
		n, err := ix.Count()
		if err != nil {
			return nil, err
		}
		return map[string]any{"docs": n, "ms": time.Since(start).Milliseconds()}, nil
	}, nil
}

// buildTrigrams builds the trigram index of a snapshot that load left
// without one; at once when the page's index has one.
func (a *api) buildTrigrams([]js.Value) (func() (any, error), error) {
	return func() (any, error) {
		defer building()()
		start := time.Now()
		ix, err := a.index()
		if err != nil {
			return nil, err
		}
		if err := ix.BuildTrigrams(context.Background(), paced(buildSlice)); err != nil {
			return nil, fmt.Errorf("build trigrams: %w", err)
		}
		return map[string]any{"ms": time.Since(start).Milliseconds()}, nil
	}, nil
}

// buildSlice is how long buildTrigrams works between two yields: a
// keystroke during the build waits about that long, and each yield costs
// a timer's round trip (1-4 ms).
const buildSlice = 12 * time.Millisecond

// paced returns a pause that yields once every has passed since the last.
func paced(every time.Duration) func() {
	last := time.Now()
	return func() {
		if time.Since(last) >= every {
			yield()
			last = time.Now()
		}
	}
}

// yield lets the event loop run: a timer wakes the goroutine from the JS
// side, and in between the browser handles input and paints.
func yield() { time.Sleep(time.Millisecond) }

// searchOptions is the second argument of twindex.search.
type searchOptions struct {
	Mode    index.Mode `json:"mode"`
	Kinds   []string   `json:"kinds"`
	Limit   int        `json:"limit"`
	Offset  int        `json:"offset"`
	Explain bool       `json:"explain"`
	Prefix  *bool      `json:"prefix"` // nil: true
}

func (a *api) search(args []js.Value) (func() (any, error), error) {
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return nil, badArg("search: want a query string")
	}
	q := args[0].String()
	var o searchOptions
	if len(args) > 1 && !args[1].IsUndefined() && !args[1].IsNull() {
		if err := json.Unmarshal([]byte(jsonOf(args[1])), &o); err != nil {
			return nil, badArg("search options: %w", err)
		}
	}
	return func() (any, error) {
		ix, err := a.index()
		if err != nil {
			return nil, err
		}
		start := time.Now()
		res, err := ix.Search(context.Background(), index.Request{Query: q, Prefix: o.Prefix == nil || *o.Prefix, Mode: o.Mode, Kinds: o.Kinds,
			Limit: o.Limit, Offset: o.Offset, Explain: o.Explain})
		if err != nil {
			return nil, err
		}
		took := time.Since(start)
		for i := range res.Hits {
			if res.Hits[i].MatchedIn == nil {
				res.Hits[i].MatchedIn = []string{}
			}
		}
		if res.Hits == nil {
			res.Hits = []index.Hit{}
		}
		return &resultjson.Result{Query: q, Result: res, Truncated: res.NextOffset != nil,
			TookMs: math.Round(float64(took.Microseconds())) / 1000}, nil
	}, nil
}

func (a *api) remove(args []js.Value) (func() (any, error), error) {
	var ids []string
	if len(args) >= 1 {
		if args[0].Type() == js.TypeString {
			ids = []string{args[0].String()}
		} else if err := json.Unmarshal([]byte(jsonOf(args[0])), &ids); err != nil {
			return nil, badArg("remove: want an ID or an array of IDs: %w", err)
		}
	}
	return func() (any, error) {
		ix, err := a.index()
		if err != nil {
			return nil, err
		}
		n, err := ix.Remove(context.Background(), ids...)
		if err != nil {
			return nil, fmt.Errorf("remove: %w", err)
		}
		c, err := ix.Count()
		if err != nil {
			return nil, err
		}
		return map[string]int{"removed": n, "docs": c}, nil
	}, nil
}

func (a *api) stats(args []js.Value) (func() (any, error), error) {
	return func() (any, error) {
		ix, err := a.index()
		if err != nil {
			return nil, err
		}
		return ix.Stats()
	}, nil
}
