package record

import (
	mathbits "math/bits"
	"sync"
	"unsafe"

	"github.com/twindex/twindex/tokenize"
)

// Folded is a record's title and body folded for substring matching,
// with the maps back to original byte offsets (nil when folding kept every
// offset, as for ASCII). It is not changed once made.
type Folded struct {
	seq               uint64 // the write that stored the record folded here
	Title, Body       string
	TitleMap, BodyMap []int
	// TitleUpper and BodyUpper restore the original text of a field whose
	// folding only lowercased ASCII letters (most text, and code): a bit
	// per byte marks the upper-case letters. nil for other fields.
	TitleUpper, BodyUpper []uint64
	// mapless marks an entry of the cache whose maps it left out (see
	// FoldCache.Get); WithMaps restores them.
	mapless bool
}

func (f *Folded) size() int {
	return len(f.Title) + len(f.Body) + 8*(len(f.TitleMap)+len(f.BodyMap)+len(f.TitleUpper)+len(f.BodyUpper)) + 64
}

// Original returns the title and body as stored, when both can be
// restored from their folded text: a snippet then needs no decoding.
func (f *Folded) Original() (title, body string, ok bool) {
	if f.TitleUpper == nil || f.BodyUpper == nil {
		return "", "", false
	}
	return RestoreCase(f.Title, f.TitleUpper), RestoreCase(f.Body, f.BodyUpper), true
}

// RestoreCase raises the letters of folded that mask marks. Cost: a copy
// of folded.
func RestoreCase(folded string, mask []uint64) string {
	if len(folded) == 0 {
		return ""
	}
	b := []byte(folded)
	for w, bits := range mask {
		for ; bits != 0; bits &= bits - 1 {
			b[w*64+mathbits.TrailingZeros64(bits)] -= 'a' - 'A'
		}
	}
	// b is not written again: the string shares it instead of copying
	// it, as strings.Builder does.
	return unsafe.String(unsafe.SliceData(b), len(b))
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
	f.Title, f.TitleMap, f.TitleUpper = tokenize.FoldCase(title)
	f.Body, f.BodyMap, f.BodyUpper = tokenize.FoldCase(body)
	return f
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
