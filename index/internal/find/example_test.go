package find_test

import (
	"fmt"

	"github.com/twindex/twindex/index/internal/find"
)

func ExampleFinder() {
	f := find.New("urn")
	fmt.Println(f.Index("the return value"), f.In("a turnip"), f.In("run"))
	// Output: 7 true false
}

func ExampleCount() {
	fmt.Println(find.Count("the error of errors", "er"), find.Count("the error of errors", "r"))
	// Output: 2 6
}
