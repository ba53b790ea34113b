package folder_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// Sync mirrors a folder in an index: run it again after files change.
func ExampleSync() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "main.go"), []byte("package main // badger"), 0o644)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644)
	os.WriteFile(filepath.Join(root, "debug.log"), []byte("badger"), 0o644)

	dir := filepath.Join(root, folder.IndexDirName)
	ix, err := index.Open(dir, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ix.Close()
	rep, err := folder.Sync(context.Background(), ix, &folder.Options{Root: root, IndexDir: dir})
	if err != nil {
		log.Fatal(err)
	}
	res, _ := ix.Search(context.Background(), index.Request{Query: "badger", Fallback: -1})
	fmt.Println(rep.Written, "written;", res.Total, "hit:", res.Hits[0].ID, res.Hits[0].Kind)
	// Output: 3 written; 1 hit: src/main.go code
}
