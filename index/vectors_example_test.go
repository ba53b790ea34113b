package index_test

import (
	"fmt"

	"github.com/twindex/twindex/index"
)

func ExampleVectors_Search() {
	vecs, err := index.NewVectors(3, nil)
	if err != nil {
		panic(err)
	}
	for id, v := range map[string][]float32{
		"cats":   {0.9, 0.1, 0},
		"dogs":   {0.8, 0.3, 0},
		"stocks": {0, 0.1, 0.9},
	} {
		if err := vecs.Set(id, v); err != nil {
			panic(err)
		}
	}
	notDogs := func(id string) bool { return id != "dogs" }
	hits, err := vecs.Search([]float32{1, 0.2, 0}, 2, notDogs)
	if err != nil {
		panic(err)
	}
	for _, h := range hits {
		fmt.Printf("%s %.2f\n", h.ID, h.Score)
	}
	// Output:
	// cats 1.00
	// stocks 0.02
}
