package index

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/tokenize"
)

// fieldSet is a set of the searched fields.
type fieldSet uint8

const (
	inTitle fieldSet = 1 << iota
	inBody
	allFields = inTitle | inBody
)

// plan is a parsed query: its tree and its leaves with what each asks of
// the legs.
//
// In simple syntax the substring leg asks for every leaf and the text leg
// for any of them, ranking documents with more of them higher, but for
// quoted phrases, which every hit of both legs holds: the substring leg
// as exact text, the text leg as a run of words. In raw syntax (strict)
// both legs follow the tree: AND, OR, NOT, NEAR, column filters and
// ^initial. A leaf with no text-leg term (only stop words,
// only punctuation) is left out of the text leg's tree, as FTS5 leaves
// out a phrase its tokenizer makes nothing of.
type plan struct {
	root   query.Node
	strict bool
	quoted bool    // a simple query with a phrase: the text leg reads stored text
	leaves []*leaf // input order
	byNode map[query.Node]*leaf
}

// leaf is one *query.Term, *query.Phrase or *query.Prefix of the tree.
type leaf struct {
	text    string // as typed
	folded  string // what the substring leg looks for
	fields  fieldSet
	initial bool // must start its field
	prefix  bool // the last word is a prefix (FTS5 word*)
	typing  bool // the last word is also a prefix, scored lower (simple syntax with Request.Prefix, still being typed)
	phrase  bool // its words must be adjacent and in order
	quoted  bool // simple syntax: a phrase, which every hit holds, exactly
	negated bool // under a NOT: excludes, never scores
	near    bool // a child of a NEAR group
}

// minTypingRunes is the shortest word that is also matched as a prefix
// while typing (and in the fallback): one or two letters would match
// nearly everything.
const minTypingRunes = 3

// typingExpansions bounds the completions of a word still being typed and
// of the fallback's words: the most frequent few are what the typist
// likely means, and each costs a posting list.
const typingExpansions = 16

func parse(req *Request) (*plan, error) {
	var ast query.Node
	var err error
	switch req.Syntax {
	case SyntaxRaw:
		ast, err = query.Raw(req.Query)
	default:
		ast, err = query.Simple(req.Query)
	}
	if errors.Is(err, query.ErrEmpty) {
		return nil, ErrEmptyQuery
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	p := &plan{root: ast, strict: req.Syntax == SyntaxRaw, byNode: map[query.Node]*leaf{}}
	var walk func(n query.Node, negated, near bool)
	walk = func(n query.Node, negated, near bool) {
		l := &leaf{negated: negated, near: near, fields: allFields}
		var cols []string
		switch n := n.(type) {
		case *query.And:
			for _, c := range n.Children {
				walk(c, negated, near)
			}
			return
		case *query.Or:
			for _, c := range n.Children {
				walk(c, negated, near)
			}
			return
		case *query.Not:
			walk(n.Child, !negated, near)
			return
		case *query.Near:
			for _, c := range n.Children {
				walk(c, negated, true)
			}
			return
		case *query.Term:
			l.text, cols, l.initial = n.Text, n.Columns, n.Initial
		case *query.Phrase:
			// A quoted word with parts (ReadFile) is a run of them too.
			l.text, cols, l.initial, l.phrase, l.quoted = n.Text, n.Columns, n.Initial, multiword(n.Text) || !p.strict, !p.strict
			p.quoted = p.quoted || l.quoted
		case *query.Prefix:
			l.text, cols, l.initial, l.prefix, l.phrase = n.Text, n.Columns, n.Initial, true, multiword(n.Text)
		}
		if cols != nil {
			l.fields = 0
			for _, c := range cols {
				switch c {
				case fieldTitle:
					l.fields |= inTitle
				case fieldBody:
					l.fields |= inBody
				}
			}
		}
		l.folded = tokenize.Fold(l.text)
		p.leaves = append(p.leaves, l)
		p.byNode[n] = l
	}
	walk(ast, false, false)
	if len(p.leaves) > MaxQueryTerms {
		return nil, fmt.Errorf("%w: %d terms, the limit is %d", ErrInvalidRequest, len(p.leaves), MaxQueryTerms)
	}
	if !p.strict && req.Prefix {
		// A word the query ends with is still being typed; a phrase,
		// closed or not, is not.
		leaves := query.Leaves(ast)
		_, isTerm := leaves[len(leaves)-1].(*query.Term)
		last := p.leaves[len(p.leaves)-1]
		r, _ := utf8.DecodeLastRuneInString(req.Query)
		if isTerm && !unicode.IsSpace(r) && utf8.RuneCountInString(last.folded) >= minTypingRunes {
			last.typing = true
		}
	}
	return p, nil
}

// multiword reports whether a phrase's text holds several words. In raw
// syntax one word ("bufio.Scanner", MapFile*) is matched like a term, by
// its whole identifier or its parts: checking that the parts are adjacent
// would take word positions, which the text index does not keep. A quoted
// word of a simple query restricts, and takes them.
func multiword(s string) bool { return strings.ContainsFunc(s, unicode.IsSpace) }

// positive returns the leaves that score: those not under a NOT.
func (p *plan) positive() []*leaf {
	var out []*leaf
	for _, l := range p.leaves {
		if !l.negated {
			out = append(out, l)
		}
	}
	return out
}

// verdict is a tree's answer for one document: a leaf the leg cannot
// judge (no terms in it) abstains.
type verdict int8

const (
	no verdict = iota
	yes
	abstain
)

// eval judges the tree under n for one document, asking leafOK for each
// leaf and nearOK for each NEAR group.
func (p *plan) eval(n query.Node, leafOK func(*leaf) verdict, nearOK func(*query.Near) verdict) verdict {
	switch n := n.(type) {
	case *query.And:
		out := abstain
		for _, c := range n.Children {
			switch p.eval(c, leafOK, nearOK) {
			case no:
				return no
			case yes:
				out = yes
			}
		}
		return out
	case *query.Or:
		out := abstain
		for _, c := range n.Children {
			switch p.eval(c, leafOK, nearOK) {
			case yes:
				return yes
			case no:
				out = no
			}
		}
		return out
	case *query.Not:
		switch p.eval(n.Child, leafOK, nearOK) {
		case yes:
			return no
		case no:
			return yes
		}
		return abstain
	case *query.Near:
		return nearOK(n)
	}
	return leafOK(p.byNode[n])
}

// nearWithin reports whether one occurrence of each group, given as
// [start, end] word positions sorted by start, can be picked so that at
// most dist words lie between the end of the first and the start of the
// last (FTS5's NEAR).
func nearWithin(occ [][][2]int, dist int) bool {
	for _, o := range occ {
		if len(o) == 0 {
			return false
		}
	}
	for gi, o := range occ {
		for _, first := range o {
			last := first[0]
			ok := true
			for gj, other := range occ {
				if gj == gi {
					continue
				}
				// The earliest occurrence starting at or after first.
				found := false
				for _, x := range other {
					if x[0] >= first[0] {
						last = max(last, x[0])
						found = true
						break
					}
				}
				if !found {
					ok = false
					break
				}
			}
			if ok && last-first[1]-1 <= dist {
				return true
			}
		}
	}
	return false
}

// termNode is a *query.Term and where its text starts in the query.
type termNode struct {
	node query.Node
	pos  int
}

// nodes returns the query's *query.Term leaves in input order with the
// byte offset of their text in the query.
func (p *plan) nodes(q string) []termNode {
	var out []termNode
	for _, n := range query.Leaves(p.root) {
		t, ok := n.(*query.Term)
		if !ok || t.Pos < 0 || t.Pos+t.Len > len(q) {
			continue
		}
		if i := strings.Index(q[t.Pos:t.Pos+t.Len], t.Text); i >= 0 {
			out = append(out, termNode{n, t.Pos + i})
		}
	}
	return out
}
