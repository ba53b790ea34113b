//go:build !js && !wasip1

package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/golang/snappy"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// Stores written before text was stored lowered hold it raw (text
// encoding 0), and before that snappy-compressed (1): such records read
// as the lowered ones do, by every path that reads text (checks of
// candidates, heads of texts, phrases, snippets, Get, Check), with and
// without the cache of folded text.
func TestOlderTextReads(t *testing.T) {
	ctx := context.Background()
	for _, enc := range []string{"raw", "compressed"} {
		for _, cache := range []int{-1, 0} {
			t.Run(fmt.Sprintf("%s, cache %d", enc, cache), func(t *testing.T) {
				dir := t.TempDir()
				ix, err := Open(dir, &Options{CacheBytes: cache})
				if err != nil {
					t.Fatal(err)
				}
				defer func() { ix.Close() }()
				var docs []Doc
				for i := range 40 {
					body := strings.Repeat(fmt.Sprintf("Filler line %d of plain prose.\n", i), 60+i)
					if i%3 == 0 {
						body += "func openFile() { Quokka }\n"
					}
					if i%4 == 0 {
						body = "Copyright QUOKKA header.\n" + body
					}
					if i%5 == 0 {
						body += "naïve Ångström quokka café\n" // folded, not only lowered: stored raw
					}
					docs = append(docs, Doc{ID: fmt.Sprint("d", i), Title: fmt.Sprint("Title ", i), Body: body})
				}
				if err := ix.Upsert(ctx, docs...); err != nil {
					t.Fatal(err)
				}
				queries := []Request{
					{Query: "quokka", Mode: ModeSubstring, Limit: 50},
					{Query: "openFile quokka", Mode: ModeAuto, Limit: 50},
					{Query: `"plain prose"`, Mode: ModeText, Limit: 50},
					{Query: `"copyright quokka"`, Mode: ModeAuto, Limit: 50},
					{Query: "line 7 of", Mode: ModeSubstring, Limit: 5},
					{Query: "angstrom", Mode: ModeSubstring, Limit: 5},
				}
				search := func() []*Result {
					var out []*Result
					for _, q := range queries {
						r, err := ix.Search(ctx, q)
						if err != nil {
							t.Fatal(err)
						}
						if r.Total == 0 {
							t.Fatalf("%q finds nothing", q.Query)
						}
						out = append(out, r)
					}
					return out
				}
				before := search()
				n := 0
				err = ix.store.Update(func(tx storage.Tx) error {
					for _, d := range docs {
						rec := tx.Get(bucketDocs, []byte(d.ID))
						_, rest, err := record.DecodeHeader(rec)
						if err != nil {
							return err
						}
						if rest[0] != 2 {
							return fmt.Errorf("document %s: text encoding %d, want lowered", d.ID, rest[0])
						}
						title, body, err := record.DecodeText(rest)
						if err != nil {
							return err
						}
						text := binary.AppendUvarint(nil, uint64(len(title)))
						text = binary.AppendUvarint(append(text, title...), uint64(len(body)))
						text = append(text, body...)
						old := append(rec[:len(rec)-len(rest):len(rec)-len(rest)], 0)
						if enc == "compressed" {
							old[len(old)-1] = 1
							text = snappy.Encode(nil, text)
						}
						if err := tx.Put(bucketDocs, []byte(d.ID), append(old, text...)); err != nil {
							return err
						}
						n++
					}
					return nil
				})
				if err != nil || n != len(docs) {
					t.Fatalf("rewrote %d records: %v", n, err)
				}
				ix.Close()
				if ix, err = Open(dir, &Options{CacheBytes: cache}); err != nil {
					t.Fatal(err)
				}
				if after := search(); !reflect.DeepEqual(after, before) {
					for i := range after {
						if !reflect.DeepEqual(after[i], before[i]) {
							t.Errorf("%q: %s\n%+v\nlowered\n%+v", queries[i].Query, enc, after[i], before[i])
						}
					}
				}
				for _, d := range docs {
					if got, err := ix.Get(d.ID); err != nil || got.Body != d.Body || got.Title != d.Title {
						t.Fatalf("Get %s: %v", d.ID, err)
					}
				}
				if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
					t.Fatalf("Check: %+v, %v", rep, err)
				}
			})
		}
	}
}
