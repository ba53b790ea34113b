//go:build !js && !wasip1

package index

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/storage"
)

// TestEachPostingIsTermFieldReader holds that backend.EachPosting, which
// reads the trigram index's postings straight from scorch's segments,
// gives every gram's documents and frequencies in the order, and with the
// internal IDs, that scorch's TermFieldReader gives: over several
// segments with documents updated and removed, and after a merge.
func TestEachPostingIsTermFieldReader(t *testing.T) {
	ctx := context.Background()
	words := []string{"reader", "read", "ready", "thread", "bread", "dread", "area", "idea", "ea", "e"}
	write := func(ix *Index) {
		for b := range 4 { // a segment each
			var docs []Doc
			for i := range 30 {
				w := words[(b*7+i)%len(words)]
				docs = append(docs, Doc{ID: fmt.Sprintf("d%d", (b*13+i)%70), Title: w, Body: fmt.Sprintf("%s %s and %s", w, words[i%len(words)], w)})
			}
			if err := ix.Upsert(ctx, docs...); err != nil {
				t.Fatal(err)
			}
			if _, err := ix.Remove(ctx, fmt.Sprintf("d%d", b*5), fmt.Sprintf("d%d", b*5+1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(ix *Index, when string, segments int) {
		err := ix.read(readsIndexes, func(_, triR bleveindex.IndexReader, _ storage.Tx) error {
			if n := len(triR.(*scorch.IndexSnapshot).Segments()); n < segments {
				t.Fatalf("%s: %d segments, want %d or more", when, n, segments)
			}
			d, err := triR.FieldDict(fieldGrams)
			if err != nil {
				return err
			}
			var grams []string
			for e, err := d.Next(); e != nil || err != nil; e, err = d.Next() {
				if err != nil {
					return err
				}
				grams = append(grams, e.Term)
			}
			d.Close()
			if len(grams) < 20 {
				t.Fatalf("%s: %d grams", when, len(grams))
			}
			for _, g := range grams {
				type posting struct {
					id   string
					freq uint64
				}
				var got, want []posting
				ok, err := backend.EachPosting(triR, fieldGrams, []byte(g), func(id bleveindex.IndexInternalID, freq uint64) {
					got = append(got, posting{string(id), freq})
				})
				if err != nil || !ok {
					t.Fatalf("%s: EachPosting(%q): %v, %v", when, g, ok, err)
				}
				tfr, err := triR.TermFieldReader(ctx, []byte(g), fieldGrams, true, false, false)
				if err != nil {
					return err
				}
				for {
					p, err := tfr.Next(nil)
					if err != nil {
						return err
					}
					if p == nil {
						break
					}
					want = append(want, posting{string(p.ID), p.Freq})
				}
				tfr.Close()
				if !slices.Equal(got, want) {
					t.Errorf("%s: gram %q: EachPosting %v, the TermFieldReader %v", when, g, got, want)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// In memory, scorch keeps every batch's segment.
	mem, err := OpenMemory(&Options{Backend: Scorch})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	write(mem)
	check(mem, "four segments", 4)
	// On disk, Optimize merges them.
	disk, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer disk.Close()
	write(disk)
	if err := disk.Optimize(ctx); err != nil {
		t.Fatal(err)
	}
	check(disk, "merged", 1)
	if _, err := disk.Remove(ctx, "d20", "d21", "d22"); err != nil {
		t.Fatal(err)
	}
	check(disk, "merged, then documents removed", 1)
}
