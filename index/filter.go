package index

import (
	"bytes"
	"slices"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// filter holds a request's filters, evaluated on each matching document
// inside the legs, before any ranking is cut, so a selective filter never
// empties a result that has matches.
type filter struct {
	active   bool // any filter set
	byHeader bool // a filter that needs the stored record
	kinds    map[string]bool
	projects map[string]bool
	tags     map[string]bool
	ids      map[string]bool
	under    map[string]bool
	role     string
	req      *Request
}

func set(vals []string) map[string]bool {
	if len(vals) == 0 {
		return nil
	}
	m := make(map[string]bool, len(vals))
	for _, v := range vals {
		m[v] = true
	}
	return m
}

func (f *filter) init(tx storage.Tx, req *Request) error {
	f.req = req
	f.kinds, f.projects, f.tags, f.ids = set(req.Kinds), set(req.Projects), set(req.Tags), set(req.IDs)
	f.role = req.Role
	if req.Under != "" {
		f.under = descendants(tx, req.Under)
	}
	f.byHeader = f.kinds != nil || f.projects != nil || f.tags != nil || f.role != "" ||
		!req.Since.IsZero() || !req.Until.IsZero()
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

// matchHeader applies the filters on stored fields.
func (f *filter) matchHeader(h *record.Header) bool {
	if f.kinds != nil && !f.kinds[h.Kind] {
		return false
	}
	if f.projects != nil && !f.projects[h.Project] {
		return false
	}
	if f.role != "" && h.Role != f.role {
		return false
	}
	if f.tags != nil && !slices.ContainsFunc(h.Tags, func(t string) bool { return f.tags[t] }) {
		return false
	}
	if !f.req.Since.IsZero() && (h.Time.IsZero() || h.Time.Before(f.req.Since)) {
		return false
	}
	if !f.req.Until.IsZero() && (h.Time.IsZero() || !h.Time.Before(f.req.Until)) {
		return false
	}
	return true
}
