package memkv_test

import (
	"fmt"

	"github.com/twindex/twindex/index/internal/memkv"
)

// A store is built from entries in increasing key order, opened as bleve's
// registry would open it, and written out again through a Snapshot.
func ExampleBuilder() {
	var b memkv.Builder
	b.Add([]byte("apple"), []byte("1"))
	b.Add([]byte("banana"), []byte("2"))
	b.Add([]byte("cherry"), []byte("3"))
	kv, err := memkv.New(nil, map[string]interface{}{memkv.ConfigStore: b.Store()})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := kv.Reader()
	v, _ := r.Get([]byte("banana"))
	fmt.Printf("banana = %s\n", v)
	r.Close()

	snap := kv.(*memkv.Store).Snapshot()
	fmt.Println(snap.Len(), "entries:")
	snap.Walk(func(k, v []byte) { fmt.Printf("%s = %s\n", k, v) })
	// Output:
	// banana = 2
	// 3 entries:
	// apple = 1
	// banana = 2
	// cherry = 3
}
