package fusion

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Defaults of ExpandOptions.
const (
	DefaultDepth = 1   // hops from a seed
	DefaultDecay = 0.8 // score kept per hop
	DefaultTopK  = 5   // seeds
	// DefaultMaxResults bounds the documents one expansion adds.
	DefaultMaxResults = 50
)

// Edge is a typed link from the document From to the document To.
type Edge struct {
	From, To string
	Type     string // e.g. "contains", "imports"; may be empty
}

// Neighbors returns the links of the document id: out, the links from it,
// and in, the links into it. Expand walks out to Edge.To and in to
// Edge.From, whatever the other end says. Expand calls it at most once per
// document, and returns its error wrapped.
type Neighbors func(id string) (out, in []Edge, err error)

// ExpandOptions tune Expand. The zero value means defaults.
type ExpandOptions struct {
	// Depth is the most hops a path may take from its seed. Zero means
	// DefaultDepth; negative means no expansion.
	Depth int
	// Decay is the fraction of a path's score kept per hop along an edge
	// whose type EdgeDecay does not list. Zero means DefaultDecay;
	// negative means such edges are not walked.
	Decay float64
	// EdgeDecay is the decay per hop by edge type, e.g. contains 0.95,
	// extends 0.85, imports 0.70. A decay of 0 or less, or NaN, means
	// edges of that type are not walked.
	//
	// Any decay above 1 counts as 1, so that a path never scores more
	// than its seed.
	EdgeDecay map[string]float64
	// TopK is how many of the first hits seed the walk. Zero or negative
	// means DefaultTopK.
	TopK int
	// MinScore is the least score a path must keep, as a fraction of the
	// best input score: on Normalize's scale, whatever the scale of the
	// input. Paths that fall below it are dropped, and so are documents
	// that only such paths reach. Only expansion is bounded: input hits
	// are kept whatever their score.
	MinScore float64
	// MaxResults caps the number of documents Expand adds, keeping the
	// best. Zero means DefaultMaxResults; negative means no cap.
	MaxResults int
	// SkipIncoming lists edge types not to walk backwards, from To to
	// From: e.g. "imports", lest a widely imported package pull in every
	// importer.
	SkipIncoming []string
	// Admit, when set, says whether a document not among the input hits
	// may be added, e.g. because it exists and passes the search's
	// filters. Expand still walks through documents it rejects. It is
	// called on candidates best first, until MaxResults are admitted.
	// It is not encoded in JSON (a cluster's node sends requests to its
	// shards as JSON; a function cannot travel).
	Admit func(id string) (bool, error) `json:"-"`
}

// Via says how Expand reached a hit: the best path from a seed.
type Via struct {
	Seed     string `json:"seed"`               // the input hit the path starts from
	From     string `json:"from"`               // the document the last hop left; Seed when Hops is 1
	Type     string `json:"type,omitempty"`     // the last edge's type
	Incoming bool   `json:"incoming,omitempty"` // the last edge was walked backwards, from its To to its From
	Hops     int    `json:"hops"`               // 1 to Depth
}

// Expand adds to hits the documents linked to its first TopK hits (the
// seeds), walking outgoing and incoming links up to Depth hops.
//
// A path scores its seed's Score times the decay of each hop, so it never
// scores more than its seed, and a document inherits the best score of the
// paths that reach it. Only seeds start paths: another input hit passes
// its inherited score on, not its own. Seeds with a score that is not
// finite and positive start none.
//
// Overlap: a document among the input hits keeps its own score and has
// Via nil unless a path scores strictly more, in which case it takes that
// score and Via; so a hit that both matched and is linked never ranks
// below a document that is only linked. Among paths of the same score the
// fewest hops win, then the least Seed, then the least From, then outgoing
// before incoming, then the least Type, so the result does not depend on
// the order of links.
//
// The result holds every input hit once (IDs are assumed distinct, as RRF
// makes them) and the added documents, with Legs nil, sorted by Score
// descending then ID. hits should be best first, so that the seeds are the
// top; re-sort by date, say, after expanding. Legs and Boosted are shared
// with hits.
//
// Expand calls neighbors only for documents fewer than Depth hops from a
// seed whose score times the largest decay can still reach MinScore. It
// runs in O(Depth·E + N log N) time for E links of those documents and N
// hits out, and stops at the first error of neighbors or Admit.
func Expand(hits []Hit, neighbors Neighbors, opts ExpandOptions) ([]Hit, error) {
	out := slices.Clone(hits)
	depth := opts.Depth
	if depth == 0 {
		depth = DefaultDepth
	}
	if depth < 0 || neighbors == nil || len(hits) == 0 {
		Sort(out)
		return out, nil
	}
	topK := opts.TopK
	if topK <= 0 {
		topK = DefaultTopK
	}
	maxResults := opts.MaxResults
	if maxResults == 0 {
		maxResults = DefaultMaxResults
	}
	minScore := opts.MinScore
	if !(minScore > 0) {
		minScore = 0
	}
	floor := minScore * bestScore(hits)
	maxDecay := opts.otherDecay()
	for _, d := range opts.EdgeDecay {
		maxDecay = max(maxDecay, clampDecay(d))
	}
	skip := make(map[string]bool, len(opts.SkipIncoming))
	for _, t := range opts.SkipIncoming {
		skip[t] = true
	}

	// A relaxation of Bellman-Ford over at most depth rounds: after round
	// h, best holds each document's best score over paths of at most h
	// hops. Round h extends only the documents whose score changed in
	// round h-1, from their score at the end of that round, so a path's
	// hops are counted exactly even when a longer path overtakes a
	// shorter one. Decays are at most 1, so cycles never improve a score.
	best := make(map[string]*reach)
	// A document raised in a later round is walked again, from its new
	// score: remember its links rather than ask again.
	seen := make(map[string]struct{ out, in []Edge })
	var frontier []*reach
	for _, h := range hits[:min(topK, len(hits))] {
		if !(h.Score > 0) || math.IsInf(h.Score, 1) {
			continue
		}
		if best[h.ID] != nil {
			continue // a repeated ID seeds once, at its first (best) place
		}
		r := &reach{id: h.ID, score: h.Score, via: Via{Seed: h.ID}}
		best[h.ID] = r
		frontier = append(frontier, r)
	}
	for hop := 1; hop <= depth && len(frontier) > 0; hop++ {
		// Snapshot the frontier: this round may raise its scores again.
		from := make([]reach, len(frontier))
		for i, r := range frontier {
			from[i] = *r
		}
		slices.SortFunc(from, func(a, b reach) int { return cmp.Compare(a.id, b.id) })
		frontier = frontier[:0]
		relax := func(src *reach, to, typ string, incoming bool) {
			d := opts.decay(typ, incoming && skip[typ])
			s := src.score * d
			if !(s > 0) || s < floor {
				return
			}
			v := Via{Seed: src.via.Seed, From: src.id, Type: typ, Incoming: incoming, Hops: hop}
			r := best[to]
			if r == nil {
				r = &reach{id: to}
				best[to] = r
			} else if !better(s, v, r) {
				return
			}
			if r.round != hop {
				r.round = hop
				frontier = append(frontier, r)
			}
			r.score, r.via = s, v
		}
		for i := range from {
			src := &from[i]
			if src.score*maxDecay < floor || !(src.score*maxDecay > 0) {
				continue // no path from here can reach MinScore
			}
			l, ok := seen[src.id]
			if !ok {
				var err error
				if l.out, l.in, err = neighbors(src.id); err != nil {
					return nil, fmt.Errorf("expand: links of %q: %w", src.id, err)
				}
				seen[src.id] = l
			}
			outE, inE := l.out, l.in
			for _, e := range outE {
				relax(src, e.To, e.Type, false)
			}
			for _, e := range inE {
				relax(src, e.From, e.Type, true)
			}
		}
	}

	pos := make(map[string]int, len(out))
	for i := len(out) - 1; i >= 0; i-- {
		pos[out[i].ID] = i
	}
	var added []*reach
	for id, r := range best {
		if r.via.Hops == 0 {
			continue // a seed nothing overtook
		}
		i, ok := pos[id]
		if !ok {
			added = append(added, r)
			continue
		}
		if r.score > out[i].Score {
			v := r.via
			out[i].Score, out[i].Via = r.score, &v
		}
	}
	slices.SortFunc(added, func(a, b *reach) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	vias := make([]Via, 0, len(added))
	for _, r := range added {
		if maxResults > 0 && len(vias) == maxResults {
			break
		}
		if opts.Admit != nil {
			ok, err := opts.Admit(r.id)
			if err != nil {
				return nil, fmt.Errorf("expand: admit %q: %w", r.id, err)
			}
			if !ok {
				continue
			}
		}
		vias = append(vias, r.via)
		out = append(out, Hit{ID: r.id, Score: r.score, Via: &vias[len(vias)-1]})
	}
	Sort(out)
	return out, nil
}

// reach is the best path found so far to the document id.
type reach struct {
	id    string
	score float64
	via   Via // Hops 0 for a seed's own score
	round int // the last round that changed it, to queue it once per round
}

// better reports whether a path of score s described by v beats r's.
func better(s float64, v Via, r *reach) bool {
	if s != r.score {
		return s > r.score
	}
	w := r.via
	if c := cmp.Compare(v.Hops, w.Hops); c != 0 {
		return c < 0
	}
	if c := cmp.Or(cmp.Compare(v.Seed, w.Seed), cmp.Compare(v.From, w.From)); c != 0 {
		return c < 0
	}
	if v.Incoming != w.Incoming {
		return !v.Incoming
	}
	return v.Type < w.Type
}

// decay returns the fraction of score kept by a hop along an edge of type
// typ, in [0, 1]; 0 means the edge is not walked.
func (o *ExpandOptions) decay(typ string, skipped bool) float64 {
	if skipped {
		return 0
	}
	if d, ok := o.EdgeDecay[typ]; ok {
		return clampDecay(d)
	}
	return o.otherDecay()
}

// otherDecay is the decay of edge types EdgeDecay does not list.
func (o *ExpandOptions) otherDecay() float64 {
	if o.Decay == 0 {
		return DefaultDecay
	}
	return clampDecay(o.Decay)
}

func clampDecay(d float64) float64 {
	if !(d > 0) {
		return 0
	}
	return min(d, 1)
}
