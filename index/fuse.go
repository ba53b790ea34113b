package index

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index/internal/rank"
)

// fuseTop returns the first need hits of the fused ranking, exactly, and
// the number of matching documents. Within a leg, documents with equal
// scores share a rank (fusion.Options.TiesShareRank), so the order of
// ties never changes a fused score. In auto and hybrid mode, the
// substring and vector legs' documents (usually few, with IDs at hand)
// are placed in the text leg's ranking; the text-only documents of the
// top are then a prefix of the text leg in rank order, so only that
// prefix needs its IDs resolved.
func (s *search) fuseTop(tri []rank.Scored, text *textList, vec []rank.Scored, need int) ([]fusion.Hit, int, error) {
	k := float64(s.ix.opts.K)
	if text == nil && vec == nil {
		n := min(need, len(tri))
		rank.TopScored(tri, n)
		triRank := fusion.Ranks(scoresOf(tri[:n]))
		out := make([]fusion.Hit, n)
		for i := range n {
			out[i] = fusion.Hit{ID: tri[i].ID, Score: tri[i].Score, Legs: []fusion.LegRank{{Leg: LegSubstring, Rank: triRank[i], Score: tri[i].Score}}}
		}
		return out, len(tri), nil
	}
	if tri == nil && vec == nil {
		if err := text.Top(need); err != nil {
			return nil, 0, err
		}
		textRank := fusion.Ranks(text.Scores())
		n := min(need, len(text.Hits))
		out := make([]fusion.Hit, n)
		for i := range n {
			id, err := text.Resolve(i)
			if err != nil {
				return nil, 0, err
			}
			sc := text.Hits[i].Score
			out[i] = fusion.Hit{ID: id, Score: sc, Legs: []fusion.LegRank{{Leg: text.leg(i), Rank: textRank[i], Score: sc}}}
		}
		return out, text.Count(), nil
	}

	if vec == nil && s.req.Boost == nil && s.req.Expand == nil {
		return s.fuseTwo(tri, text, need)
	}

	// The legs whose documents come with IDs (substring, vector) are
	// fused in full; then their documents are placed in the text leg's
	// ranking.
	rank.SortScored(tri)
	out := make([]fusion.Hit, 0, len(tri)+len(vec)+need)
	at := map[string]int{}
	for _, l := range []struct {
		leg  string
		list []rank.Scored
		w    float64
	}{{LegSubstring, tri, s.ix.opts.SubstringWeight}, {LegVector, vec, s.req.VectorWeight}} {
		rank := fusion.Ranks(scoresOf(l.list))
		for i, x := range l.list {
			j, ok := at[x.ID]
			if !ok {
				j = len(out)
				at[x.ID] = j
				out = append(out, fusion.Hit{ID: x.ID})
			}
			out[j].Score += l.w / (k + float64(rank[i]))
			out[j].Legs = append(out[j].Legs, fusion.LegRank{Leg: l.leg, Rank: rank[i], Score: x.Score})
		}
	}
	known := len(out)
	if text == nil {
		fusion.Sort(out)
		return out, known, nil
	}
	wText := s.ix.opts.TextWeight
	pos, err := s.inText(known, func(j int) string { return out[j].ID }, nil, text)
	if err != nil {
		return nil, 0, err
	}
	rank := text.Ranker(known)
	inBoth := s.scratch().marks(len(text.Hits))
	nBoth := 0
	for j, p := range pos {
		if p >= 0 {
			inBoth[p] = true
			nBoth++
			sc := text.Hits[p].Score
			r := rank(sc)
			out[j].Score += wText / (k + float64(r))
			out[j].Legs = append(out[j].Legs, fusion.LegRank{Leg: text.leg(p), Rank: r, Score: sc})
		}
	}
	if out, err = s.textOnly(out, text, inBoth, need); err != nil {
		return nil, 0, err
	}
	fusion.Sort(out)
	return out, known + len(text.Hits) - nBoth, nil
}

// fuseTwo is fuseTop of the substring and text legs alone, with no boost
// or expansion to reorder its hits afterwards. Only the substring leg's
// best bestDepth·need matches (and their ties) are sorted, which gives
// their ranks; every other match ranks below them all. A substring match
// that is not a text match and not among those cannot be among the first
// need hits, as its fused score falls with its substring rank and those
// score more. The best matches, the text-only prefix and the matches of
// both legs are scored, and only those scoring at least the need-th best
// become hits; the rest is counted. A match of both legs outside the best
// needs its substring rank only if its text rank could lift it to the
// need-th best of the others, which few can.
func (s *search) fuseTwo(tri []rank.Scored, text *textList, need int) ([]fusion.Hit, int, error) {
	k, wTri, wText := float64(s.ix.opts.K), s.ix.opts.SubstringWeight, s.ix.opts.TextWeight
	m := rank.TopScored(tri, bestDepth*need)
	topRank := fusion.Ranks(scoresOf(tri[:m]))
	pos, err := s.inText(len(tri), func(i int) string { return tri[i].ID }, func(i int) uint32 { return tri[i].Doc }, text)
	if err != nil {
		return nil, 0, err
	}
	type fused struct {
		i, p  int // substring position, text position (or -1)
		tr, r int // substring and text ranks
		score float64
	}
	// The text ranks of the best: of their text scores, in one pass.
	inBoth := s.scratch().marks(len(text.Hits))
	nBoth := 0
	var topText []float64
	for i, p := range pos {
		if p >= 0 {
			inBoth[p] = true
			nBoth++
			if i < m {
				topText = append(topText, text.Hits[p].Score)
			}
		}
	}
	topTextRank := text.RanksOf(topText)
	cands := make([]fused, 0, m)
	for i := range m {
		c := fused{i: i, p: pos[i], tr: topRank[i]}
		if c.p >= 0 {
			c.r, topTextRank = topTextRank[0], topTextRank[1:]
			c.score = wText / (k + float64(c.r))
		}
		c.score += wTri / (k + float64(c.tr))
		cands = append(cands, c)
	}
	out, err := s.textOnly(nil, text, inBoth, need)
	if err != nil {
		return nil, 0, err
	}
	// best keeps the need-th best score so far, or -Inf while there are
	// fewer.
	best := rank.NewCutoff(need)
	for _, c := range cands {
		best.Add(c.score)
	}
	for _, h := range out {
		best.Add(h.Score)
	}
	nthBest := func() float64 {
		if cut, ok := best.Score(); ok {
			return cut
		}
		return math.Inf(-1)
	}
	// Scoring more candidates can only raise the need-th best: a match
	// outside the best whose bound (its text rank's share and the rank
	// after the best's) is below it now is not a hit. The bound reaches
	// it only for text ranks up to about wText/(cut-bound)-k, so only the
	// matches whose text score is at least the one two ranks past that
	// need their text rank.
	cut, bound := nthBest(), wTri/(k+float64(m+1))
	floor := math.Inf(-1)
	if r := wText/(cut-bound) - k; cut > bound && r < float64(len(text.Hits)) {
		floor = text.NthBest(max(1, int(r)+2))
	}
	var later []fused
	var laterText []float64
	for i := m; i < len(tri); i++ {
		if p := pos[i]; p >= 0 && text.Hits[p].Score >= floor {
			later = append(later, fused{i: i, p: p})
			laterText = append(laterText, text.Hits[p].Score)
		}
	}
	var lift []fused
	for j, r := range text.RanksOf(laterText) {
		c := later[j]
		c.r = r
		c.score = wText / (k + float64(c.r))
		c.score += bound
		if c.score >= cut {
			lift = append(lift, c)
		}
	}
	if len(lift) > 0 {
		ls := make([]float64, len(lift))
		for j, c := range lift {
			ls[j] = tri[c.i].Score
		}
		triRank := rank.Ranks(tri, ls)
		for j, c := range lift {
			c.tr = triRank[j]
			c.score = wTri/(k+float64(c.tr)) + wText/(k+float64(c.r))
			cands = append(cands, c)
			best.Add(c.score)
		}
		cut = nthBest()
	}
	for _, c := range cands {
		if c.score < cut {
			continue
		}
		x := tri[c.i]
		legs := []fusion.LegRank{{Leg: LegSubstring, Rank: c.tr, Score: x.Score}}
		if c.p >= 0 {
			legs = append(legs, fusion.LegRank{Leg: text.leg(c.p), Rank: c.r, Score: text.Hits[c.p].Score})
		}
		out = append(out, fusion.Hit{ID: x.ID, Score: c.score, Legs: legs})
	}
	fusion.Sort(out)
	return out, len(tri) + len(text.Hits) - nBoth, nil
}

// bestDepth times need is how many of the substring leg's best matches
// fuseTwo sorts: enough that few matches of both legs below them need
// their rank, in the browser demo's keystrokes (BenchmarkKeystrokes).
const bestDepth = 4

// inText returns where each of n documents, whose IDs idOf gives, stands
// in the text leg's hits, or -1. docOf, when not nil, gives them as
// trigram index doc numbers (rank.Scored.Doc), which the state's join
// table places in the text index once it is built (backend.Join), unless
// one is unknown (0). Else it resolves the text leg's IDs unless they are
// many more than n: looking an ID up in the text index costs as much as
// resolving idLookupCost of its internal IDs.
func (s *search) inText(n int, idOf func(int) string, docOf func(int) uint32, text *textList) ([]int, error) {
	scr := s.scratch()
	scr.pos = slices.Grow(scr.pos[:0], n)[:n]
	pos := scr.pos
	byMap := n*idLookupCost > len(text.Hits)
	for i := 0; docOf != nil && i < n; i++ {
		if docOf(i) == 0 {
			docOf = nil // a scanned match: by IDs, and no work towards a table
		}
	}
	if docOf != nil {
		work := n * idLookupCost
		if byMap {
			work = n + len(text.Hits)
		}
		table, err := s.ix.join.Table(s.allTriR, s.allTextR, s.triIDs, s.textIDs, work)
		if err != nil {
			return nil, err
		}
		if table != nil {
			joined(table, n, docOf, text, pos)
			return pos, nil
		}
	}
	if byMap {
		byID := make(map[string]int, len(text.Hits))
		for p := range text.Hits {
			id, err := text.Resolve(p)
			if err != nil {
				return nil, err
			}
			byID[id] = p
		}
		for i := range n {
			if p, ok := byID[idOf(i)]; ok {
				pos[i] = p
			} else {
				pos[i] = -1
			}
		}
		return pos, nil
	}
	for i := range n {
		pos[i] = -1
		iid, err := s.textR.InternalID(idOf(i))
		if err != nil {
			return nil, err
		}
		if iid != nil {
			if p, ok := text.Index(iid); ok {
				pos[i] = p
			}
		}
	}
	return pos, nil
}

// joined fills pos as inText does, through table (backend.Join.Table),
// for documents whose doc numbers docOf gives, none 0.
func joined(table []int32, n int, docOf func(int) uint32, text *textList, pos []int) {
	var iid [8]byte
	for i := range n {
		d := docOf(i)
		pos[i] = -1
		if int(d-1) >= len(table) || table[d-1] < 0 {
			continue
		}
		binary.BigEndian.PutUint64(iid[:], uint64(table[d-1]))
		if p, ok := text.Index(iid[:]); ok {
			pos[i] = p
		}
	}
}

// textOnly appends to out the text leg's best hits in no other leg
// (inBoth, by position, marks those in another): the first need of them
// in the leg's order, and the rest of the last one's tie group, whose
// members share its fused score and are ordered by ID by fusion.Sort.
// Only those are ranked, each among all of the leg's hits.
func (s *search) textOnly(out []fusion.Hit, text *textList, inBoth []bool, need int) ([]fusion.Hit, error) {
	k, wText := float64(s.ix.opts.K), s.ix.opts.TextWeight
	only := text.BestExcept(need, inBoth)
	scores := make([]float64, len(only))
	for j, p := range only {
		scores[j] = text.Hits[p].Score
	}
	for j, r := range text.RanksOf(scores) {
		p := only[j]
		id, err := text.Resolve(p)
		if err != nil {
			return nil, err
		}
		out = append(out, fusion.Hit{ID: id, Score: wText / (k + float64(r)), Legs: []fusion.LegRank{{Leg: text.leg(p), Rank: r, Score: scores[j]}}})
	}
	return out, nil
}

// idLookupCost is how many of the text index's internal IDs resolving
// (ExternalID, about in doc number order as fuseTop asks) costs as much
// as looking up one external ID (InternalID, which opens a term reader on
// the ID field): 0.05-1 µs against 3-10 µs on the yardstick's full corpus
// in scorch (DESIGN.md).
const idLookupCost = 8

func scoresOf(l []rank.Scored) []float64 {
	out := make([]float64, len(l))
	for i, x := range l {
		out[i] = x.Score
	}
	return out
}

// fuseAll returns every match, fused, with all IDs resolved: for orders
// other than by score.
func (s *search) fuseAll(tri []rank.Scored, text *textList, vec []rank.Scored) ([]fusion.Hit, error) {
	var lists []fusion.List
	if tri != nil {
		rank.SortScored(tri)
		lists = append(lists, toList(LegSubstring, tri))
	}
	approx := map[string]bool{}
	if text != nil {
		if err := text.Sort(); err != nil {
			return nil, err
		}
		l := make([]rank.Scored, len(text.Hits))
		for p := range text.Hits {
			id, err := text.Resolve(p)
			if err != nil {
				return nil, err
			}
			l[p] = rank.Scored{ID: id, Score: text.Hits[p].Score}
			if text.Hits[p].Approx {
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

func toList(leg string, l []rank.Scored) fusion.List {
	fl := fusion.List{Leg: leg, IDs: make([]string, len(l)), Scores: make([]float64, len(l))}
	for i, x := range l {
		fl.IDs[i], fl.Scores[i] = x.ID, x.Score
	}
	return fl
}
