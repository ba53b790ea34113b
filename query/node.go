package query

import (
	"strconv"
	"strings"
)

// Node is one node of a query tree. The set of implementations is closed:
// *Term, *Phrase, *Prefix, *And, *Or, *Not and *Near.
type Node interface {
	// String renders the subtree deterministically, for tests and debugging,
	// e.g. AND("open" PHRASE("file x")).
	String() string
	node()
}

// Term matches one word as typed, punctuation included ("mcp-server", "C++").
type Term struct {
	Text    string
	Pos     int      // byte offset of the term in the input
	Len     int      // byte length of the span it was read from
	Columns []string // restrict to these columns; nil means all
	Initial bool     // must be the first token of its column (FTS5 ^word)
}

// Phrase matches a run of words in order. Text is what stood between the
// quotes, with surrounding whitespace trimmed. In raw syntax a doubled quote
// in it stands for one, and strings joined with + are joined with a space.
type Phrase struct {
	Text    string
	Pos     int // byte offset of the span: the opening quote, or a raw ^ or bareword
	Len     int // byte length including both quotes, if present
	Columns []string
	Initial bool
}

// Prefix matches any word that starts with Text (FTS5 prefix*). When Text
// holds several words ("video mo"*) it is a phrase whose last word is the
// prefix.
type Prefix struct {
	Text    string
	Pos     int
	Len     int // includes the trailing *
	Columns []string
	Initial bool
}

// And matches when every child matches.
type And struct{ Children []Node }

// Or matches when any child matches.
type Or struct{ Children []Node }

// Not excludes what Child matches. It only appears as a child of an And that
// has at least one other child that is not a Not.
type Not struct{ Child Node }

// Near matches when its leaves occur within Distance tokens of each other
// (FTS5 NEAR(a b, N)). Children are *Term, *Phrase or *Prefix.
type Near struct {
	Children []Node
	Distance int
}

func (*Term) node()   {}
func (*Phrase) node() {}
func (*Prefix) node() {}
func (*And) node()    {}
func (*Or) node()     {}
func (*Not) node()    {}
func (*Near) node()   {}

func (t *Term) String() string   { return filter(t.Columns, t.Initial) + strconv.Quote(t.Text) }
func (p *Prefix) String() string { return filter(p.Columns, p.Initial) + strconv.Quote(p.Text) + "*" }
func (p *Phrase) String() string {
	return filter(p.Columns, p.Initial) + "PHRASE(" + strconv.Quote(p.Text) + ")"
}
func (a *And) String() string { return group("AND(", a.Children, ")") }
func (o *Or) String() string  { return group("OR(", o.Children, ")") }
func (n *Not) String() string { return group("NOT(", []Node{n.Child}, ")") }
func (n *Near) String() string {
	return group("NEAR(", n.Children, ", "+strconv.Itoa(n.Distance)+")")
}

// filter renders a column filter and initial flag the way FTS5 spells them.
func filter(cols []string, initial bool) string {
	var s string
	switch len(cols) {
	case 0:
	case 1:
		s = cols[0] + ":"
	default:
		s = "{" + strings.Join(cols, " ") + "}:"
	}
	if initial {
		s += "^"
	}
	return s
}

func group(open string, children []Node, close string) string {
	var b strings.Builder
	b.WriteString(open)
	for i, c := range children {
		if i > 0 {
			b.WriteByte(' ')
		}
		if c == nil {
			b.WriteString("<nil>")
			continue
		}
		b.WriteString(c.String())
	}
	b.WriteString(close)
	return b.String()
}

// Walk visits n and its descendants depth first, parents before children,
// children in order. If fn returns false the node's children are skipped.
// Nil nodes are not visited.
func Walk(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	var children []Node
	switch n := n.(type) {
	case *And:
		children = n.Children
	case *Or:
		children = n.Children
	case *Not:
		children = []Node{n.Child}
	case *Near:
		children = n.Children
	}
	for _, c := range children {
		Walk(c, fn)
	}
}

// Leaves returns the *Term, *Phrase and *Prefix nodes of n in input order,
// including those under a Not.
func Leaves(n Node) []Node {
	var out []Node
	Walk(n, func(n Node) bool {
		switch n.(type) {
		case *Term, *Phrase, *Prefix:
			out = append(out, n)
		}
		return true
	})
	return out
}
