package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/storage"
)

// Mark records v under name in the same store transaction as the batch's
// writes: once Apply returns nil, Marked(name) is v, and after a crash the
// store holds the batch with its mark or neither. A replica that applies
// a replicated log records there the log position of the last entry a
// batch applies, so that it resumes after that entry and no other. A
// batch holding only marks is applied too (an entry that changes
// nothing still moves the position). Later marks of a name override
// earlier ones.
func (b *Batch) Mark(name string, v uint64) {
	if b.marks == nil {
		b.marks = map[string]uint64{}
	}
	b.marks[name] = v
}

// Marked returns the value last recorded under name by a Batch's Mark, 0
// if none was.
func (ix *Index) Marked(name string) (uint64, error) {
	var v uint64
	err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		v = getUint(tx, markKey(name))
		return nil
	})
	return v, err
}

// markKey is a mark's key in the meta bucket.
func markKey(name string) []byte { return append([]byte("mark."), name...) }
