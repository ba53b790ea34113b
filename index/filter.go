package index

import (
	"bytes"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// filter holds a request's filters, evaluated on each matching document
// inside the legs, before any ranking is cut, so a selective filter never
// empties a result that has matches.
type filter struct {
	active   bool // any filter set
	byHeader bool // a filter that needs the stored record
	header   record.Filter
	ids      map[string]bool
	under    map[string]bool
}

func (f *filter) init(tx storage.Tx, req *Request) error {
	f.header = record.NewFilter(req.Kinds, req.Projects, req.Tags, req.Role, req.Since, req.Until)
	if len(req.IDs) > 0 {
		f.ids = map[string]bool{}
		for _, id := range req.IDs {
			f.ids[id] = true
		}
	}
	if req.Under != "" {
		f.under = descendants(tx, req.Under)
	}
	f.byHeader = f.header.Active()
	f.active = f.byHeader || f.ids != nil || f.under != nil
	return nil
}

// descendants returns root and every document below it through Parent,
// walking the parent index breadth first.
func descendants(tx storage.Tx, root string) map[string]bool {
	out := map[string]bool{root: true}
	queue := []string{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		prefix := append([]byte(p), 0)
		tx.Scan(bucketChildren, prefix, func(k, _ []byte) error {
			c := string(bytes.TrimPrefix(k, prefix))
			if !out[c] {
				out[c] = true
				queue = append(queue, c)
			}
			return nil
		})
	}
	return out
}

// matchID applies the filters that need only the ID.
func (f *filter) matchID(id string) bool {
	return (f.ids == nil || f.ids[id]) && (f.under == nil || f.under[id])
}
