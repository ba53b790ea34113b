package index

import (
	"context"
	"fmt"
	"time"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/storage"
)

// Stats describes an index.
type Stats struct {
	Docs  int            `json:"docs"`
	Kinds map[string]int `json:"kinds"` // documents per Kind ("" for none)
	// Sizes in bytes: the store file and each bleve index directory (for a
	// memory index, the store's keys and values only).
	StoreBytes   int64 `json:"storeBytes"`
	TextBytes    int64 `json:"textBytes"`
	TrigramBytes int64 `json:"trigramBytes"`
	// Segments of each bleve index (scorch and compact; 0 for
	// upsidedown): many of them slow searches down, and Optimize merges
	// them into one.
	TextSegments    int       `json:"textSegments"`
	TrigramSegments int       `json:"trigramSegments"`
	Updated         time.Time `json:"updated,omitzero"` // last write
	Seq             uint64    `json:"seq"`              // writes so far
	// Language is the ISO 639-1 code of the text leg's stop words and
	// stemmer (Options.Language).
	Language string `json:"language"`
}

// Stats counts documents per kind (a scan of the store) and measures sizes.
func (ix *Index) Stats() (*Stats, error) {
	st := &Stats{Kinds: map[string]int{}, Language: ix.Language()}
	err := ix.read(readsIndexes, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		st.Seq, st.Updated = lastWrite(tx)
		return eachDoc(context.Background(), tx, false, func(d *Doc, _ uint64) error {
			st.Docs++
			st.Kinds[d.Kind]++
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	if st.StoreBytes, err = ix.store.Size(); err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	st.TextBytes, st.TrigramBytes = backend.Size(ix.subdir(textDir)), backend.Size(ix.subdir(trigramDir))
	ix.mu.RLock()
	text, tri := ix.text, ix.tri
	ix.mu.RUnlock()
	st.TextSegments, st.TrigramSegments = backend.Segments(text), backend.Segments(tri)
	return st, nil
}
