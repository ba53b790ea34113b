package record

import (
	mathbits "math/bits"
	"sync"
	"unsafe"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/tokenize"
)

// Folded is a record's title and body folded for substring matching,
// with the maps back to original byte offsets (nil when folding kept every
// offset, as for ASCII). It is not changed once made, but for one that
// FoldInto made, a view of a buffer its caller writes again.
type Folded struct {
	seq               uint64 // the write that stored the record folded here
	Title, Body       string
	TitleMap, BodyMap []int
	// TitleUpper and BodyUpper mark, a bit per folded byte, the ASCII
	// letters that folding lowered; TitleChanged and BodyChanged the bytes
	// that it did more to (tokenize.FoldCase), nil for a field whose
	// folding only lowered ASCII letters (most text, and code): the upper
	// bits then restore it.
	TitleUpper, BodyUpper     []uint64
	TitleChanged, BodyChanged []uint64
	// mapless marks an entry of the cache whose maps it left out (see
	// FoldCache.Get); WithMaps restores them.
	mapless bool
}

func (f *Folded) size() int {
	return len(f.Title) + len(f.Body) + 8*(len(f.TitleMap)+len(f.BodyMap)+len(f.TitleUpper)+len(f.BodyUpper)+len(f.TitleChanged)+len(f.BodyChanged)) + 64
}

// Original returns the title and body as stored, when both can be
// restored from their folded text: a snippet then needs no decoding.
func (f *Folded) Original() (title, body string, ok bool) {
	if f.TitleChanged != nil || f.BodyChanged != nil {
		return "", "", false
	}
	return restoreCase(f.Title, f.TitleUpper), restoreCase(f.Body, f.BodyUpper), true
}

// Plain returns the body (else the title) folded, and its upper-case
// letters (a bit per byte), ok only when folding did nothing but lower
// ASCII letters: the folded text then has the original's offsets, and at
// each token's start the spelling that the analyzer folds the token's
// word to. RestoredSpans gives parts of the original back.
func (f *Folded) Plain(body bool) (folded string, upper []uint64, ok bool) {
	if body {
		return f.Body, f.BodyUpper, f.BodyChanged == nil
	}
	return f.Title, f.TitleUpper, f.TitleChanged == nil
}

// RestoredSpans returns the spans of the body (else the title) as
// written, one after another, and where each is in the text returned,
// for a field that Plain reports ok. Cost: a copy of the spans.
func (f *Folded) RestoredSpans(body bool, spans [][2]int) (text string, at [][2]int) {
	folded, upper, _ := f.Plain(body)
	n := 0
	for _, sp := range spans {
		n += sp[1] - sp[0]
	}
	b := make([]byte, 0, n)
	at = make([][2]int, len(spans))
	for k, sp := range spans {
		base := len(b)
		b = append(b, folded[sp[0]:sp[1]]...)
		raiseCase(b[base:], upper, sp[0])
		at[k] = [2]int{base, len(b)}
	}
	return view(b), at
}

// restoreCase raises the letters of folded that mask marks. Cost: a copy
// of folded.
func restoreCase(folded string, mask []uint64) string {
	if len(folded) == 0 {
		return ""
	}
	b := []byte(folded)
	raiseCase(b, mask, 0)
	// b is not written again: the string shares it instead of copying
	// it, as strings.Builder does.
	return view(b)
}

// raiseCase raises the letters of b, which holds the folded bytes from
// off on, that mask (a bit per folded byte) marks.
func raiseCase(b []byte, mask []uint64, off int) {
	end := off + len(b)
	for w := off / 64; w < len(mask) && w*64 < end; w++ {
		bits := mask[w]
		for ; bits != 0; bits &= bits - 1 {
			if i := w*64 + mathbits.TrailingZeros64(bits); i >= off && i < end {
				b[i-off] -= 'a' - 'A'
			}
		}
	}
}

// WithMaps returns f, or for an entry the cache kept without its maps, the
// same text folded again from title and body (the record's) with them.
func (f *Folded) WithMaps(title, body string) *Folded {
	if !f.mapless {
		return f
	}
	return fold(f.seq, []byte(title), []byte(body))
}

// fold folds a record's title and body, with the maps back to their
// offsets and the case masks.
func fold(seq uint64, title, body []byte) *Folded {
	f := &Folded{seq: seq}
	f.Title, f.TitleMap, f.TitleUpper, f.TitleChanged = tokenize.FoldCase(title)
	f.Body, f.BodyMap, f.BodyUpper, f.BodyChanged = tokenize.FoldCase(body)
	return f
}

// FoldInto folds a record's title and body into buf and returns f and the
// buffer, for a reader that keeps none of it (a search verifying
// candidates in a process with no fold cache): f's Title and Body are
// views of buf, valid until buf is written again, and f has no maps and
// no masks. Cost: tokenize.AppendFold of each; nothing allocated once buf
// is large enough.
func FoldInto(f *Folded, buf, title, body []byte) (*Folded, []byte) {
	buf = tokenize.AppendFold(buf[:0], title)
	n := len(buf)
	buf = tokenize.AppendFold(buf, body)
	*f = Folded{Title: unsafe.String(unsafe.SliceData(buf), n), Body: unsafe.String(unsafe.SliceData(buf[n:]), len(buf)-n)}
	return f, buf
}

// FoldCache keeps folded text between searches so that verifying
// substring candidates and finding snippet matches costs a scan of folded
// text, not a fold per search. An entry is valid for one record: it is
// keyed by ID and tagged with the record's write sequence number, so a
// search running on an older snapshot can neither read a newer entry as
// its own nor leave a stale one that a later search would trust. Bounded
// by bytes; when full, arbitrary entries are evicted. An entry keeps its
// folded text and case masks but not its maps (8 bytes a folded byte, for
// text that folding changed the length of): only snippets read them, for
// the few hits of a page (Folded.WithMaps), and without them the yardstick's
// full corpus fits the default budget (54 MiB; 126 MiB with them). Safe
// for concurrent use.
type FoldCache struct {
	mu    sync.Mutex
	m     map[string]*Folded
	bytes int
	max   int
}

// NewFoldCache returns a cache that holds up to max bytes; with max 0 or
// less it keeps nothing.
func NewFoldCache(max int) *FoldCache {
	return &FoldCache{m: map[string]*Folded{}, max: max}
}

// Keeps reports whether the cache keeps anything.
func (c *FoldCache) Keeps() bool { return c.max > 0 }

// Room reports whether the fold of a text of n bytes (title and body)
// fits beside the entries the cache holds, none evicted.
func (c *FoldCache) Room(n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes+n+n/8+64 <= c.max
}

// Peek returns the cached folded text of the record (id, seq), or nil.
func (c *FoldCache) Peek(id string, seq uint64) *Folded {
	c.mu.Lock()
	f := c.m[id]
	c.mu.Unlock()
	if f != nil && f.seq == seq {
		return f
	}
	return nil
}

// Get returns the folded text of the record (id, seq), calling load for
// its title and body only when it is not cached. Cost: a fold of the
// text on a miss, and evictions to make room for it.
func (c *FoldCache) Get(id string, seq uint64, load func() (title, body []byte, err error)) (*Folded, error) {
	c.mu.Lock()
	f := c.m[id]
	c.mu.Unlock()
	if f != nil && f.seq == seq {
		return f, nil
	}
	title, body, err := load()
	if err != nil {
		return nil, err
	}
	f = fold(seq, title, body)
	if c.max <= 0 {
		return f, nil
	}
	keep := f
	if f.TitleMap != nil || f.BodyMap != nil {
		kept := *f
		kept.TitleMap, kept.BodyMap, kept.mapless = nil, nil, true
		keep = &kept
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[id]; old != nil {
		if old.seq > seq {
			return f, nil // a newer record is cached; keep it
		}
		c.bytes -= old.size()
	}
	for k, v := range c.m {
		if c.bytes+keep.size() <= c.max {
			break
		}
		c.bytes -= v.size()
		delete(c.m, k)
	}
	if keep.size() <= c.max {
		c.m[id] = keep
		c.bytes += keep.size()
	}
	return f, nil
}

// HasRun reports whether the body (else the title) holds text, whose
// folded form is folded, as written, up to case, between separators, in
// a way that analyzes as the query does: then the document holds the
// query's words as a run, and no analysis of its text is needed. That is
// the common case of a quoted phrase ("all rights", "source code"), which
// matches thousands of documents that each would otherwise be analyzed
// whole for its positions (2.2 s for "all rights" on the yardstick's
// corpus). A false answer decides nothing: stems and an identifier's
// parts make runs too, which positions find.
//
// The same text, bounded by separators, is the same words; case changes
// words only inside one (camelCase and acronyms split), so every word of
// both the query's text and the document's must have no inner capital
// (lower, Title or UPPER case). In a field that folding did more to than
// lower ASCII letters, an occurrence counts where it did nothing more in
// the occurrence and the bytes on either side: there the folded text is
// the field's, lowered. Cost: a scan of the folded field, cached between
// searches.
func (fd *Folded) HasRun(body bool, written, folded string) bool {
	text, upper, changed := fd.Title, fd.TitleUpper, fd.TitleChanged
	if body {
		text, upper, changed = fd.Body, fd.BodyUpper, fd.BodyChanged
	}
	q := folded
	if len(q) == 0 || len(written) != len(q) || !wordByte(q[0]) || !wordByte(q[len(q)-1]) || !plainCase(written) {
		return false
	}
	fn := find.New(q)
	for at := 0; at+len(q) <= len(text); {
		i := fn.Index(text[at:])
		if i < 0 {
			return false
		}
		i += at
		end := i + len(q)
		if (i == 0 || separator(text[i-1])) && (end == len(text) || separator(text[end])) &&
			(changed == nil || !anyBit(changed, max(i-1, 0), min(end+1, len(text)))) &&
			plainCase(restoreCase(text[i:end], shiftMask(upper, i, end-i))) {
			return true
		}
		at = i + 1
	}
	return false
}

// wordByte reports whether c is an ASCII letter or digit.
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// separator reports whether c ends a word whatever surrounds it: ASCII
// space and punctuation that no identifier holds ('.', '-', '_' and '\”
// join the parts of names and contractions).
func separator(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', ',', ';', ':', '!', '?', '"', '(', ')', '[', ']', '{', '}', '<', '>', '/', '\\', '|', '=', '+', '*', '&', '^', '%', '$', '#', '@', '~', '`':
		return true
	}
	return false
}

// plainCase reports whether no ASCII word of s has a capital after its
// first letter unless all its letters are capitals: lower, Title and
// UPPER words are one word each, whatever their case.
func plainCase(s string) bool {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && ('a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z') {
			j++
		}
		if j > i+1 {
			lower, upper := 0, 0
			for _, c := range []byte(s[i+1 : j]) {
				if c <= 'Z' {
					upper++
				} else {
					lower++
				}
			}
			if upper > 0 && (lower > 0 || s[i] > 'Z') {
				return false
			}
		}
		i = max(j, i+1)
	}
	return true
}

// anyBit reports whether mask has a bit in [lo, hi).
func anyBit(mask []uint64, lo, hi int) bool {
	for k := lo; k < hi; k++ {
		if mask[k/64]&(1<<(k%64)) != 0 {
			return true
		}
	}
	return false
}

// shiftMask returns the bits of mask for bytes [off, off+n), from bit 0.
func shiftMask(mask []uint64, off, n int) []uint64 {
	out := make([]uint64, (n+63)/64)
	for k := range n {
		if b := off + k; mask[b/64]&(1<<(b%64)) != 0 {
			out[k/64] |= 1 << (k % 64)
		}
	}
	return out
}
