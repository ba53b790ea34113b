package index

import (
	mathbits "math/bits"
	"sync"
	"unsafe"

	"github.com/twindex/twindex/tokenize"
)

// folded is a document's title and body folded for substring matching,
// with the maps back to original byte offsets (nil when folding kept every
// offset, as for ASCII).
type folded struct {
	seq               uint64 // the write that stored the record folded here
	title, body       string
	titleMap, bodyMap []int
	// titleUpper and bodyUpper restore the original text of a field whose
	// folding only lowercased ASCII letters (most text, and code): a bit
	// per byte marks the upper-case letters. nil for other fields.
	titleUpper, bodyUpper []uint64
	// mapless marks an entry of the cache whose maps it left out (see
	// foldCache.get); withMaps restores them.
	mapless bool
}

func (f *folded) size() int {
	return len(f.title) + len(f.body) + 8*(len(f.titleMap)+len(f.bodyMap)+len(f.titleUpper)+len(f.bodyUpper)) + 64
}

// original returns the title and body as stored, when both can be
// restored from their folded text: a snippet then needs no decoding.
func (f *folded) original() (title, body string, ok bool) {
	if f.titleUpper == nil || f.bodyUpper == nil {
		return "", "", false
	}
	return restoreCase(f.title, f.titleUpper), restoreCase(f.body, f.bodyUpper), true
}

// restoreCase raises the letters of folded that mask marks.
func restoreCase(folded string, mask []uint64) string {
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

// withMaps returns f, or for an entry the cache kept without its maps, the
// same text folded again from title and body (the record's) with them.
func (f *folded) withMaps(title, body string) *folded {
	if !f.mapless {
		return f
	}
	return foldText(f.seq, []byte(title), []byte(body))
}

// foldText folds a record's title and body, with the maps back to their
// offsets and the case masks.
func foldText(seq uint64, title, body []byte) *folded {
	f := &folded{seq: seq}
	f.title, f.titleMap, f.titleUpper = tokenize.FoldCase(title)
	f.body, f.bodyMap, f.bodyUpper = tokenize.FoldCase(body)
	return f
}

// foldCache keeps folded text between searches so that verifying
// substring candidates and finding snippet matches costs a scan of folded
// text, not a fold per search. An entry is valid for one record: it is
// keyed by ID and tagged with the record's write sequence number, so a
// search running on an older snapshot can neither read a newer entry as
// its own nor leave a stale one that a later search would trust. Bounded
// by bytes; when full, arbitrary entries are evicted. An entry keeps its
// folded text and case masks but not its maps (8 bytes a folded byte, for
// text that folding changed the length of): only snippets read them, for
// the few hits of a page (folded.withMaps), and without them the yardstick's
// full corpus fits the default budget (54 MiB; 126 MiB with them). Safe
// for concurrent use.
type foldCache struct {
	mu    sync.Mutex
	m     map[string]*folded
	bytes int
	max   int
}

func newFoldCache(max int) *foldCache {
	return &foldCache{m: map[string]*folded{}, max: max}
}

// peek returns the cached folded text of the record (id, seq), or nil.
func (c *foldCache) peek(id string, seq uint64) *folded {
	c.mu.Lock()
	f := c.m[id]
	c.mu.Unlock()
	if f != nil && f.seq == seq {
		return f
	}
	return nil
}

// get returns the folded text of the record (id, seq), calling load for
// its title and body only when it is not cached.
func (c *foldCache) get(id string, seq uint64, load func() (title, body []byte, err error)) (*folded, error) {
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
	f = foldText(seq, title, body)
	if c.max <= 0 {
		return f, nil
	}
	keep := f
	if f.titleMap != nil || f.bodyMap != nil {
		kept := *f
		kept.titleMap, kept.bodyMap, kept.mapless = nil, nil, true
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
