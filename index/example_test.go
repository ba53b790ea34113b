//go:build !js && !wasip1

package index_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/twindex/twindex/index"
)

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "twindex-example")
	defer os.RemoveAll(dir)

	ix, err := index.Open(dir, nil) // nil: default options
	if err != nil {
		log.Fatal(err)
	}
	defer ix.Close()
	n, _ := ix.Count()
	fmt.Println(n, "documents")
	// Output: 0 documents
}

func ExampleIndex_Upsert() {
	ix, _ := index.OpenMemory(nil)
	defer ix.Close()
	ctx := context.Background()

	err := ix.Upsert(ctx,
		index.Doc{ID: "a", Kind: "code", Title: "auth.go", Body: "func getUserById(id string) (*User, error)"},
		index.Doc{ID: "b", Kind: "doc", Title: "README", Body: "Users authenticate with OAuth."},
	)
	if err != nil {
		log.Fatal(err)
	}
	// Upsert again replaces the document in the store and both indexes.
	ix.Upsert(ctx, index.Doc{ID: "b", Kind: "doc", Title: "README", Body: "Sign in with a passkey."})
	// Fallback -1: exact matches only, no fuzzy "auth" for "oauth".
	r, _ := ix.Search(ctx, index.Request{Query: "oauth", Fallback: -1})
	fmt.Println(r.Total)
	// Output: 0
}

func ExampleIndex_Search() {
	ix, _ := index.OpenMemory(nil)
	defer ix.Close()
	ctx := context.Background()
	ix.Upsert(ctx,
		index.Doc{ID: "auth.go", Kind: "code", Body: "getUserById looks the user up by id."},
		index.Doc{ID: "notes.md", Kind: "doc", Body: "OAuth flow notes."},
	)

	// auto mode fuses stemmed words (text leg) and exact substrings
	// (trigram leg): "user id" finds the camelCase identifier.
	r, err := ix.Search(ctx, index.Request{Query: "user id"})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range r.Hits {
		fmt.Println(h.ID, h.MatchedIn, h.Snippet)
	}

	// substring mode matches inside words and across spaces.
	r, _ = ix.Search(ctx, index.Request{Query: `"h fl"`, Mode: index.ModeSubstring})
	fmt.Println(r.Hits[0].ID, r.Hits[0].Snippet)
	// Output:
	// auth.go [substring text] get<mark>User</mark>By<mark>Id</mark> looks the <mark>user</mark> up by <mark>id</mark>.
	// notes.md OAut<mark>h fl</mark>ow notes.
}
