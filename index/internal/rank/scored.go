package rank

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// Scored is one document in a leg's ranking whose IDs are at hand (the
// substring and vector legs).
type Scored struct {
	ID    string
	Score float64
	// Doc is 1 + the document's doc number in the leg's index, when the
	// index numbers its documents and the leg knows it (DocOf); else 0.
	Doc uint32
}

// DocOf returns what Scored.Doc holds for a document whose internal ID
// is iid: 1 + its doc number when iid is one (8 bytes, big-endian, below
// 1<<31), else 0.
func DocOf(iid []byte) uint32 {
	if len(iid) != 8 {
		return 0
	}
	n := binary.BigEndian.Uint64(iid)
	if n >= 1<<31 {
		return 0
	}
	return uint32(n) + 1
}

// SortScored sorts l by score, best first, ties by ID.
func SortScored(l []Scored) {
	slices.SortFunc(l, byScoreID)
}

func byScoreID(a, b Scored) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return cmp.Compare(a.ID, b.ID)
}

// TopScored moves the n best of l, and every other scoring as well as
// the n-th, to its front in SortScored's order, and returns how many
// those are (m >= min(n, len(l))); the rest follow in no set order, each
// scoring less than all of them. So l[:m] is as SortScored would leave
// it. Cost: O(len · log n + m · log m), against O(len · log len).
func TopScored(l []Scored, n int) int {
	if n >= len(l) {
		SortScored(l)
		return len(l)
	}
	if n <= 0 {
		return 0
	}
	h := make(bestHeap, 0, n)
	for _, x := range l {
		if h.wants(x.Score, n) {
			h.add(x.Score, n)
		}
	}
	cut, m := h.cutoff(), 0
	for i, x := range l {
		if x.Score >= cut {
			l[m], l[i] = l[i], l[m]
			m++
		}
	}
	SortScored(l[:m])
	return m
}

// Ranks returns the rank each of scores has among l's, l in any order:
// one more than the number of l's scores above it, so that ties share the
// rank of the first of them, as fusion.Ranks gives them in SortScored's
// order. Cost: O((len(l) + len(scores)) · log len(scores)), against
// O(len(l) · log len(l)) for sorting l.
func Ranks(l []Scored, scores []float64) []int {
	return ranksAmong(len(l), func(i int) float64 { return l[i].Score }, scores)
}

// ranksAmong returns the rank each of scores has among the n that score
// gives: see Ranks. Most of the n are above every one of scores (the
// best, when scores are of matches below them) or at or below all of
// them (ranked past every one of scores): one comparison places them.
func ranksAmong(n int, score func(i int) float64, scores []float64) []int {
	out := make([]int, len(scores))
	if len(scores) == 0 {
		return out
	}
	asc := slices.Clone(scores)
	slices.Sort(asc)
	lo, hi := asc[0], asc[len(asc)-1]
	// below[k] counts the n scores above exactly the first k of asc;
	// below[0] is never read.
	below := make([]int, len(asc)+1)
	for i := range n {
		switch s := score(i); {
		case s > hi:
			below[len(asc)]++
		case s > lo:
			below[lowerBound(asc, s)]++
		}
	}
	// above[j] is how many of the n are above asc[j], at the first j of
	// equal scores.
	above := below
	for k := len(above) - 2; k >= 0; k-- {
		above[k] += above[k+1]
	}
	for i, s := range scores {
		out[i] = above[lowerBound(asc, s)+1] + 1
	}
	return out
}

// lowerBound returns the first index of asc (ascending) whose score is at
// least x: slices.BinarySearch's, without its care for NaN, which scores
// never are and which made it the costlier half of ranksAmong.
func lowerBound(asc []float64, x float64) int {
	// Branch-free: each step adds half or nothing by a mask, so a search
	// costs no mispredicted jumps.
	if len(asc) == 0 {
		return 0
	}
	base, n := 0, len(asc)
	for n > 1 {
		half := n >> 1
		base += half & -less(asc[base+half-1], x)
		n -= half
	}
	return base + less(asc[base], x)
}

// less is a < b as 1 or 0, which the compiler sets without a jump.
func less(a, b float64) int {
	if a < b {
		return 1
	}
	return 0
}

// Cutoff follows the n-th best of the scores it is given.
type Cutoff struct {
	h bestHeap
	n int
}

// NewCutoff returns a Cutoff of the n-th best score (n >= 1).
func NewCutoff(n int) *Cutoff { return &Cutoff{h: make(bestHeap, 0, n), n: n} }

// Add adds a score.
func (c *Cutoff) Add(x float64) {
	if c.h.wants(x, c.n) {
		c.h.add(x, c.n)
	}
}

// Score returns the n-th best score added, false while fewer were.
func (c *Cutoff) Score() (float64, bool) { return c.h.cutoff(), len(c.h) == c.n }

// bestHeap is a min-heap of the best scores seen so far.
type bestHeap []float64

// wants reports whether x is among the best n scores so far, which most
// are not: a check the caller's loop inlines before the costlier add.
func (h bestHeap) wants(x float64, n int) bool { return len(h) < n || x > h[0] }

// add adds x to a heap of at most n scores, if it wants it.
func (h *bestHeap) add(x float64, n int) {
	switch {
	case len(*h) < n:
		*h = append(*h, x)
		s := *h
		for i := len(s) - 1; i > 0 && s[i] < s[(i-1)/2]; i = (i - 1) / 2 {
			s[i], s[(i-1)/2] = s[(i-1)/2], s[i]
		}
	case x > (*h)[0]:
		s := *h
		s[0] = x
		for i := 0; ; {
			w, c := i, 2*i+1
			if c < len(s) && s[c] < s[w] {
				w = c
			}
			if c+1 < len(s) && s[c+1] < s[w] {
				w = c + 1
			}
			if w == i {
				break
			}
			s[i], s[w] = s[w], s[i]
			i = w
		}
	}
}

// cutoff is the lowest score kept, or 0 for none.
func (h bestHeap) cutoff() float64 {
	if len(h) == 0 {
		return 0
	}
	return h[0]
}
