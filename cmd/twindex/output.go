package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// jsonResult is one query's result in the json format and in --queries output.
type jsonResult struct {
	ID         string       `json:"id,omitempty"`
	Query      string       `json:"query"`
	Mode       index.Mode   `json:"mode"`
	Hits       []server.Hit `json:"hits"`
	Total      int          `json:"total"`
	NextOffset *int         `json:"nextOffset"`
	Truncated  bool         `json:"truncated"`
	Tolerant   bool         `json:"tolerant,omitempty"`
	DidYouMean string       `json:"didYouMean,omitempty"`
	Warnings   []string     `json:"warnings,omitempty"`
	TookMs     float64      `json:"tookMs"`
}

// output prints results in one format.
type output struct {
	e      *env
	format string
	color  bool
	batch  bool // --queries: one JSON object per line
}

// useColor: ANSI color only on a terminal and without NO_COLOR.
func useColor(e *env) bool {
	return isTerminal(e.stdout) && e.getenv("NO_COLOR") == "" && e.getenv("TERM") != "dumb"
}

func jsonUnmarshal(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return jsonErr(err)
	}
	return nil
}

func toJSONResult(id, q string, res *index.Result, took time.Duration) jsonResult {
	jr := jsonResult{ID: id, Query: q, Mode: res.Mode, Hits: []server.Hit{}, Total: res.Total, NextOffset: res.NextOffset,
		Truncated: res.NextOffset != nil, Tolerant: res.Tolerant, DidYouMean: res.DidYouMean, Warnings: res.Warnings,
		TookMs: math.Round(float64(took.Microseconds())) / 1000}
	for _, h := range res.Hits {
		jr.Hits = append(jr.Hits, server.NewHit(h))
	}
	return jr
}

// result prints one query's result; qid names it in batch and TREC output.
func (o *output) result(qid, q string, res *index.Result, took time.Duration) error {
	w := bufio.NewWriter(o.e.stdout)
	switch {
	case o.format == "trec":
		for i, h := range res.Hits {
			fmt.Fprintf(w, "%s Q0 %s %d %s twindex\n", qid, trecID(h.ID), i+1, formatScore(h.Score))
		}
	case o.batch:
		writeJSON(w, toJSONResult(qid, q, res, took))
	case o.format == "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(toJSONResult("", q, res, took))
	case o.format == "jsonl":
		for _, h := range res.Hits {
			writeJSON(w, server.NewHit(h))
		}
	default:
		o.text(w, res)
	}
	return w.Flush()
}

// writeJSON writes v on one line; snippets keep their < and > readable.
func writeJSON(w *bufio.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// trecID keeps a run file parseable: TREC fields are whitespace-separated.
func trecID(id string) string {
	return strings.Join(strings.Fields(id), "_")
}

// formatScore prints the shortest form that reads back as the same
// float64, so a scorer re-sorting the run sees our exact order and ties.
func formatScore(s float64) string {
	return strconv.FormatFloat(s, 'g', -1, 64)
}

const (
	ansiReset = "\x1b[0m"
	ansiPath  = "\x1b[1;35m"
	ansiDim   = "\x1b[2m"
	ansiMatch = "\x1b[1;31m"
)

func (o *output) text(w *bufio.Writer, res *index.Result) {
	for i, h := range res.Hits {
		if i > 0 {
			w.WriteByte('\n')
		}
		name := h.ID
		if h.Title != "" && h.Title != pathBase(h.ID) {
			name += "  " + h.Title
		}
		name = clean(name)
		meta := fmt.Sprintf("%s  %.4f", orDash(h.Kind), h.Score)
		if slices.Contains(h.MatchedIn, index.LegFuzzy) {
			meta += "  (fuzzy)"
		}
		if h.Via != nil {
			meta += fmt.Sprintf("  (via %s, %s)", clean(h.Via.Seed), orDash(h.Via.Type))
		}
		if o.color {
			fmt.Fprintf(w, "%s%s%s  %s%s%s\n", ansiPath, name, ansiReset, ansiDim, meta, ansiReset)
		} else {
			fmt.Fprintf(w, "%s  %s\n", name, meta)
		}
		if s := o.snippet(h.Snippet); s != "" {
			fmt.Fprintf(w, "    %s\n", s)
		}
		if h.Explain != nil {
			var legs []string
			for _, l := range h.Explain.Legs {
				legs = append(legs, fmt.Sprintf("%s #%d (%.4f)", l.Leg, l.Rank, l.Score))
			}
			if h.Explain.Rerank != nil {
				legs = append(legs, fmt.Sprintf("reranked (%.4f)", *h.Explain.Rerank))
			}
			fmt.Fprintf(w, "    explain: RRF k=%d: %s\n", h.Explain.K, strings.Join(legs, ", "))
		}
	}
	if len(res.Hits) > 0 {
		footer := fmt.Sprintf("%d of %d result(s)", len(res.Hits), res.Total)
		if res.NextOffset != nil {
			footer += fmt.Sprintf("; more with --offset %d", *res.NextOffset)
		}
		fmt.Fprintln(o.e.stderr, footer)
	}
	if res.DidYouMean != "" {
		fmt.Fprintf(o.e.stderr, "no results; did you mean: %s\n", clean(res.DidYouMean))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(o.e.stderr, "warning: %s\n", clean(w))
	}
}

// snippet turns the engine's HTML snippet into terminal text: marks become
// color (or nothing), entities are unescaped, and control characters,
// which could drive the terminal, become spaces.
func (o *output) snippet(s string) string {
	var b strings.Builder
	for i, part := range strings.Split(s, "<mark>") {
		pre, in := "", part
		if i > 0 {
			var ok bool
			in, pre, ok = strings.Cut(part, "</mark>")
			if !ok {
				in, pre = part, ""
			}
			if o.color {
				b.WriteString(ansiMatch + clean(html.UnescapeString(in)) + ansiReset)
			} else {
				b.WriteString(clean(html.UnescapeString(in)))
			}
		} else {
			pre = part
		}
		b.WriteString(clean(html.UnescapeString(pre)))
	}
	return strings.TrimSpace(b.String())
}

// clean replaces control characters and runs of whitespace by one space.
func clean(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == ' ' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

func pathBase(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[i+1:]
	}
	return id
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
