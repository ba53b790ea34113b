package index

import (
	"github.com/twindex/twindex/fusion"
)

// fuseTop returns the first need hits of the fused ranking, exactly, and
// the number of matching documents. Within a leg, documents with equal
// scores share a rank (fusion.Options.TiesShareRank), so the order of
// ties never changes a fused score. In auto and hybrid mode, the
// substring and vector legs' documents (usually few, with IDs at hand)
// are placed in the text leg's ranking; the text-only documents of the
// top are then a prefix of the text leg in rank order, so only that
// prefix needs its IDs resolved.
func (s *search) fuseTop(tri []scored, text *textList, vec []scored, need int) ([]fusion.Hit, int, error) {
	k := float64(s.ix.opts.K)
	if text == nil && vec == nil {
		triRank := ranks(scoresOf(tri))
		n := min(need, len(tri))
		out := make([]fusion.Hit, n)
		for i := range n {
			out[i] = fusion.Hit{ID: tri[i].id, Score: tri[i].score, Legs: []fusion.LegRank{{Leg: LegSubstring, Rank: triRank[i], Score: tri[i].score}}}
		}
		return out, len(tri), nil
	}
	if tri == nil && vec == nil {
		if err := text.top(need); err != nil {
			return nil, 0, err
		}
		textRank := ranks(text.scores())
		n := min(need, len(text.hits))
		out := make([]fusion.Hit, n)
		for i := range n {
			id, err := text.resolve(i)
			if err != nil {
				return nil, 0, err
			}
			sc := text.hits[i].score
			out[i] = fusion.Hit{ID: id, Score: sc, Legs: []fusion.LegRank{{Leg: text.leg(i), Rank: textRank[i], Score: sc}}}
		}
		return out, text.count(), nil
	}

	// The legs whose documents come with IDs (substring, vector) are
	// fused in full; then their documents are placed in the text leg's
	// ranking.
	out := make([]fusion.Hit, 0, len(tri)+len(vec)+need)
	at := map[string]int{}
	for _, l := range []struct {
		leg  string
		list []scored
		w    float64
	}{{LegSubstring, tri, s.ix.opts.SubstringWeight}, {LegVector, vec, s.req.VectorWeight}} {
		rank := ranks(scoresOf(l.list))
		for i, x := range l.list {
			j, ok := at[x.id]
			if !ok {
				j = len(out)
				at[x.id] = j
				out = append(out, fusion.Hit{ID: x.id})
			}
			out[j].Score += l.w / (k + float64(rank[i]))
			out[j].Legs = append(out[j].Legs, fusion.LegRank{Leg: l.leg, Rank: rank[i], Score: x.score})
		}
	}
	known := len(out)
	if text == nil {
		fusion.Sort(out)
		return out, known, nil
	}
	wText := s.ix.opts.TextWeight
	// Match the documents by resolving the smaller side.
	var byID map[string]int
	if known > len(text.hits) {
		byID = make(map[string]int, len(text.hits))
		for p := range text.hits {
			id, err := text.resolve(p)
			if err != nil {
				return nil, 0, err
			}
			byID[id] = p
		}
	}
	rank := text.ranker(known)
	inBoth := map[int]bool{}
	for j := range out[:known] {
		p, ok := -1, false
		if byID != nil {
			p, ok = byID[out[j].ID]
		} else {
			iid, err := s.textR.InternalID(out[j].ID)
			if err != nil {
				return nil, 0, err
			}
			if iid != nil {
				p, ok = text.hitIndex(iid)
			}
		}
		if ok {
			inBoth[p] = true
			sc := text.hits[p].score
			r := rank(sc)
			out[j].Score += wText / (k + float64(r))
			out[j].Legs = append(out[j].Legs, fusion.LegRank{Leg: text.leg(p), Rank: r, Score: sc})
		}
	}
	// The text-only prefix: the first need of them, and the rest of the
	// last one's tie group, whose members share its fused score and are
	// ordered by ID below. A hit's rank is one more than the number of
	// better hits, all of which come before it in order.
	order := text.best(need + len(inBoth))
	taken, r := 0, 0
	for i, p := range order {
		sc := text.hits[p].score
		if i == 0 || sc != text.hits[order[i-1]].score {
			if taken >= need {
				break
			}
			r = i + 1
		}
		if inBoth[p] {
			continue
		}
		id, err := text.resolve(p)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, fusion.Hit{ID: id, Score: wText / (k + float64(r)), Legs: []fusion.LegRank{{Leg: text.leg(p), Rank: r, Score: sc}}})
		taken++
	}
	fusion.Sort(out)
	return out, known + len(text.hits) - len(inBoth), nil
}

func scoresOf(l []scored) []float64 {
	out := make([]float64, len(l))
	for i, x := range l {
		out[i] = x.score
	}
	return out
}

// ranks returns the 1-based rank of each of a leg's scores, sorted best
// first, with ties sharing the rank of the first of them.
func ranks(scores []float64) []int {
	r := make([]int, len(scores))
	prev := 0
	for i := range scores {
		prev = fusion.Rank(scores, i, prev, true)
		r[i] = prev
	}
	return r
}

// fuseAll returns every match, fused, with all IDs resolved: for orders
// other than by score.
func (s *search) fuseAll(tri []scored, text *textList, vec []scored) ([]fusion.Hit, error) {
	var lists []fusion.List
	if tri != nil {
		lists = append(lists, toList(LegSubstring, tri))
	}
	approx := map[string]bool{}
	if text != nil {
		if err := text.sort(); err != nil {
			return nil, err
		}
		l := make([]scored, len(text.hits))
		for p := range text.hits {
			id, err := text.resolve(p)
			if err != nil {
				return nil, err
			}
			l[p] = scored{id: id, score: text.hits[p].score}
			if text.hits[p].approx {
				approx[id] = true
			}
		}
		lists = append(lists, toList(LegText, l))
	}
	if vec != nil {
		lists = append(lists, toList(LegVector, vec))
	}
	opts := fusion.Options{K: s.ix.opts.K, TiesShareRank: true, Weights: map[string]float64{
		LegText: s.ix.opts.TextWeight, LegSubstring: s.ix.opts.SubstringWeight, LegVector: s.req.VectorWeight,
	}}
	if len(lists) == 1 {
		// One leg: its own scores, as fuseTop gives them.
		opts.Weights = nil
	}
	fused := fusion.RRF(lists, opts)
	for i := range fused {
		if len(lists) == 1 {
			fused[i].Score = fused[i].Legs[0].Score
		}
		for j := range fused[i].Legs {
			if fused[i].Legs[j].Leg == LegText && approx[fused[i].ID] {
				fused[i].Legs[j].Leg = LegFuzzy
			}
		}
	}
	return fused, nil
}

func toList(leg string, l []scored) fusion.List {
	fl := fusion.List{Leg: leg, IDs: make([]string, len(l)), Scores: make([]float64, len(l))}
	for i, x := range l {
		fl.IDs[i], fl.Scores[i] = x.id, x.score
	}
	return fl
}
