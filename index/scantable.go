package index

import (
	"fmt"
	"sync"
)

// scanTable is every document of one state of the store, in ID order,
// with its header and folded text: what the substring leg reads when no
// trigram narrows a query (all its leaves are shorter than three
// characters) and it must look at every document. Reading the store
// instead costs, per document, a lookup in the store, one in the fold
// cache and a decode of the record's header: in js/wasm, a third of a
// one-character search (DESIGN.md).
type scanTable struct {
	seq  uint64 // the store's write sequence number (metaSeq) it reflects
	docs []scanDoc
	// over marks an attempt that outgrew the budget, with n documents:
	// the next is made only when there are fewer.
	over bool
	n    float64
}

type scanDoc struct {
	id string
	h  header
	f  *folded
}

// scanSlot holds an index's latest table.
type scanSlot struct {
	mu sync.Mutex
	t  *scanTable
}

// scanTable returns the table of the search's snapshot, building it when
// the index has none for that state, or nil when the documents' folded
// text would not fit the fold cache's budget (Options.CacheBytes): the
// table keeps it all. After a build outgrew the budget, the next is tried
// only once the index holds fewer documents.
func (s *search) scanTable() (*scanTable, error) {
	if s.ix.fold.max <= 0 {
		return nil, nil
	}
	slot := &s.ix.scan
	seq := getUint(s.tx, metaSeq)
	slot.mu.Lock()
	t := slot.t
	slot.mu.Unlock()
	switch {
	case t != nil && t.over && (t.seq == seq || s.n >= t.n):
		return nil, nil
	case t != nil && t.seq == seq:
		return t, nil
	}

	t = &scanTable{seq: seq}
	size := 0
	err := s.tx.Scan(bucketDocs, nil, func(k, rec []byte) error {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		id := string(k)
		h, rest, err := decodeHeader(rec)
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		f, err := s.ix.fold.get(id, h.Seq, func() ([]byte, []byte, error) { return decodeText(rest) })
		if err != nil {
			return fmt.Errorf("document %q: %w", id, err)
		}
		// Filters need none of the vector, which a disk store's record
		// holds only for the transaction.
		h.vector = nil
		if size += f.size() + len(id) + headerBytes; size > s.ix.fold.max {
			return errTableFull
		}
		t.docs = append(t.docs, scanDoc{id: id, h: h, f: f})
		return nil
	})
	if err == errTableFull {
		t = &scanTable{seq: seq, over: true, n: s.n}
	} else if err != nil {
		return nil, err
	}
	slot.mu.Lock()
	if slot.t == nil || slot.t.seq <= seq {
		slot.t = t
	}
	slot.mu.Unlock()
	if t.over {
		return nil, nil
	}
	return t, nil
}

// headerBytes is about what a document's entry costs beside its folded
// text, for the budget.
const headerBytes = 256

// errTableFull stops building a table that outgrows its budget.
var errTableFull = fmt.Errorf("scan table over budget")
