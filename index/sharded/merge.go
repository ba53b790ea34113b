package sharded

import (
	"cmp"
	"slices"
	"strings"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/index/collection"
)

// leg is one leg's hits merged from the shards' lists.
type leg struct {
	hits []collection.ShardHit // by score, best first, ties by ID
	// truncated: some shard listed fewer hits than it has; every hit
	// scoring above cut is listed, so a score at or above cut has an exact
	// rank, and a document not listed scores at most cut.
	truncated bool
	cut       float64
	ran       bool
}

func (l *leg) add(sl *collection.ShardLeg) {
	l.ran = true
	l.hits = append(l.hits, sl.Hits...)
	if sl.Total > len(sl.Hits) && len(sl.Hits) > 0 {
		last := sl.Hits[len(sl.Hits)-1].Score
		if !l.truncated || last > l.cut {
			l.cut = last
		}
		l.truncated = true
	}
}

func (l *leg) sort() {
	slices.SortFunc(l.hits, func(a, b collection.ShardHit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// rank is the rank a score has in the leg: one more than the listed hits
// that score higher (ties share a rank, as in Search).
func (l *leg) rank(score float64) int {
	i, _ := slices.BinarySearchFunc(l.hits, score, func(h collection.ShardHit, s float64) int { return cmp.Compare(s, h.Score) })
	return i + 1
}

// exact reports whether rank(score) is the score's rank in the whole leg.
func (l *leg) exact(score float64) bool { return !l.truncated || score >= l.cut }

// merge is one round of the shards' answers, merged.
type merge struct {
	c       *coordinator
	parts   *fusedParts
	legs    map[string]*leg
	scores  map[string]map[string]float64 // each listed document's scores, by leg
	times   map[string]int64
	matches int
	longest int // the most hits any shard has in any leg
}

func newMerge(c *coordinator, answers []*collection.ShardResult) *merge {
	m := &merge{c: c, legs: map[string]*leg{index.LegSubstring: {}, index.LegText: {}, index.LegVector: {}},
		scores: map[string]map[string]float64{}, times: map[string]int64{},
		parts: &fusedParts{shardOf: map[string]int{}, attrs: map[string]fusion.Attrs{}}}
	// A word is in no document of the collection when no shard has one.
	unknown, answered := ^uint64(0), false
	for i, p := range answers {
		if c.out[i] || p == nil {
			continue
		}
		m.matches += p.Matches
		unknown &= p.Unknown
		answered = true
		if p.Feedback {
			m.parts.feedback = true
		}
		for li := range p.Legs {
			sl := &p.Legs[li]
			m.legs[sl.Leg].add(sl)
			if sl.Leg == index.LegSubstring {
				m.parts.substring += sl.Total
			}
			m.longest = max(m.longest, sl.Total)
			for _, h := range sl.Hits {
				m.parts.shardOf[h.ID] = i
			}
		}
		for id, sc := range p.Scores {
			m.scores[id] = sc
		}
		for id, t := range p.Times {
			m.times[id] = t
		}
		for id, a := range p.Attrs {
			m.parts.attrs[id] = a
		}
	}
	for _, l := range m.legs {
		l.sort()
	}
	m.parts.vector = m.legs[index.LegVector].ran
	m.parts.unknown = answered && m.legs[index.LegText].ran && unknown != 0
	if m.parts.feedback {
		// Every shard lists at least its first index.FeedbackDocs text hits,
		// so these are the collection's.
		text := m.legs[index.LegText].hits
		m.parts.best = slices.Clone(text[:min(len(text), index.FeedbackDocs)])
	}
	return m
}

// top returns the first c.need fused hits (all of them for an order by
// date; for a boost, those Search boosts) and the number of matching
// documents, or false when the lists are too short to be sure of them.
func (m *merge) top() ([]fusion.Hit, int, bool) {
	c := m.c
	all := c.req.Order != index.OrderScore
	sub, text, vec := m.legs[index.LegSubstring], m.legs[index.LegText], m.legs[index.LegVector]
	// The vector leg ranks the collection's nearest documents: every
	// shard lists its nearest, so the first of the merged are exact.
	if vec.ran {
		vec.hits = vec.hits[:min(len(vec.hits), max(c.need, index.VectorDepth))]
	}
	vecRank := map[string]int{}
	vecScores := make([]float64, len(vec.hits))
	for i, h := range vec.hits {
		vecScores[i] = h.Score
	}
	for i, r := range fusion.Ranks(vecScores) {
		vecRank[vec.hits[i].ID] = r
	}
	total := m.matches
	for _, h := range vec.hits {
		sc := m.scores[h.ID]
		if _, ok := sc[index.LegSubstring]; !ok {
			if _, ok := sc[index.LegText]; !ok {
				if _, ok := sc[index.LegFuzzy]; !ok {
					total++
				}
			}
		}
	}
	var ran []*leg
	for _, l := range []*leg{sub, text, vec} {
		if l.ran {
			ran = append(ran, l)
		}
	}
	if len(ran) == 1 {
		return m.single(ran[0], all, total)
	}
	k := float64(c.opts.K)
	type cand struct {
		hit   fusion.Hit
		exact bool
		upper float64 // at least the fused score
	}
	var cands []cand
	for id, sc := range m.scores {
		x := cand{hit: fusion.Hit{ID: id}, exact: true}
		add := func(name string, l *leg, w float64) {
			s, ok := sc[name]
			if !ok || !l.ran {
				return
			}
			r := l.rank(s)
			x.hit.Score += w / (k + float64(r))
			x.upper += w / (k + float64(r))
			x.hit.Legs = append(x.hit.Legs, fusion.LegRank{Leg: name, Rank: r, Score: s})
			if !l.exact(s) {
				x.exact = false
			}
		}
		order := []string{index.LegSubstring, index.LegVector, index.LegText} // Search's order in explain
		if all {
			order = []string{index.LegSubstring, index.LegText, index.LegVector}
		}
		for _, name := range order {
			switch name {
			case index.LegSubstring:
				add(name, sub, c.opts.SubstringWeight)
			case index.LegText:
				if _, ok := sc[index.LegFuzzy]; ok {
					name = index.LegFuzzy // matched approximately by the tolerant pass
				}
				add(name, text, c.opts.TextWeight)
			case index.LegVector:
				if r, ok := vecRank[id]; ok {
					w := c.req.VectorWeight
					x.hit.Score += w / (k + float64(r))
					x.upper += w / (k + float64(r))
					x.hit.Legs = append(x.hit.Legs, fusion.LegRank{Leg: index.LegVector, Rank: r, Score: sc[index.LegVector]})
				}
			}
		}
		if len(x.hit.Legs) > 0 {
			cands = append(cands, x)
		}
	}
	// A document no shard listed scores at most cut in each truncated
	// leg, and is in no other.
	unseen := 0.0
	for _, l := range []struct {
		l *leg
		w float64
	}{{sub, c.opts.SubstringWeight}, {text, c.opts.TextWeight}} {
		if l.l.ran && l.l.truncated {
			unseen += l.w / (k + float64(l.l.rank(l.l.cut)))
		}
	}
	var exact []fusion.Hit
	for _, x := range cands {
		if x.exact {
			exact = append(exact, x.hit)
		}
	}
	fusion.Sort(exact)
	if all {
		if len(exact) < len(cands) || sub.truncated || text.truncated {
			return nil, 0, false
		}
		sortByTime(exact, m.times, c.req.Order)
		return exact, len(exact), true
	}
	truncated := sub.truncated || text.truncated
	if c.req.Boost != nil {
		if truncated || len(exact) < len(cands) {
			return nil, 0, false
		}
		return boostable(exact, c.need), total, true
	}
	if len(exact) < c.need && truncated {
		return nil, 0, false
	}
	top := exact[:min(c.need, len(exact))]
	if truncated {
		floor := top[len(top)-1].Score
		if unseen >= floor {
			return nil, 0, false
		}
		for _, x := range cands {
			if !x.exact && x.upper >= floor {
				return nil, 0, false
			}
		}
	}
	return top, total, true
}

// boostable returns the fused hits that Search boosts (and expands): all
// of the substring and vector legs' and the text leg's others as far as
// the first need of them by rank, with the rest of the last one's tie
// group; fused is every hit, sorted.
func boostable(fused []fusion.Hit, need int) []fusion.Hit {
	var out []fusion.Hit
	taken := 0
	last := -1.0
	for _, h := range fused {
		if len(h.Legs) != 1 || h.Legs[0].Leg != index.LegText && h.Legs[0].Leg != index.LegFuzzy {
			out = append(out, h)
			continue
		}
		// Text-only hits come in text rank order: their fused score is
		// the text weight over K plus the rank.
		if h.Score != last && taken >= need {
			continue
		}
		if h.Score != last {
			last = h.Score
		}
		out = append(out, h)
		taken++
	}
	return out
}

// single is top for a mode of one leg: its own scores, no fusion.
func (m *merge) single(l *leg, all bool, total int) ([]fusion.Hit, int, bool) {
	c := m.c
	name := index.LegSubstring
	switch l {
	case m.legs[index.LegText]:
		name = index.LegText
	case m.legs[index.LegVector]:
		name = index.LegVector
	}
	take := len(l.hits)
	if !all {
		take = min(take, c.need)
	}
	if l.truncated && (all || take < c.need || take > 0 && l.hits[take-1].Score <= l.cut) {
		return nil, 0, false
	}
	out := make([]fusion.Hit, take)
	for i, h := range l.hits[:take] {
		r := l.rank(h.Score)
		if name == index.LegVector {
			r = i + 1 // a vector search numbers its hits
		}
		leg := name
		if h.Fuzzy {
			leg = index.LegFuzzy
		}
		out[i] = fusion.Hit{ID: h.ID, Score: h.Score, Legs: []fusion.LegRank{{Leg: leg, Rank: r, Score: h.Score}}}
	}
	if all {
		sortByTime(out, m.times, c.req.Order)
	}
	if name == index.LegVector {
		total = len(l.hits)
	}
	return out, total, true
}
