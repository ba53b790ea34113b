package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/tokenize"
)

// scanCheck counts, for every query of sets, the corpus's documents whose
// folded title or body holds each of the query's leaves (simple syntax:
// words and quoted phrases), by brute force, and compares the counts with
// the substring mode's totals in results (the sets' answers). It returns
// the number of queries that differ, each reported on log.
func scanCheck(corpus string, sets [][]benchQuery, results [][]resultLine, log io.Writer) (int, error) {
	type doc struct{ title, body string }
	var docs []doc
	err := eachJSONL(corpus, func(d *benchDoc) error {
		docs = append(docs, doc{tokenize.Fold(d.Title), tokenize.Fold(d.Body)})
		return nil
	})
	if err != nil {
		return 0, err
	}
	bad := 0
	for set, qs := range sets {
		totals := map[string]int{}
		for _, r := range results[set] {
			if r.Mode == string(index.ModeSubstring) {
				totals[r.QID] = r.Total
			}
		}
		for _, q := range qs {
			ast, err := query.Simple(q.Text)
			if err != nil {
				continue // nothing to search for: the engine's total is 0 too
			}
			var leaves []string
			for _, n := range query.Leaves(ast) {
				switch n := n.(type) {
				case *query.Term:
					leaves = append(leaves, tokenize.Fold(n.Text))
				case *query.Phrase:
					leaves = append(leaves, tokenize.Fold(n.Text))
				}
			}
			want := 0
			for _, d := range docs {
				all := true
				for _, l := range leaves {
					if !strings.Contains(d.title, l) && !strings.Contains(d.body, l) {
						all = false
						break
					}
				}
				if all {
					want++
				}
			}
			if got := totals[q.ID]; got != want {
				bad++
				fmt.Fprintf(log, "  scan: %s %q: substring total %d, a scan finds %d\n", q.ID, q.Text, got, want)
			}
		}
	}
	return bad, nil
}
