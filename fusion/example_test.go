package fusion_test

import (
	"fmt"

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
