// Package window finds the parts of a text where a phrase of several
// words can occur, without analyzing the text. A token of one of the
// phrase's words starts where the text's folding holds the prefix of the
// word's term (tokenize.Text.TermPrefix) and a token can start
// (tokenize.MayStart); every occurrence of the phrase lies in the window
// around such a place that reaches as many words before and after it as
// the phrase has (tokenize.RunWindow). Analyzed alone
// (tokenize.Text.PositionsIn), the windows hold every occurrence of the
// phrase, at the positions the whole text gives them less a constant per
// window.
//
// A Starts is immutable once made and safe for concurrent use.
package window

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/tokenize"
)

// A prefix shorter than minPrefix bytes, or a word with more than
// maxPrefixes of them (a prefix query's expansions), occurs too often to
// be worth finding. Two bytes that must start a word are rare enough:
// on the yardstick's corpus the quoted phrase "not int or" took 58 ms
// with them and 210 ms analyzing its documents whole. Nor are windows
// worth finding where a prefix starts a word more than once in every
// sparse bytes, or where they would hold half the text: analyzing the
// text whole costs no more.
const (
	minPrefix   = 2
	maxPrefixes = 8
	sparse      = 16
)

// Word is one word of a phrase: its position in the phrase (0 for the
// first) and the terms, any of which it stands for. A stop word
// (tokenize.Text.Stops) has its folded spelling for its one term.
type Word struct {
	Rel   int
	Terms []string
	Stop  bool
}

// Starts is where a phrase is looked for: the prefixes of the terms of
// its word whose shortest prefix is the longest, and how many positions
// of the phrase come before that word and after it. When the word just
// before it is a stop word of ASCII letters, stopBefore is that word: a
// place where the text before does not end with it holds no occurrence
// ("a int" is looked for only where "a" comes before "int").
type Starts struct {
	prefixes      []find.Finder
	before, after int
	stopBefore    string
	// others are the phrase's other words: a window around a place
	// where no prefix of one of them can start a token on its side (the
	// words after it after the place, those before before it) holds no
	// occurrence, as a token at a later position starts later.
	others []other
}

// other is a word of the phrase besides the one looked for: its terms'
// prefixes, and whether it comes after that word.
type other struct {
	prefixes []find.Finder
	after    bool
}

// New returns the Starts of a phrase of words (in order), analyzed by
// text; nil when no word has prefixes long and few enough, or text's
// language cannot tell its terms' prefixes.
func New(text *tokenize.Text, words []Word) *Starts {
	if len(words) == 0 {
		return nil
	}
	var best []string
	bestRel, longest := 0, minPrefix-1
	all := make([][]string, len(words))
	for k, w := range words {
		var prefixes []string
		shortest := -1
		for _, term := range w.Terms {
			p, ok := text.TermPrefix(term)
			if !ok {
				return nil
			}
			if !slices.Contains(prefixes, p) {
				prefixes = append(prefixes, p)
			}
			if shortest < 0 || len(p) < shortest {
				shortest = len(p)
			}
		}
		all[k] = prefixes
		if len(prefixes) > 0 && len(prefixes) <= maxPrefixes && shortest > longest {
			best, bestRel, longest = prefixes, w.Rel, shortest
		}
	}
	if best == nil {
		return nil
	}
	st := &Starts{before: bestRel, after: words[len(words)-1].Rel - bestRel}
	for _, p := range best {
		st.prefixes = append(st.prefixes, find.New(p))
	}
	for k, w := range words {
		if w.Rel == bestRel || len(all[k]) == 0 || len(all[k]) > maxPrefixes {
			continue
		}
		o := other{after: w.Rel > bestRel}
		for _, p := range all[k] {
			if p != "" {
				o.prefixes = append(o.prefixes, find.New(p))
			}
		}
		if len(o.prefixes) == len(all[k]) {
			st.others = append(st.others, o)
		}
	}
	for _, w := range words {
		if w.Rel == bestRel-1 && w.Stop && len(w.Terms) == 1 && lettersAZ(w.Terms[0]) {
			st.stopBefore = w.Terms[0]
		}
	}
	return st
}

// lettersAZ reports whether s is one or more letters a-z.
func lettersAZ(s string) bool {
	for i := range len(s) {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// mayFollow reports whether the text before offset o (orig gives its
// bytes) can end with the stop word s, folded, of letters a-z: past the
// ASCII bytes before o that are not letters or digits (separators and
// connectors, which make no token), the bytes before are s up to case. A
// byte outside ASCII on the way cannot be told from a word's or a
// separator's here: then it may. The stop word's token, which takes the
// position before the token at o, ends where those bytes begin: an
// occurrence at o needs s there.
func mayFollow(orig func(k int) byte, o int, s string) bool {
	j := o
	for ; j > 0; j-- {
		c := orig(j - 1)
		if c >= utf8.RuneSelf {
			return true
		}
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			break
		}
	}
	if j < len(s) {
		return false
	}
	for k := range len(s) {
		c := orig(j - len(s) + k)
		if c >= utf8.RuneSelf {
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[k] {
			return false
		}
	}
	return true
}

// Find returns the windows of text where the phrase can occur, in
// order, apart: folded is text folded by tokenize.FoldCase, and offsets
// its map back to text (nil when they have the same offsets). ok is false
// when the prefixes start words too often or the windows would hold half
// of folded: the caller then analyzes the text whole.
//
// Cost: a scan of folded per prefix, and a pass over each window.
func (st *Starts) Find(text, folded string, offsets []int) (spans [][2]int, ok bool) {
	var tokenAt func(i int) bool // where the window filter's prefixes may start a token
	if offsets == nil {
		tokenAt = func(i int) bool { return i == 0 || tokenize.MayStart(text[i-1], text[i]) }
	}
	return st.find(folded, func(i int) (int, bool) {
		if offsets != nil {
			i = offsets[i]
		}
		return i, (i == 0 || tokenize.MayStart(text[i-1], text[i])) &&
			(st.stopBefore == "" || mayFollow(func(k int) byte { return text[k] }, i, st.stopBefore))
	}, func(i int) (int, int) { return tokenize.RunWindow(text, i, st.before, st.after) }, tokenAt)
}

// FindPlain is Find for a text that folding only lowered: folded is
// the text's folding and upper marks its upper-case letters, a bit per
// byte (tokenize.FoldCase); the text itself is not needed.
func (st *Starts) FindPlain(folded string, upper []uint64) (spans [][2]int, ok bool) {
	orig := func(i int) byte {
		if upper[i/64]&(1<<(i%64)) != 0 {
			return folded[i] - ('a' - 'A')
		}
		return folded[i]
	}
	tokenAt := func(i int) bool { return i == 0 || tokenize.MayStart(orig(i-1), orig(i)) }
	return st.find(folded, func(i int) (int, bool) {
		return i, tokenAt(i) && (st.stopBefore == "" || mayFollow(orig, i, st.stopBefore))
	}, func(i int) (int, int) { return tokenize.RunWindow(folded, i, st.before, st.after) }, tokenAt)
}

// find finds the prefixes in folded; start maps a place to the text's
// offset and says whether a token can start there, window gives the
// window around it. tokenAt, for a folded text with the text's offsets
// (nil for another), says whether a token can start at an offset: a
// window where one of the other words cannot start on its side is
// dropped (Starts.others).
func (st *Starts) find(folded string, start func(i int) (int, bool), window func(i int) (lo, hi int), tokenAt func(i int) bool) (spans [][2]int, ok bool) {
	most := len(folded)/sparse + 1
	for _, p := range st.prefixes {
		n := len(p.Needle())
		for at := 0; ; {
			i := p.Index(folded[at:])
			if i < 0 {
				break
			}
			i += at
			at = i + n
			o, can := start(i)
			if !can {
				continue
			}
			if len(spans) == most {
				return nil, false
			}
			lo, hi := window(o)
			if tokenAt != nil && !st.othersIn(folded, o, lo, hi, tokenAt) {
				continue
			}
			spans = append(spans, [2]int{lo, hi})
		}
	}
	spans = Merge(spans)
	if 2*covered(spans) > len(folded) {
		return nil, false
	}
	return spans, true
}

// othersIn reports whether each of the other words can start a token
// in the window [lo, hi) around o on its side of o: a prefix of its
// terms at a place after o for a word after, before o for one before.
// Cost: a scan of the window per prefix.
func (st *Starts) othersIn(folded string, o, lo, hi int, tokenAt func(i int) bool) bool {
	for _, w := range st.others {
		from, to := lo, o // where the word's token can start
		if w.after {
			from, to = o+1, hi
		}
		found := false
		for _, p := range w.prefixes {
			// An occurrence that starts before to ends before end: the
			// rest of the text is not scanned.
			end := min(len(folded), to+len(p.Needle())-1)
			for at := from; at < to && !found; {
				i := p.Index(folded[at:end])
				if i < 0 {
					break
				}
				found = tokenAt(at + i)
				at += i + 1
			}
			if found {
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Merge sorts spans and joins those that overlap or touch.
func Merge(spans [][2]int) [][2]int {
	if len(spans) == 0 {
		return spans
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		if top := &merged[len(merged)-1]; sp[0] <= top[1] {
			top[1] = max(top[1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// covered returns how many bytes spans cover.
func covered(spans [][2]int) int {
	n := 0
	for _, sp := range spans {
		n += sp[1] - sp[0]
	}
	return n
}
