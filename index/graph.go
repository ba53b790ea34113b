package index

import (
	"time"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index/internal/record"
)

// expandAndBoost applies the request's expansion and boost to the ranked
// hits and returns them with the number of documents expansion added.
// Expanded documents must exist and pass the request's filters.
func (s *search) expandAndBoost(hits []fusion.Hit) ([]fusion.Hit, int, error) {
	added := 0
	if e := s.req.Expand; e != nil && len(hits) > 0 {
		before := len(hits)
		opts := *e
		opts.Admit = func(id string) (bool, error) {
			if s.tx.Get(bucketDocs, []byte(id)) == nil || !s.keep(id) {
				return false, nil // a link to a document not written yet, or filtered out
			}
			if e.Admit != nil {
				return e.Admit(id)
			}
			return true, nil
		}
		var err error
		hits, err = fusion.Expand(hits, s.neighbors, opts)
		if err != nil {
			return nil, 0, err
		}
		added = len(hits) - before
	}
	if b := s.req.Boost; b != nil {
		fb := *b
		if fb.Now.IsZero() {
			fb.Now = time.Now()
		}
		if len(s.req.Projects) > 0 {
			fb.Project = ""
		}
		var err error
		hits, err = fusion.ApplyBoost(hits, fb, func(id string) (fusion.Attrs, error) {
			h, err := s.header(id)
			return fusion.Attrs{Project: h.Project, Session: h.Session, Time: h.Time}, err
		})
		if err != nil {
			return nil, 0, err
		}
	}
	return hits, added, nil
}

// neighbors reads a document's links and backlinks in the search's
// snapshot of the store.
func (s *search) neighbors(id string) (out, in []fusion.Edge, err error) {
	if err := s.ctx.Err(); err != nil {
		return nil, nil, err
	}
	if v := s.tx.Get(bucketDocs, []byte(id)); v != nil {
		h, _, err := record.DecodeHeader(v)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range h.Links {
			out = append(out, fusion.Edge{From: id, To: l.To, Type: l.Type})
		}
	}
	bl, err := backlinks(s.tx, id, nil)
	for _, b := range bl {
		in = append(in, fusion.Edge{From: b.From, To: id, Type: b.Type})
	}
	return out, in, err
}
