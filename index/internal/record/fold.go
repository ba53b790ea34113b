package record

import (
	"encoding/binary"
	"slices"
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
	// titleText and bodyText are the fields as stored, kept in place of
	// the masks (then nil) by a fold that no later search reads (FoldInto)
	// for a field stored raw that is ASCII, whose folding is the text
	// lowered byte for byte; texts marks which: 1 the title, 2 the body.
	// bare marks a fold that has neither for a field (one not ASCII, or
	// one stored lowered and folded without masks): its folded text
	// alone.
	titleText, bodyText string
	texts               uint8
	bare                bool
	// lowMasks are the stored case masks of the fields stored lowered
	// that were folded without masks (bare): HasRun raises the letters of
	// an occurrence from them, a look at a few bits where maskWords would
	// read the field's every word.
	lowMasks [2][]byte
	// cut marks the fold of a text's head (FoldHeadInto): its body is
	// the body's start, whose end is not the field's.
	cut bool
	// mapless marks an entry of the cache whose maps it left out (see
	// FoldCache.Get); WithMaps restores them.
	mapless bool
}

func (f *Folded) size() int {
	return len(f.Title) + len(f.Body) + len(f.titleText) + len(f.bodyText) + 8*(len(f.TitleMap)+len(f.BodyMap)+len(f.TitleUpper)+len(f.BodyUpper)+len(f.TitleChanged)+len(f.BodyChanged)) + 64
}

// OriginalTitle returns the title as stored, when it can be restored
// from its folded text (Original's title).
func (f *Folded) OriginalTitle() (string, bool) {
	return f.original(false)
}

// Original returns the title and body as stored, when both can be
// restored from their folded text: a snippet then needs no decoding.
func (f *Folded) Original() (title, body string, ok bool) {
	if title, ok = f.original(false); ok {
		body, ok = f.original(true)
	}
	return title, body, ok
}

// original returns the body (else the title) as stored, ok when it can
// be restored from its folded text.
func (f *Folded) original(body bool) (string, bool) {
	folded, upper, changed, text, kept := f.field(body)
	if body && f.cut {
		return "", false
	}
	if kept {
		return text, true
	}
	if changed != nil || f.bare {
		return "", false
	}
	return restoreCase(folded, upper), true
}

// field returns the body (else the title) folded, its case masks, and
// the field as stored, kept true, when the fold kept it in their place.
func (f *Folded) field(body bool) (folded string, upper, changed []uint64, text string, kept bool) {
	if body {
		return f.Body, f.BodyUpper, f.BodyChanged, f.bodyText, f.texts&2 != 0
	}
	return f.Title, f.TitleUpper, f.TitleChanged, f.titleText, f.texts&1 != 0
}

// Plain returns the body (else the title) folded, and its upper-case
// letters (a bit per byte), ok only when folding did nothing but lower
// ASCII letters: the folded text then has the original's offsets, and at
// each token's start the spelling that the analyzer folds the token's
// word to. RestoredSpans gives parts of the original back. For a field
// the fold kept as stored, upper is nil: Stored gives it.
func (f *Folded) Plain(body bool) (folded string, upper []uint64, ok bool) {
	folded, upper, changed, _, kept := f.field(body)
	return folded, upper, !(body && f.cut) && (kept || changed == nil && !f.bare)
}

// Stored returns the body (else the title) as stored, ok when the fold
// kept it (FoldInto, a cache that keeps nothing): then folding did
// nothing but lower its ASCII letters.
func (f *Folded) Stored(body bool) (text string, ok bool) {
	_, _, _, text, ok = f.field(body)
	return text, ok && !(body && f.cut)
}

// RestoredSpans returns the spans of the body (else the title) as
// written, one after another, and where each is in the text returned,
// for a field that Plain reports ok and the fold did not keep. Cost: a copy of the
// spans.
func (f *Folded) RestoredSpans(body bool, spans [][2]int) (text string, at [][2]int) {
	folded, upper, _, _, _ := f.field(body)
	n := 0
	for _, sp := range spans {
		n += sp[1] - sp[0]
	}
	b := make([]byte, 0, n)
	at = make([][2]int, len(spans))
	for k, sp := range spans {
		base := len(b)
		b = append(b, folded[sp[0]:sp[1]]...)
		tokenize.RaiseCase(b[base:], upper, sp[0])
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
	tokenize.RaiseCase(b, mask, 0)
	// b is not written again: the string shares it instead of copying
	// it, as strings.Builder does.
	return view(b)
}

// WithMaps returns f, or for an entry the cache kept without its maps, the
// same text folded again from title and body (the record's) with them.
func (f *Folded) WithMaps(title, body string) *Folded {
	if !f.mapless {
		return f
	}
	g, _ := fold(f.seq, NewText([]byte(title), []byte(body))) // raw text: no mask to be damaged
	return g
}

// fold folds a record's text, with the maps back to their offsets and
// the case masks: a field stored lowered is copied, with its mask.
func fold(seq uint64, t Text) (*Folded, error) {
	f := &Folded{seq: seq}
	for k := range 2 {
		field, mask, lowered := t.field(k)
		var folded string
		var offsets []int
		var upper, changed []uint64
		if lowered {
			var err error
			if upper, err = maskWords(nil, field, mask); err != nil {
				return nil, err
			}
			folded = string(field)
		} else {
			folded, offsets, upper, changed = tokenize.FoldCase(field)
		}
		if k == 0 {
			f.Title, f.TitleMap, f.TitleUpper, f.TitleChanged = folded, offsets, upper, changed
		} else {
			f.Body, f.BodyMap, f.BodyUpper, f.BodyChanged = folded, offsets, upper, changed
		}
	}
	return f, nil
}

// foldKeeping folds a record's text as fold does, but for a raw field
// that is ASCII keeps the field itself in place of the masks, and for a
// lowered field views its stored bytes (views of t's, which must outlive
// the fold): a fold that no later search reads, for which the masks cost
// more to make than the fold does, and copies cost more than views.
// Cost: tokenize.AppendFold of the raw ASCII fields, in one allocation;
// tokenize.FoldCase of another; a lowered field's mask.
func foldKeeping(seq uint64, t Text) (*Folded, error) {
	f, _, err := FoldInto(&Folded{}, nil, t, true)
	if err != nil {
		return nil, err
	}
	f.seq = seq
	return f, nil
}

// isASCII reports whether b holds nothing but ASCII bytes. Cost: a pass
// over b, eight bytes at a time.
func isASCII(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FoldInto folds a record's text into buf and returns f and the
// buffer, for a reader that keeps none of it (a search verifying
// candidates, or judging phrases, in a process with no fold cache): f's
// Title and Body are views of buf, or of t's bytes for a field stored
// lowered, valid until buf is written again; its masks are valid until
// the next FoldInto into f, which writes them again. A raw ASCII field
// keeps the field itself, a view of t's bytes (Stored); a lowered field
// has its case mask when masks is true, else a view of the mask as
// stored, which only HasRun reads; another has its masks and maps when
// masks is true (tokenize.FoldCase), else its folded text alone. A
// damaged mask is ErrCorrupt (with masks; without, HasRun finds no run
// where it marks a byte that is not a letter). Cost: tokenize.AppendFold of each raw
// field, nothing allocated once buf is large enough; FoldCase of a raw
// field that is not ASCII, and a mask's words, when masks is true.
func FoldInto(f *Folded, buf []byte, t Text, masks bool) (*Folded, []byte, error) {
	room := [2][]uint64{f.TitleUpper, f.BodyUpper} // the last fold's masks
	*f = Folded{}
	n := 0
	for k := range 2 {
		field, _, lowered := t.field(k)
		if lowered {
			continue
		}
		// With masks, whether a field is ASCII says how it is folded;
		// without, AppendFold says so as it folds.
		if masks && isASCII(field) {
			f.texts |= 1 << k
		}
		if !masks || f.texts&(1<<k) != 0 {
			n += len(field)
		}
	}
	buf = slices.Grow(buf[:0], n)
	for k := range 2 {
		field, mask, lowered := t.field(k)
		var folded, text string
		var upper []uint64
		switch {
		case lowered:
			folded = unsafe.String(unsafe.SliceData(field), len(field))
			if !masks {
				f.bare, f.lowMasks[k] = true, mask
				break
			}
			var err error
			if upper, err = maskWords(room[k], field, mask); err != nil {
				return nil, buf, err
			}
		case masks && f.texts&(1<<k) == 0:
			if k == 0 {
				f.Title, f.TitleMap, f.TitleUpper, f.TitleChanged = tokenize.FoldCase(field)
			} else {
				f.Body, f.BodyMap, f.BodyUpper, f.BodyChanged = tokenize.FoldCase(field)
			}
			continue
		default:
			at := len(buf)
			var ascii bool
			buf, ascii = tokenize.AppendFold(buf, field)
			folded = unsafe.String(unsafe.SliceData(buf[at:]), len(buf)-at)
			if ascii {
				f.texts |= 1 << k
				text = unsafe.String(unsafe.SliceData(field), len(field))
			} else {
				f.bare = true
			}
		}
		if k == 0 {
			f.Title, f.titleText, f.TitleUpper = folded, text, upper
		} else {
			f.Body, f.bodyText, f.BodyUpper = folded, text, upper
		}
	}
	return f, buf, nil
}

// FoldHeadInto is FoldInto for a text's head (DecodeTextHead): a fold
// that answers HasRun only, the end of its body not being the body's when
// the head is not whole.
func FoldHeadInto(f *Folded, buf []byte, h TextHead, masks bool) (*Folded, []byte, error) {
	f, buf, err := FoldInto(f, buf, h.Text, masks)
	if err == nil {
		f.cut = !h.Whole
	}
	return f, buf, err
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
	mu    sync.RWMutex // a search's workers peek at once
	m     map[string]*Folded
	bytes int
	max   int
	texts bool // folds keep ASCII fields' text (foldKeeping): it keeps nothing
}

// NewFoldCache returns a cache that holds up to max bytes; with max 0 or
// less it keeps nothing, and its folds keep an ASCII field's text in place
// of case masks (they may view the title and body load returns, which
// must outlive them).
func NewFoldCache(max int) *FoldCache {
	return &FoldCache{m: map[string]*Folded{}, max: max, texts: max <= 0}
}

// Keeps reports whether the cache keeps anything.
func (c *FoldCache) Keeps() bool { return c.max > 0 }

// Room reports whether the fold of a text of n bytes (title and body)
// fits beside the entries the cache holds, none evicted.
func (c *FoldCache) Room(n int) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.bytes+n+n/8+64 <= c.max
}

// Peek returns the cached folded text of the record (id, seq), or nil.
func (c *FoldCache) Peek(id string, seq uint64) *Folded {
	c.mu.RLock()
	f := c.m[id]
	c.mu.RUnlock()
	if f != nil && f.seq == seq {
		return f
	}
	return nil
}

// Get returns the folded text of the record (id, seq), calling load for
// its text only when it is not cached. Cost: a fold of the text on a
// miss (a copy where it is stored lowered), and evictions to make room
// for it.
func (c *FoldCache) Get(id string, seq uint64, load func() (Text, error)) (*Folded, error) {
	if f := c.Peek(id, seq); f != nil {
		return f, nil
	}
	t, err := load()
	if err != nil {
		return nil, err
	}
	f, keep, err := c.fold(seq, t)
	if err != nil {
		return nil, err
	}
	if c.max > 0 {
		c.put(id, keep, true)
	}
	return f, nil
}

// Keep folds the text of the record (id, seq) into the cache, when the
// cache keeps anything and has room for it without evicting an entry,
// and reports whether it did (true too when it was cached already).
// Cost: a fold of the text when it was not cached.
func (c *FoldCache) Keep(id string, seq uint64, t Text) (bool, error) {
	if c.max <= 0 {
		return false, nil
	}
	if c.Peek(id, seq) != nil {
		return true, nil
	}
	_, keep, err := c.fold(seq, t)
	if err != nil {
		return false, err
	}
	return c.put(id, keep, false), nil
}

// fold returns the fold of a record's text, and what the cache keeps of
// it: the fold without its maps.
func (c *FoldCache) fold(seq uint64, t Text) (f, keep *Folded, err error) {
	if c.texts {
		f, err = foldKeeping(seq, t)
	} else {
		f, err = fold(seq, t)
	}
	if err != nil {
		return nil, nil, err
	}
	keep = f
	if f.TitleMap != nil || f.BodyMap != nil {
		kept := *f
		kept.TitleMap, kept.BodyMap, kept.mapless = nil, nil, true
		keep = &kept
	}
	return f, keep, nil
}

// put caches keep as id's entry unless a newer record's is cached,
// evicting arbitrary entries to make room when evict is set, and reports
// whether it did.
func (c *FoldCache) put(id string, keep *Folded, evict bool) bool {
	if keep.size() > c.max {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m[id]
	if old != nil && old.seq > keep.seq {
		return false // a newer record is cached; keep it
	}
	room := c.max - c.bytes
	if old != nil {
		room += old.size()
	}
	for k, v := range c.m {
		if !evict || room >= keep.size() {
			break
		}
		if k != id {
			room += v.size()
			c.bytes -= v.size()
			delete(c.m, k)
		}
	}
	if keep.size() > room {
		return false
	}
	if old != nil {
		c.bytes -= old.size()
	}
	c.m[id] = keep
	c.bytes += keep.size()
	return true
}

// HasRun reports whether the body (else the title) holds text, whose
// folded form folded finds, as written, up to case, between separators, in
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
func (fd *Folded) HasRun(body bool, written string, folded find.Finder) bool {
	text, upper, changed, orig, kept := fd.field(body)
	low := fd.lowMasks[0]
	if body {
		low = fd.lowMasks[1]
	}
	q := folded.Needle()
	if len(q) == 0 || len(written) != len(q) || !wordByte(q[0]) || !wordByte(q[len(q)-1]) || !plainCase(written) {
		return false
	}
	for at := 0; at+len(q) <= len(text); {
		i := folded.Index(text[at:])
		if i < 0 {
			return false
		}
		i += at
		end := i + len(q)
		// The end of a head is not a separator: the body goes on.
		if (i == 0 || separator(text[i-1])) && (end == len(text) && !(body && fd.cut) || end < len(text) && separator(text[end])) &&
			fd.plainAt(kept, orig, text, upper, changed, low, i, end) {
			return true
		}
		at = i + 1
	}
	return false
}

// plainAt reports whether the field's bytes [i, end) are as folded, up to
// case, and are words of plain case (plainCase): from the field as
// stored when the fold kept it (kept, orig), else from its masks, or from
// its stored mask (low) when it was stored lowered and folded without
// masks. A stored mask that marks a byte other than a lower-case letter
// is damaged: no run is found by it.
func (fd *Folded) plainAt(kept bool, orig, text string, upper, changed []uint64, low []byte, i, end int) bool {
	if kept {
		return plainCase(orig[i:end])
	}
	if low == nil && fd.bare || changed != nil && anyBit(changed, max(i-1, 0), min(end+1, len(text))) {
		return false
	}
	// The occurrence restored in a buffer on the stack: a phrase is short.
	var buf [64]byte
	b := append(buf[:0], text[i:end]...)
	if low == nil {
		tokenize.RaiseCase(b, upper, i)
	} else {
		for j := range b {
			if at := i + j; at/8 < len(low) && low[at/8]&(1<<(at%8)) != 0 {
				if b[j] < 'a' || b[j] > 'z' {
					return false
				}
				b[j] -= 'a' - 'A'
			}
		}
	}
	return plainCase(unsafe.String(unsafe.SliceData(b), len(b)))
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
