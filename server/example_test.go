package server_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// A program owns an index and serves it to this machine; another
// process (here the same one) dials it and searches, as the twindex
// commands do.
func ExampleOwn() {
	tmp, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "idx")
	ix, err := index.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	h := server.NewHost(ix, nil) // no root: documents only
	ow, err := server.Own(h, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	defer ow.Close(context.Background())

	c, err := server.Dial(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Write(ctx, &server.Writes{Upsert: []index.Doc{{ID: "n1", Body: "a badger's sett"}}}); err != nil {
		log.Fatal(err)
	}
	res, err := c.Search(ctx, index.Request{Query: "badger"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Total, res.Hits[0].ID)
	// Output: 1 n1
}

// With no owner, Dial says so and a process opens the index itself.
func ExampleDial() {
	_, err := server.Dial(filepath.Join(os.TempDir(), "no-such-index"))
	fmt.Println(err)
	// Output: no server owns the index
}
