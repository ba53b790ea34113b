package plan

import (
	"math/bits"
	"slices"

	"github.com/twindex/twindex/query"
)

// Term is one entry of the text leg's term table: the term of a query
// word, or the set of indexed terms that a prefix or a fuzzy word stands
// for, read as one term (as FTS5 reads a prefix query).
type Term struct {
	Dict     []string
	Weight   float64
	Positive bool   // some leaf not under a NOT uses it: it creates matches and scores
	Tolerant bool   // a tolerant pass's expansion: its matches are not exact
	Single   bool   // the term of one query word: its df is its posting lists' count
	Leaves   uint64 // bit i: leaf i of the plan uses it (for coordination)
	Added    bool   // added by feedback: scores the matches, makes none
	// Part is the entry of the whole identifier whose part this term is
	// (read and file of ReadFile), -1 for none: a document without the
	// whole identifier weighs the part less.
	Part int
}

// TextLeaf is what the text leg makes of a leaf: its tokens grouped by
// position, each group satisfied by any of its terms.
type TextLeaf struct {
	*Leaf
	Groups []Group // by position, first at Rel 0
	Covers []Cover
	// Units are the groups a document must hold, in the simple syntax,
	// to hold the leaf (Unite): each group with terms that is not minor
	// on its own, and those of one hyphenated word as one unit, any of
	// which holds it.
	Units [][]int
	// groupHeld and unitHeld are, for each group and each unit, the
	// entries of the term table that hold it (bit t: entry t), a group's
	// terms and the compounds that cover it: present tests a field's
	// bits against them, a word at a time.
	groupHeld, unitHeld [][]uint64
}

// Group is the terms of one position of a leaf, any of which satisfies
// it, or a stop word of a phrase, which the text index does not hold: it
// is judged by positions alone.
type Group struct {
	Rel   int    // position relative to the leaf's first
	Terms []int  // entries of the term table
	Stop  string // the stop word, folded (tokenize.Text.Stops); Terms is empty
	// Minor: its word has one or two characters (the b of UreB, the 64
	// of Len64), which a word of parts does not ask for (Holds).
	Minor bool
	// Prose, when not 0, numbers the hyphenated word its word is part of
	// (low-dose, T–cell; 1 for the leaf's first): the parts apart mean
	// the same, so in the simple syntax any one of them holds it.
	Prose int
}

// Unite sets the leaf's Units from its groups and covers; call it once
// they are made, before Present or Holds.
func (tl *TextLeaf) Unite() {
	tl.Units = nil
	for gi, g := range tl.Groups {
		if len(g.Terms) == 0 || g.Minor {
			continue
		}
		same := func(u []int) bool { return g.Prose > 0 && tl.Groups[u[0]].Prose == g.Prose }
		if u := slices.IndexFunc(tl.Units, same); u >= 0 {
			tl.Units[u] = append(tl.Units[u], gi)
			continue
		}
		tl.Units = append(tl.Units, []int{gi})
	}
	// The masks have a word for every 64 entries up to the largest used.
	n := 0
	for _, g := range tl.Groups {
		for _, t := range g.Terms {
			n = max(n, t/64+1)
		}
	}
	for _, c := range tl.Covers {
		n = max(n, c.Term/64+1)
	}
	set := func(mask []uint64, t int) { mask[t/64] |= 1 << (t % 64) }
	tl.groupHeld = make([][]uint64, len(tl.Groups))
	for gi, g := range tl.Groups {
		tl.groupHeld[gi] = make([]uint64, n)
		for _, t := range g.Terms {
			set(tl.groupHeld[gi], t)
		}
	}
	for _, c := range tl.Covers {
		for _, gi := range c.Groups {
			set(tl.groupHeld[gi], c.Term)
		}
	}
	tl.unitHeld = make([][]uint64, len(tl.Units))
	for u, groups := range tl.Units {
		tl.unitHeld[u] = make([]uint64, n)
		for _, gi := range groups {
			for w, b := range tl.groupHeld[gi] {
				tl.unitHeld[u][w] |= b
			}
		}
	}
}

// UnitTerms returns the entries of the term table that hold unit u
// (Holds): its groups' terms and the compounds covering them, in order.
// Call Unite first.
func (tl *TextLeaf) UnitTerms(u int) []int {
	var out []int
	for w, b := range tl.unitHeld[u] {
		for ; b != 0; b &= b - 1 {
			out = append(out, w*64+bits.TrailingZeros64(b))
		}
	}
	return out
}

// Cover says that a compound's term (getuserbyid), when present,
// satisfies the groups of its parts (get, user, id): the same identifier
// written without case changes has no part terms.
type Cover struct {
	Term   int
	Groups []int
}

// Text is the text leg's view of a query.
type Text struct {
	Terms      []Term
	Leaves     []*TextLeaf
	ByLeaf     map[*Leaf]*TextLeaf
	Words      int    // positive leaves with terms
	WordLeaves uint64 // bit i: leaf i of the plan is one of them
	// Required are the quoted leaves of a simple query, which every
	// match holds.
	Required []*TextLeaf
}

// NeedsPositions reports whether matching l takes its words' positions:
// ^, a phrase of several words, or one of a stop word, which no presence
// bit stands for.
func (tl *TextLeaf) NeedsPositions() bool {
	return tl.Initial || (tl.Phrase && (len(tl.Groups) > 1 || len(tl.Groups) == 1 && tl.Groups[0].Stop != ""))
}

// Positional reports whether judging a document under a strict plan may
// take its words' positions: a phrase, ^ or NEAR.
func (tp *Text) Positional() bool {
	for _, tl := range tp.Leaves {
		if tl.NeedsPositions() || tl.Near {
			return true
		}
	}
	return false
}

// PositionTerms returns the terms whose positions the judges of phrases,
// ^ and NEAR read: those of the leaves that take positions, each once.
func (tp *Text) PositionTerms() []string {
	seen := map[string]bool{}
	var out []string
	for _, tl := range tp.Leaves {
		if !tl.NeedsPositions() && !tl.Near {
			continue
		}
		for _, g := range tl.Groups {
			for _, term := range tp.GroupTerms(g) {
				if !seen[term] {
					seen[term] = true
					out = append(out, term)
				}
			}
		}
	}
	return out
}

// GroupTerms returns the terms whose positions satisfy g: its terms'
// dictionaries, or its stop word.
func (tp *Text) GroupTerms(g Group) []string {
	if g.Stop != "" {
		return []string{g.Stop}
	}
	var out []string
	for _, t := range g.Terms {
		out = append(out, tp.Terms[t].Dict...)
	}
	return out
}

// Present reports whether the terms present in one field (bits of the
// term table) satisfy every group of the leaf, ignoring positions and
// stop words, which the text index does not hold.
func (tl *TextLeaf) Present(bits []uint64) bool { return tl.present(bits, false) }

// Holds is Present in the simple syntax, which asks for the leaf's
// units: a group that no term stands for (a trailing stop word typed as
// a prefix, without completions) or a minor one asks for nothing, and
// one part of a hyphenated word holds all of it.
func (tl *TextLeaf) Holds(bits []uint64) bool { return tl.present(bits, true) }

// Conjunctive reports whether a document holds the leaf, in the simple
// syntax, only by its units (Holds) and not by any of its terms: a word
// of several parts (read and file of ReadFile, types2 and package of
// types2.Package), which a document holds when one of its fields holds
// every part, or the whole identifier; and a word of one part beside
// minor ones (errors of errors.I, wtf of WTF16Go), which a minor part
// alone, a word of one or two letters that most documents hold, does not
// hold. A hyphenated word alone is not.
func (tl *TextLeaf) Conjunctive() bool {
	minor := func(g Group) bool { return g.Minor && len(g.Terms) > 0 }
	return len(tl.Units) > 1 || len(tl.Units) == 1 && slices.ContainsFunc(tl.Groups, minor)
}

func (tl *TextLeaf) present(bits []uint64, simple bool) bool {
	held := func(mask []uint64) bool {
		for w, m := range mask {
			if w < len(bits) && bits[w]&m != 0 {
				return true
			}
		}
		return false
	}
	if simple {
		for _, mask := range tl.unitHeld {
			if !held(mask) {
				return false
			}
		}
		return true
	}
	for gi, g := range tl.Groups {
		if g.Stop == "" && !held(tl.groupHeld[gi]) {
			return false
		}
	}
	return true
}

// Compound reports whether a present compound term covers every group:
// an identifier's parts are adjacent within it, so no positions are
// needed (the phrase "types2.Package" or prefix "getUs"*).
func (tl *TextLeaf) Compound(bits []uint64) bool {
	for _, c := range tl.Covers {
		if bits[c.Term/64]&(1<<(c.Term%64)) != 0 && len(c.Groups) >= len(tl.Groups) {
			return true
		}
	}
	return false
}

// Occurrences returns where the leaf occurs in a field, as [first, last]
// positions, given the field's term positions. With initial it must start
// the field.
func (tl *TextLeaf) Occurrences(tp *Text, pos map[string][]int) [][2]int {
	var out [][2]int
	at := func(g Group, p int) bool {
		for _, term := range tp.GroupTerms(g) {
			if _, ok := slices.BinarySearch(pos[term], p); ok {
				return true
			}
		}
		return false
	}
	var starts []int
	for _, term := range tp.GroupTerms(tl.Groups[0]) {
		starts = append(starts, pos[term]...)
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	lastRel := tl.Groups[len(tl.Groups)-1].Rel
	for _, p := range starts {
		if tl.Initial && p != 1 {
			continue
		}
		ok := true
		for _, g := range tl.Groups[1:] {
			if !at(g, p+g.Rel) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, [2]int{p, p + lastRel})
		}
	}
	return out
}

// Judge judges a document of the text leg under a strict plan. bits
// returns the presence bits of one field (0 title, 1 body); runs reports
// whether a field holds a leaf that needs positions (a phrase, ^) where
// its terms are present: by Occurrences, or by what tells sooner;
// positions returns the field's term positions, read from the stored
// text, for NEAR.
func (tp *Text) Judge(p *Plan, bits func(f int) []uint64, runs func(tl *TextLeaf, f int) (bool, error), positions func(f int) (map[string][]int, error)) (Verdict, error) {
	var err error
	fieldsOf := func(fs Fields) []int {
		var out []int
		if fs&InTitle != 0 {
			out = append(out, 0)
		}
		if fs&InBody != 0 {
			out = append(out, 1)
		}
		return out
	}
	leafOK := func(l *Leaf) Verdict {
		tl := tp.ByLeaf[l]
		if tl == nil {
			return Abstain
		}
		for _, f := range fieldsOf(l.Fields) {
			if !tl.Present(bits(f)) {
				continue
			}
			if !tl.NeedsPositions() || (!tl.Initial && tl.Compound(bits(f))) {
				return Yes
			}
			held, herr := runs(tl, f)
			if herr != nil {
				err = herr
				return No
			}
			if held {
				return Yes
			}
		}
		return No
	}
	nearOK := func(n *query.Near) Verdict {
		var tls []*TextLeaf
		for _, c := range n.Children {
			if tl := tp.ByLeaf[p.ByNode[c]]; tl != nil {
				tls = append(tls, tl)
			}
		}
		if len(tls) == 0 {
			return Abstain
		}
	fields:
		for f := range 2 {
			for _, tl := range tls {
				if tl.Fields&(1<<f) == 0 || !tl.Present(bits(f)) {
					continue fields
				}
			}
			pos, perr := positions(f)
			if perr != nil {
				err = perr
				return No
			}
			occ := make([][][2]int, len(tls))
			for i, tl := range tls {
				occ[i] = tl.Occurrences(tp, pos)
			}
			if NearWithin(occ, n.Distance) {
				return Yes
			}
		}
		return No
	}
	v := p.Eval(p.Root, leafOK, nearOK)
	return v, err
}
