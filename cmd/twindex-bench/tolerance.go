package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/twindex/twindex/index"
)

// toleranceRow is the text leg's latency with one kind of tolerance, next
// to the exact search's.
type toleranceRow struct {
	Variant string  `json:"variant"`
	P50     int64   `json:"p50_us"`
	P95     int64   `json:"p95_us"`
	Ratio   float64 `json:"p50_ratio_to_exact"`
	Hits    int     `json:"median_total"`
}

// exactRequest is a query as the yardstick compares it with FTS5: complete
// words (a trailing space: no as-you-type prefix) and no fallback, since
// FTS5 matches exactly.
func exactRequest(q string, m index.Mode, top int) index.Request {
	return index.Request{Query: q + " ", Mode: m, Limit: top, Fallback: -1}
}

// toleranceVariants are the requests the tolerance table times, in text mode.
var toleranceVariants = []struct {
	name string
	req  func(q string, top int) index.Request
}{
	{"exact", func(q string, top int) index.Request { return exactRequest(q, index.ModeText, top) }},
	{"as typed (Prefix: last word also a prefix, fallback)", func(q string, top int) index.Request {
		return index.Request{Query: q, Prefix: true, Mode: index.ModeText, Limit: top}
	}},
	{"raw prefix (last word*)", func(q string, top int) index.Request {
		return index.Request{Query: rawPrefix(q), Syntax: index.SyntaxRaw, Mode: index.ModeText, Limit: top, Fallback: -1}
	}},
	{"fuzzy auto", func(q string, top int) index.Request {
		r := exactRequest(q, index.ModeText, top)
		r.Fuzzy = index.FuzzyAuto
		return r
	}},
}

// rawPrefix writes q in the raw syntax with its last word a prefix: open
// fil*. A word that is not a bareword (letters, digits, _) is quoted, and
// so becomes a phrase of its parts: "bufio.Scanner".
func rawPrefix(q string) string {
	words := strings.Fields(q)
	for i, w := range words {
		if strings.IndexFunc(w, func(r rune) bool { return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) }) >= 0 ||
			w == "AND" || w == "OR" || w == "NOT" || w == "NEAR" {
			words[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		}
	}
	if len(words) > 0 {
		words[len(words)-1] += "*"
	}
	return strings.Join(words, " ")
}

// tolerance times every query in text mode in each variant: one warm-up
// pass and cfg.Passes timed ones, alternating the variants query by query
// so that drift in the machine's speed hits them alike.
func tolerance(ctx context.Context, ix *index.Index, qs []benchQuery, cfg yardstickConfig, log io.Writer) ([]toleranceRow, error) {
	lat := make([]map[string][]int64, len(toleranceVariants))
	totals := make([]map[string]int, len(toleranceVariants))
	for i := range lat {
		lat[i], totals[i] = map[string][]int64{}, map[string]int{}
	}
	t0 := time.Now()
	for pass := 0; pass <= cfg.Passes; pass++ {
		for _, q := range qs {
			for vi, v := range toleranceVariants {
				w0 := time.Now()
				res, err := ix.Search(ctx, v.req(q.Text, cfg.Top))
				us := time.Since(w0).Microseconds()
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				if err != nil && !errors.Is(err, index.ErrEmptyQuery) {
					return nil, fmt.Errorf("%s %q: %w", v.name, q.Text, err)
				}
				if pass == 0 {
					if res != nil {
						totals[vi][q.ID] = res.Total
					}
					continue
				}
				lat[vi][q.ID] = append(lat[vi][q.ID], us)
			}
		}
	}
	fmt.Fprintf(log, "  tolerance: %d queries x %d variants x %d passes in %.1f s\n", len(qs), len(toleranceVariants), cfg.Passes+1, time.Since(t0).Seconds())
	var rows []toleranceRow
	for vi, v := range toleranceVariants {
		var meds []int64
		var hits []int64
		for _, q := range qs {
			xs := slices.Clone(lat[vi][q.ID])
			slices.Sort(xs)
			meds = append(meds, xs[len(xs)/2])
			hits = append(hits, int64(totals[vi][q.ID]))
		}
		slices.Sort(meds)
		slices.Sort(hits)
		rows = append(rows, toleranceRow{Variant: v.name, P50: pct(meds, 50), P95: pct(meds, 95), Hits: int(pct(hits, 50))})
	}
	for i := range rows {
		rows[i].Ratio = round2(float64(rows[i].P50) / float64(max(rows[0].P50, 1)))
	}
	return rows, nil
}

func printTolerance(w io.Writer, rows []toleranceRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "\nText mode with tolerance (per query the median of the passes, variants alternated query by query):")
	fmt.Fprintln(w, "\n| variant | median total hits | p50 µs | p95 µs | p50 / exact p50 |\n|---|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %.2f |\n", r.Variant, r.Hits, r.P50, r.P95, r.Ratio)
	}
}
