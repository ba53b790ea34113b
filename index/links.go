package index

import (
	"bytes"
	"fmt"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// Links returns the links of the document with ID id, as written:
// ErrNotFound if there is no such document.
func (ix *Index) Links(id string) ([]Link, error) {
	d, err := ix.Get(id)
	if err != nil {
		return nil, err
	}
	return d.Links, nil
}

// Backlinks returns the links into id from stored documents, of any of the
// given types (all types when none are given), sorted by source and type.
// It reads the store's index of links by target: the cost is the number of
// links into id, not the size of the index. id need not exist: links to a
// document not written yet are kept and found.
func (ix *Index) Backlinks(id string, types ...string) ([]Backlink, error) {
	var out []Backlink
	err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		var err error
		out, err = backlinks(tx, id, types)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("backlinks of %q: %w", id, err)
	}
	return out, nil
}

func backlinks(tx storage.Tx, id string, types []string) ([]Backlink, error) {
	var out []Backlink
	prefix := append([]byte(id), 0)
	err := tx.Scan(bucketLinks, prefix, func(k, _ []byte) error {
		from, typ, ok := bytes.Cut(k[len(prefix):], []byte{0})
		if !ok {
			return fmt.Errorf("%w: bad key %q in the links index", record.ErrCorrupt, k)
		}
		if len(types) == 0 || slices.Contains(types, string(typ)) {
			out = append(out, Backlink{From: string(from), Type: string(typ)})
		}
		return nil
	})
	return out, err
}
