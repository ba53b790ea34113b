package fusion_test

import (
	"fmt"
	"time"

	"github.com/twindex/twindex/fusion"
)

func ExampleRRF() {
	hits := fusion.RRF([]fusion.List{
		{Leg: "text", IDs: []string{"a", "b", "c"}, Scores: []float64{7.1, 5.3, 2.0}},
		{Leg: "trigram", IDs: []string{"b", "d"}},
	}, fusion.Options{})
	for _, h := range hits {
		fmt.Printf("%s %.4f", h.ID, h.Score)
		for _, l := range h.Legs {
			fmt.Printf(" %s#%d", l.Leg, l.Rank)
		}
		fmt.Println()
	}
	// Output:
	// b 0.0325 text#2 trigram#1
	// a 0.0164 text#1
	// d 0.0161 trigram#2
	// c 0.0159 text#3
}

func ExamplePage() {
	ids := []string{"a", "b", "c", "d", "e"}
	for off := 0; ; {
		page, next := fusion.Page(ids, off, 2)
		fmt.Println(page)
		if next == nil {
			break
		}
		off = *next
	}
	// Output:
	// [a b]
	// [c d]
	// [e]
}

func ExampleNormalize() {
	hits := fusion.RRF([]fusion.List{
		{Leg: "text", IDs: []string{"a", "b"}},
		{Leg: "trigram", IDs: []string{"b"}},
	}, fusion.Options{})
	for _, h := range fusion.Normalize(hits) {
		fmt.Printf("%s %.4f\n", h.ID, h.Score)
	}
	// Output:
	// b 1.0000
	// a 0.5041
}

func ExampleExpand() {
	// Links as a store would give them: a file contains a function, which
	// another file imports.
	links := []fusion.Edge{
		{From: "parser.go", To: "Parse", Type: "contains"},
		{From: "main.go", To: "parser.go", Type: "imports"},
	}
	neighbors := func(id string) (out, in []fusion.Edge, err error) {
		for _, e := range links {
			if e.From == id {
				out = append(out, e)
			}
			if e.To == id {
				in = append(in, e)
			}
		}
		return out, in, nil
	}
	hits := fusion.Normalize(fusion.RRF([]fusion.List{
		{Leg: "text", IDs: []string{"parser.go", "lexer.go"}},
	}, fusion.Options{}))
	hits, err := fusion.Expand(hits, neighbors, fusion.ExpandOptions{
		EdgeDecay: map[string]float64{"contains": 0.95, "imports": 0.7},
		MinScore:  0.5,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range hits {
		fmt.Printf("%-9s %.3f", h.ID, h.Score)
		if v := h.Via; v != nil {
			dir := "->"
			if v.Incoming {
				dir = "<-"
			}
			fmt.Printf("  via %s %s%s, %d hop", v.From, v.Type, dir, v.Hops)
		}
		fmt.Println()
	}
	// Output:
	// parser.go 1.000
	// lexer.go  0.984
	// Parse     0.950  via parser.go contains->, 1 hop
	// main.go   0.700  via parser.go imports<-, 1 hop
}

func ExampleApplyBoost() {
	docs := map[string]fusion.Attrs{
		"a": {Project: "api"},
		"b": {Project: "web", Session: "s7"},
		"c": {Project: "web"},
	}
	hits := []fusion.Hit{{ID: "a", Score: 1}, {ID: "b", Score: 0.9}, {ID: "c", Score: 0.6}}
	hits, err := fusion.ApplyBoost(hits, fusion.Boost{Project: "web", Session: "s7"}, func(id string) (fusion.Attrs, error) {
		return docs[id], nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range hits {
		b := h.Boosted
		fmt.Printf("%s %.2f = %.2f x project %.1f x session %.1f\n", h.ID, h.Score, b.Base, b.Project, b.Session)
	}
	// Output:
	// b 1.62 = 0.90 x project 1.5 x session 1.2
	// a 1.00 = 1.00 x project 1.0 x session 1.0
	// c 0.90 = 0.60 x project 1.5 x session 1.0
}

func ExampleBoost_recency() {
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	b := fusion.Boost{HalfLife: 7 * 24 * time.Hour, Now: now}
	for _, age := range []int{0, 7, 14, 70} {
		t := now.AddDate(0, 0, -age)
		hits, _ := fusion.ApplyBoost([]fusion.Hit{{ID: "x", Score: 1}}, b, func(string) (fusion.Attrs, error) {
			return fusion.Attrs{Time: t}, nil
		})
		fmt.Printf("%2d days: x%.3f\n", age, hits[0].Boosted.Recency)
	}
	// Output:
	//  0 days: x1.200
	//  7 days: x1.100
	// 14 days: x1.050
	// 70 days: x1.000
}
