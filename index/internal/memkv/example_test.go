package memkv_test

import (
	"fmt"

	"github.com/twindex/twindex/index/internal/memkv"
)

// A store is opened as bleve's registry would open it, written in a batch
// and read back through a reader, which sees the store as it was when the
// reader was made.
func ExampleNew() {
	kv, err := memkv.New(nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	w, _ := kv.Writer()
	b := w.NewBatch()
	b.Set([]byte("apple"), []byte("1"))
	b.Set([]byte("banana"), []byte("2"))
	if err := w.ExecuteBatch(b); err != nil {
		fmt.Println(err)
		return
	}
	r, _ := kv.Reader()
	b = w.NewBatch()
	b.Delete([]byte("banana"))
	w.ExecuteBatch(b)
	v, _ := r.Get([]byte("banana"))
	fmt.Printf("banana = %s\n", v)
	r.Close()
	r, _ = kv.Reader()
	v, _ = r.Get([]byte("banana"))
	fmt.Printf("banana = %q after the delete\n", v)
	r.Close()
	w.Close()
	// Output:
	// banana = 2
	// banana = "" after the delete
}
