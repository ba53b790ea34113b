package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
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
	e        *env
	format   string
	color    bool
	batch    bool         // --queries: one JSON object per line
	grepOpts *grepOptions // the text format's
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

// ripgrep's colors: paths magenta, line numbers green, matches bold red.
const (
	ansiReset = "\x1b[0m"
	ansiPath  = "\x1b[35m"
	ansiLine  = "\x1b[32m"
	ansiDim   = "\x1b[2m"
	ansiMatch = "\x1b[1;31m"
)

func (o *output) text(w *bufio.Writer, res *index.Result) {
	o.grep(w, res)
	// The footer and warnings go to stderr after the hits, on a terminal
	// below them.
	w.Flush()
	if len(res.Hits) > 0 {
		footer := fmt.Sprintf("%d of %d result(s)", len(res.Hits), res.Total)
		if res.NextOffset != nil {
			footer += fmt.Sprintf("; more with --offset %d", *res.NextOffset)
		}
		fmt.Fprintln(o.e.stderr, footer)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(o.e.stderr, "warning: %s\n", plain.Clean(w))
	}
}
