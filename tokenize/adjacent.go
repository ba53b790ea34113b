package tokenize

// Adjacent collects the pairs of terms a text holds at consecutive
// positions, stop words included as Stops gives them: what a quoted
// phrase's words are, two by two, where the text holds it. Count adds a
// text's pairs to it. Each pair is kept as PairHash of the TermHash of
// its terms, values this package fixes for good, since indexes store
// them.
//
// An Adjacent is used by one goroutine at a time; its zero value is
// ready.
type Adjacent struct {
	prev, cur []uint64 // TermHash of the terms at positions at-1 and at
	at        int      // the position of cur, counted across texts
	base      int      // what the text being counted adds to its positions
	joined    bool     // the next text continues the last one (Continue)
	pairs     []uint64
	// recent holds pairs added before, at slots of their low bits: a
	// pair found there is not added again. Most repeats of a text's
	// pairs are caught so, with no sort of them all.
	recent [1 << 10]uint64
}

// Continue makes the next text counted into a continue the last one, as
// the rest of one text cut at a separator (a licence comment and the
// code after it): its first term follows the last one's. Texts are
// otherwise apart: no pair spans two of them.
func (a *Adjacent) Continue() { a.joined = true }

// Pairs returns the pairs collected: each at least once, and most once
// (a pair comes again only after others took its place in a small table
// of recent ones), in the order they were found.
func (a *Adjacent) Pairs() []uint64 { return a.pairs }

// start begins a text; end ends it after n positions.
func (a *Adjacent) start() {
	if !a.joined {
		a.prev, a.cur = a.prev[:0], a.cur[:0]
		a.base = a.at + 2 // a gap: the last text's terms pair with none of this one's
	}
	a.joined = false
}

func (a *Adjacent) end(n int) { a.base += n }

// add notes term at position pos of the text being counted: positions
// never decrease from one call to the next.
func (a *Adjacent) add(pos int, term string) {
	pos += a.base
	h := TermHash(term)
	switch pos {
	case a.at:
	case a.at + 1:
		a.prev, a.cur = a.cur, a.prev[:0]
	default:
		a.prev, a.cur = a.prev[:0], a.cur[:0]
	}
	a.at = pos
	a.cur = append(a.cur, h)
	for _, p := range a.prev {
		ph := PairHash(p, h)
		if slot := &a.recent[ph%uint64(len(a.recent))]; *slot != ph || ph == 0 {
			*slot = ph
			a.pairs = append(a.pairs, ph)
		}
	}
}

// TermHash is the hash of a term in Adjacent's pairs: 64-bit FNV-1a of
// its bytes.
func TermHash(term string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(term); i++ {
		h ^= uint64(term[i])
		h *= 1099511628211
	}
	return h
}

// PairHash is the hash of the pair of terms whose TermHashes are first
// and second, in that order: the two mixed by the finalizer of
// SplitMix64, so that its bits are even for a Bloom filter's probes.
func PairHash(first, second uint64) uint64 {
	z := first*0x9e3779b97f4a7c15 + (second<<29 | second>>35)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
