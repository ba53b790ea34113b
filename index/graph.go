package index

import (
	"time"

	"github.com/twindex/twindex/fusion"
)

// LegGraph marks a hit that expansion added: reached through links from a
// hit, not matched by the query.
const LegGraph = "graph"

// Expand walks the links of the first hits (the seeds) and adds the
// documents it reaches. A neighbour inherits its seed's score times the
// decay of each hop; the best path wins. See fusion.Expand.
type Expand struct {
	// Depth is the most hops from a seed; 0 adds nothing (seeds only).
	Depth int
	// Decay is the score kept per hop on an edge type EdgeDecay does not
	// list; 0 means 0.8.
	Decay float64
	// EdgeDecay is the decay per edge type, e.g. contains 0.95, extends
	// and implements 0.85, imports 0.70; 0 or less excludes the type.
	EdgeDecay map[string]float64
	// TopK is the number of seeds; 0 means 5.
	TopK int
	// MinScore is the least normalized score (Hit.Norm: the best hit is 1)
	// a reached document must keep. Raw RRF scores are below 0.033 at
	// K 60, so thresholds are on the normalized scale only.
	MinScore float64
	// MaxResults caps the documents added; 0 means 50.
	MaxResults int
	// SkipIncoming lists edge types not walked backwards, e.g. imports.
	SkipIncoming []string
}

// Boost raises hits from the current project and session, after fusion
// and expansion; Explain shows the factors. A boost is skipped when the
// request filters on the same thing, where it could change nothing.
type Boost struct {
	Project, Session string
	// ProjectFactor and SessionFactor default to 1.5 and 1.2.
	ProjectFactor, SessionFactor float64
	// HalfLife, when positive, also raises recent documents: a document
	// of age a by 1 + 0.2·2^(-a/HalfLife).
	HalfLife time.Duration
}

// Via tells how expansion reached a hit.
type Via struct {
	Seed     string `json:"seed"`           // the matched hit the path starts from
	From     string `json:"from"`           // the document of the last hop
	Type     string `json:"type,omitempty"` // the last link's type
	Incoming bool   `json:"incoming,omitempty"`
	Hops     int    `json:"hops"`
}

// Boosted tells how Boost changed a hit's score: Score = Base × Project ×
// Session × Recency.
type Boosted struct {
	Base    float64 `json:"base"`
	Project float64 `json:"project"`
	Session float64 `json:"session"`
	Recency float64 `json:"recency"`
}

// defaultExpandResults bounds the documents one expansion adds.
const defaultExpandResults = 50

// expandAndBoost applies the request's expansion and boost to the ranked
// hits and returns them with the number of documents expansion added.
// Expanded documents must exist and pass the request's filters.
func (s *search) expandAndBoost(hits []fusion.Hit) ([]fusion.Hit, int, error) {
	added := 0
	if e := s.req.Expand; e != nil && e.Depth > 0 && len(hits) > 0 {
		before := len(hits)
		opts := fusion.ExpandOptions{Depth: e.Depth, Decay: e.Decay, EdgeDecay: e.EdgeDecay, TopK: e.TopK,
			MinScore: e.MinScore, MaxResults: e.MaxResults, SkipIncoming: e.SkipIncoming,
			Admit: func(id string) (bool, error) {
				if s.tx.Get(bucketDocs, []byte(id)) == nil {
					return false, nil // a link to a document not written yet
				}
				return s.keep(id), nil
			}}
		if opts.MaxResults <= 0 {
			opts.MaxResults = defaultExpandResults
		}
		var err error
		hits, err = fusion.Expand(hits, s.neighbors, opts)
		if err != nil {
			return nil, 0, err
		}
		added = len(hits) - before
	}
	if b := s.req.Boost; b != nil {
		fb := fusion.Boost{Project: b.Project, Session: b.Session, ProjectFactor: b.ProjectFactor,
			SessionFactor: b.SessionFactor, HalfLife: b.HalfLife, Now: time.Now()}
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
		h, _, err := decodeHeader(v)
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
