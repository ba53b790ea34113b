// Package resultjson writes the browser engine's search results as JSON:
// the bytes encoding/json writes for them with HTML escaping off, made
// without reflection and with strings scanned eight bytes at a time. In
// js/wasm, encoding/json took 0.56-0.78 ms to write a page of 20 hits
// (about 14 KB), a third of what the search itself took; natively it
// takes 40 us. The rarely set parts of a hit (Explain, Via) are still
// written by encoding/json.
//
// Invariant: Result.AppendJSON's bytes equal those of an encoding/json
// Encoder with SetEscapeHTML(false), less its trailing newline; for a
// value encoding/json refuses (a NaN score, a time past year 9999) it
// returns encoding/json's error.
package resultjson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/twindex/twindex/index"
)

// Result is what the page's twindex.search resolves to: the CLI's --json
// result at the top level, with the engine's hits (package main's doc
// says how they differ from the CLI's).
type Result struct {
	Query string `json:"query"`
	*index.Result
	Truncated bool    `json:"truncated"`
	TookMs    float64 `json:"tookMs"`
}

// AppendJSON appends r's JSON to dst. Cost: O(the output's size).
func (r *Result) AppendJSON(dst []byte) ([]byte, error) {
	w := writer{b: slices.Grow(dst, r.sizeHint())}
	w.raw(`{"query":`)
	w.str(r.Query)
	if res := r.Result; res != nil {
		w.raw(`,"mode":`)
		w.str(string(res.Mode))
		w.raw(`,"hits":`)
		if res.Hits == nil {
			w.raw("null")
		} else {
			w.raw("[")
			for i := range res.Hits {
				if i > 0 {
					w.raw(",")
				}
				w.hit(&res.Hits[i])
			}
			w.raw("]")
		}
		w.raw(`,"total":`)
		w.int(res.Total)
		w.raw(`,"nextOffset":`)
		if res.NextOffset == nil {
			w.raw("null")
		} else {
			w.int(*res.NextOffset)
		}
		if res.Tolerant {
			w.raw(`,"tolerant":true`)
		}
		if res.DidYouMean != "" {
			w.raw(`,"didYouMean":`)
			w.str(res.DidYouMean)
		}
		if len(res.Warnings) > 0 {
			w.raw(`,"warnings":`)
			w.strs(res.Warnings)
		}
		if len(res.Partial) > 0 {
			w.raw(`,"partial":[`)
			for i, p := range res.Partial {
				if i > 0 {
					w.raw(",")
				}
				w.int(p)
			}
			w.raw("]")
		}
	}
	w.raw(`,"truncated":`)
	w.bool(r.Truncated)
	w.raw(`,"tookMs":`)
	w.float(r.TookMs)
	w.raw("}")
	if w.err != nil {
		// A value encoding/json refuses: its error, as it words it.
		_, err := json.Marshal(r)
		return dst, err
	}
	return w.b, nil
}

// sizeHint is about the JSON's length, to grow the buffer once: each
// hit's strings and a little more for its names and numbers.
func (r *Result) sizeHint() int {
	n := 128 + len(r.Query)
	if r.Result != nil {
		for i := range r.Hits {
			h := &r.Hits[i]
			n += 160 + len(h.ID) + len(h.Title) + len(h.Kind) + len(h.Parent) + len(h.Snippet)
		}
	}
	return n
}

// writer appends JSON to b, keeping the first error.
type writer struct {
	b   []byte
	err error
}

func (w *writer) raw(s string) { w.b = append(w.b, s...) }

func (w *writer) int(n int) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

func (w *writer) bool(v bool) { w.b = strconv.AppendBool(w.b, v) }

func (w *writer) hit(h *index.Hit) {
	w.raw(`{"id":`)
	w.str(h.ID)
	w.optStr(`,"kind":`, h.Kind)
	w.optStr(`,"title":`, h.Title)
	w.optStr(`,"parent":`, h.Parent)
	if len(h.Tags) > 0 {
		w.raw(`,"tags":`)
		w.strs(h.Tags)
	}
	w.optStr(`,"role":`, h.Role)
	w.optStr(`,"project":`, h.Project)
	w.optStr(`,"source":`, h.Source)
	if !h.Time.IsZero() {
		w.raw(`,"ts":`)
		w.time(h.Time)
	}
	if len(h.Meta) > 0 {
		w.raw(`,"meta":{`)
		keys := make([]string, 0, len(h.Meta))
		for k := range h.Meta {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				w.raw(",")
			}
			w.str(k)
			w.raw(":")
			w.str(h.Meta[k])
		}
		w.raw("}")
	}
	w.raw(`,"field":`)
	w.str(h.Field)
	w.raw(`,"snippet":`)
	w.str(h.Snippet)
	w.optInt(`,"line":`, h.Line)
	w.optInt(`,"column":`, h.Column)
	if len(h.Lines) > 0 {
		w.raw(`,"lines":[`)
		for i, l := range h.Lines {
			if i > 0 {
				w.raw(",")
			}
			w.raw(`{"n":`)
			w.int(l.N)
			w.raw(`,"text":`)
			w.str(l.Text)
			if l.Match {
				w.raw(`,"match":true`)
			}
			w.raw("}")
		}
		w.raw("]")
	}
	w.optInt(`,"matchingLines":`, h.MatchingLines)
	w.raw(`,"score":`)
	w.float(h.Score)
	w.raw(`,"norm":`)
	w.float(h.Norm)
	w.raw(`,"matchedIn":`)
	if h.MatchedIn == nil {
		w.raw("null")
	} else {
		w.strs(h.MatchedIn)
	}
	if h.Via != nil {
		w.raw(`,"via":`)
		w.std(h.Via)
	}
	if h.Explain != nil {
		w.raw(`,"explain":`)
		w.std(h.Explain)
	}
	w.raw("}")
}

func (w *writer) optStr(key, s string) {
	if s != "" {
		w.raw(key)
		w.str(s)
	}
}

func (w *writer) optInt(key string, n int) {
	if n != 0 {
		w.raw(key)
		w.int(n)
	}
}

func (w *writer) strs(ss []string) {
	w.raw("[")
	for i, s := range ss {
		if i > 0 {
			w.raw(",")
		}
		w.str(s)
	}
	w.raw("]")
}

// std appends v as encoding/json writes it without HTML escaping.
func (w *writer) std(v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		w.fail(err)
		return
	}
	w.b = append(w.b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

func (w *writer) time(t time.Time) {
	b, err := t.MarshalJSON()
	if err != nil {
		w.fail(err)
		return
	}
	w.b = append(w.b, b...)
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// float appends f as encoding/json does: the shortest decimal that reads
// back as f, in exponent form below 1e-6 and from 1e21 on.
func (w *writer) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.fail(errUnsupported)
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' { // e-09 as e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	w.b = b
}

var errUnsupported = errors.New("unsupported value")

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain reports whether none of the eight bytes of x needs a look: each
// is ASCII, at least 0x20, and neither '"' nor '\\'.
func plain(x uint64) bool {
	zero := func(v uint64) uint64 { return (v - ones) & ^v & highs } // a zero byte
	return (x|(x-0x20*ones))&highs == 0 && zero(x^'"'*ones)|zero(x^'\\'*ones) == 0
}

const hex = "0123456789abcdef"

// str appends s quoted as encoding/json quotes strings without HTML
// escaping: '"', '\\' and control characters escaped, invalid UTF-8 as
// U+FFFD, U+2028 and U+2029 escaped.
func (w *writer) str(s string) {
	b := append(w.b, '"')
	sb := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain(binary.LittleEndian.Uint64(sb[i:])) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.b = append(append(b, s[start:]...), '"')
}
