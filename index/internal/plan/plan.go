// Package plan is a parsed query as the engine's legs read it: its tree
// (package query's AST) and its leaves, each with what it asks of the
// legs (text as typed and folded, the fields it is limited to, whether it
// is a phrase, a prefix, a word still being typed, quoted, negated, part
// of a NEAR group), and the three-valued judgement of a tree for one
// document that both legs use; and the text leg's view of it (Text): the
// term table its analyzed words make and the judgement of a document by
// the terms it holds and their positions.
//
// Invariants: a Plan is immutable once Parse returns it, a Text once the
// engine has built it; Leaves are in input order and ByNode maps every
// leaf node of Root to its Leaf.
// Functions are pure and a Plan is safe for concurrent use.
package plan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/query"
	"github.com/twindex/twindex/tokenize"
)

// Fields is a set of the searched fields.
type Fields uint8

// The query language's column names (title:word, body:word).
const (
	ColumnTitle = "title"
	ColumnBody  = "body"
)

const (
	InTitle Fields = 1 << iota
	InBody
	AllFields = InTitle | InBody
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
type Plan struct {
	Root   query.Node
	Strict bool
	Quoted bool    // a simple query with a phrase: the text leg reads stored text
	Leaves []*Leaf // input order
	ByNode map[query.Node]*Leaf
}

// leaf is one *query.Term, *query.Phrase or *query.Prefix of the tree.
type Leaf struct {
	Text    string      // as typed
	Folded  string      // what the substring leg looks for
	Find    find.Finder // finds Folded (record.Folded.HasRun)
	Fields  Fields
	Initial bool // must start its field
	Prefix  bool // the last word is a prefix (FTS5 word*)
	// Unfinished: simple syntax with typing set, and the query ends with
	// this word, no space after it: it is still being typed. Typing: and
	// it is long enough (MinTypingRunes) to be matched as a prefix too,
	// scored lower.
	Unfinished, Typing bool
	Phrase             bool // its words must be adjacent and in order
	Quoted             bool // simple syntax: a phrase, which every hit holds, exactly
	Negated            bool // under a NOT: excludes, never scores
	Near               bool // a child of a NEAR group
}

// MinTypingRunes is the shortest word that is also matched as a prefix
// while typing (and in the fallback): one or two letters would match
// nearly everything.
const MinTypingRunes = 3

// TypingExpansions bounds the completions of a word still being typed and
// of the fallback's words: the most frequent few are what the typist
// likely means, and each costs a posting list.
const TypingExpansions = 16

// Parse parses q, in raw syntax (FTS5's) when raw is set, else in simple
// syntax; with typing, a simple query's last word, when the query does
// not end in a space, is still being typed (Leaf.Unfinished, Leaf.Typing). Its errors are
// package query's (query.ErrEmpty for a query of no words).
func Parse(q string, raw, typing bool) (*Plan, error) {
	var ast query.Node
	var err error
	if raw {
		ast, err = query.Raw(q)
	} else {
		ast, err = query.Simple(q)
	}
	if err != nil {
		return nil, err
	}
	p := &Plan{Root: ast, Strict: raw, ByNode: map[query.Node]*Leaf{}}
	var walk func(n query.Node, negated, near bool)
	walk = func(n query.Node, negated, near bool) {
		l := &Leaf{Negated: negated, Near: near, Fields: AllFields}
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
			l.Text, cols, l.Initial = n.Text, n.Columns, n.Initial
		case *query.Phrase:
			// A quoted word with parts (ReadFile) is a run of them too.
			l.Text, cols, l.Initial, l.Phrase, l.Quoted = n.Text, n.Columns, n.Initial, multiword(n.Text) || !p.Strict, !p.Strict
			p.Quoted = p.Quoted || l.Quoted
		case *query.Prefix:
			l.Text, cols, l.Initial, l.Prefix, l.Phrase = n.Text, n.Columns, n.Initial, true, multiword(n.Text)
		}
		if cols != nil {
			l.Fields = 0
			for _, c := range cols {
				switch c {
				case ColumnTitle:
					l.Fields |= InTitle
				case ColumnBody:
					l.Fields |= InBody
				}
			}
		}
		l.Folded = tokenize.Fold(l.Text)
		l.Find = find.New(l.Folded)
		p.Leaves = append(p.Leaves, l)
		p.ByNode[n] = l
	}
	walk(ast, false, false)
	if !raw && typing {
		// A word the query ends with is still being typed; a phrase,
		// closed or not, is not.
		leaves := query.Leaves(ast)
		_, isTerm := leaves[len(leaves)-1].(*query.Term)
		last := p.Leaves[len(p.Leaves)-1]
		r, _ := utf8.DecodeLastRuneInString(q)
		if isTerm && !unicode.IsSpace(r) {
			last.Unfinished = true
			last.Typing = utf8.RuneCountInString(last.Folded) >= MinTypingRunes
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

// Positive returns the leaves that score: those not under a NOT.
func (p *Plan) Positive() []*Leaf {
	var out []*Leaf
	for _, l := range p.Leaves {
		if !l.Negated {
			out = append(out, l)
		}
	}
	return out
}

// Verdict is a tree's answer for one document: a leaf the leg cannot
// judge (no terms in it) abstains.
type Verdict int8

const (
	No Verdict = iota
	Yes
	Abstain
)

// Eval judges the tree under n for one document, asking leafOK for each
// leaf and nearOK for each NEAR group.
func (p *Plan) Eval(n query.Node, leafOK func(*Leaf) Verdict, nearOK func(*query.Near) Verdict) Verdict {
	switch n := n.(type) {
	case *query.And:
		out := Abstain
		for _, c := range n.Children {
			switch p.Eval(c, leafOK, nearOK) {
			case No:
				return No
			case Yes:
				out = Yes
			}
		}
		return out
	case *query.Or:
		out := Abstain
		for _, c := range n.Children {
			switch p.Eval(c, leafOK, nearOK) {
			case Yes:
				return Yes
			case No:
				out = No
			}
		}
		return out
	case *query.Not:
		switch p.Eval(n.Child, leafOK, nearOK) {
		case Yes:
			return No
		case No:
			return Yes
		}
		return Abstain
	case *query.Near:
		return nearOK(n)
	}
	return leafOK(p.ByNode[n])
}

// NearWithin reports whether one occurrence of each group, given as
// [start, end] word positions sorted by start, can be picked so that at
// most dist words lie between the end of the first and the start of the
// last (FTS5's NEAR).
func NearWithin(occ [][][2]int, dist int) bool {
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

// TermNode is a *query.Term and where its text starts in the query.
type TermNode struct {
	Node query.Node
	Pos  int
}

// TermNodes returns the query's *query.Term leaves in input order with the
// byte offset of their text in the query.
func (p *Plan) TermNodes(q string) []TermNode {
	var out []TermNode
	for _, n := range query.Leaves(p.Root) {
		t, ok := n.(*query.Term)
		if !ok || t.Pos < 0 || t.Pos+t.Len > len(q) {
			continue
		}
		if i := strings.Index(q[t.Pos:t.Pos+t.Len], t.Text); i >= 0 {
			out = append(out, TermNode{n, t.Pos + i})
		}
	}
	return out
}
