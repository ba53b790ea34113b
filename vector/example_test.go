package vector_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/twindex/twindex/vector"
)

func ExampleSet_Search() {
	vecs, err := vector.New(3, nil)
	if err != nil {
		panic(err)
	}
	for id, v := range map[string][]float32{
		"cats":   {0.9, 0.1, 0},
		"dogs":   {0.8, 0.3, 0},
		"stocks": {0, 0.1, 0.9},
	} {
		if err := vecs.Put(id, v); err != nil {
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

// Above Options.ExactMax vectors a set searches its HNSW graph; Seed makes
// the graph, and so its answers, reproducible.
func ExampleNew() {
	set, err := vector.New(2, &vector.Options{ExactMax: 4, Seed: 1})
	if err != nil {
		panic(err)
	}
	for i := range 8 { // eight directions, 45 degrees apart
		a := float64(i) * math.Pi / 4
		if err := set.Put(fmt.Sprint("dir", i), []float32{float32(math.Cos(a)), float32(math.Sin(a))}); err != nil {
			panic(err)
		}
	}
	set.Delete("dir1")
	hits, err := set.Search([]float32{1, 0.1}, 3, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(set.Len(), "vectors of dimension", set.Dim())
	for _, h := range hits {
		fmt.Printf("%s %.2f\n", h.ID, h.Score)
	}
	// Output:
	// 7 vectors of dimension 2
	// dir0 1.00
	// dir7 0.63
	// dir2 0.10
}

func ExampleSet_Put() {
	set, err := vector.New(2, nil)
	if err != nil {
		panic(err)
	}
	err = set.Put("a", []float32{1, 0, 0})
	fmt.Println(err)
	fmt.Println(errors.Is(err, vector.ErrInvalidVector))
	// Output:
	// id "a": invalid vector: dimension 3, want 2
	// true
}
