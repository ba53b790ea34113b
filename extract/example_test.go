package extract_test

import (
	"bytes"
	"compress/gzip"
	"fmt"

	"github.com/twindex/twindex/extract"
)

func ExampleRead() {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("<html><head><title>Notes</title><style>p{}</style></head><body><h1>Install</h1><p>Run <code>make</code> &amp; wait.</p></body></html>"))
	zw.Close()

	f, err := extract.Read("doc/notes.html.gz", b.Bytes(), 1<<20)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %q\n%s\n", f.Name, f.Title, f.Text)
	// Output:
	// doc/notes.html "Notes"
	// Install
	// Run make & wait.
}
