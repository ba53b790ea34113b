package compact

import (
	"bytes"
	"cmp"
	"maps"
	"runtime"
	"slices"
	"sync"

	bleveindex "github.com/blevesearch/bleve_index_api"
)

// TermVisitor is an indexed field that hands its terms over one by one:
// the index reads a field that implements it through VisitTerms, not
// Analyze and AnalyzedTokenFrequencies, which build a map per document.
type TermVisitor interface {
	// VisitTerms calls fn with each distinct term of the field and its
	// frequency, and returns the field's analyzed length. term is valid
	// only during the call.
	VisitTerms(fn func(term []byte, freq int)) (length int)
}

// chunkDocs is how many documents one goroutine analyzes into a segment
// of its own when a batch is split between the queue's workers; the
// pieces are then merged, which costs a copy of their postings.
const chunkDocs = 256

// build analyzes docs and returns a segment of them: on the writer's
// goroutine, or, for a batch of more than two chunks, an analysis queue
// and more than one processor, in chunks on the queue's workers. A
// document's analysis is consumed before the next one's is made, so
// memory holds one document's terms at a time per goroutine.
func (x *Index) build(docs []bleveindex.Document, pause func()) *segment {
	if x.queue == nil || len(docs) <= 2*chunkDocs || runtime.GOMAXPROCS(0) < 2 {
		return newSegment(docs, pause)
	}
	parts := make([]*segment, (len(docs)+chunkDocs-1)/chunkDocs)
	var wg sync.WaitGroup
	wg.Add(len(parts))
	for i := range parts {
		x.queue.Queue(func() {
			defer wg.Done()
			parts[i] = newSegment(docs[i*chunkDocs:min((i+1)*chunkDocs, len(docs))], nil)
		})
	}
	wg.Wait()
	return merge(parts, make([]bitset, len(parts)))
}

// newSegment builds a segment of documents, numbered in order, analyzing
// their indexed fields; pause, when not nil, runs every 64 documents and
// between two fields' layouts.
func newSegment(docs []bleveindex.Document, pause func()) *segment {
	s := &segment{}
	fb := map[string]*fieldBuilder{}
	sb := map[string]*stored{}
	for i, d := range docs {
		// In js/wasm the collector's background worker runs only when
		// the one goroutine that runs yields: without this, a build of
		// 1,000 documents ran to its end with the collection it began
		// unfinished, and the page's memory, which never shrinks, grew
		// by most of what the build allocated.
		if i%64 == 63 {
			yield()
			if pause != nil {
				pause()
			}
		}
		s.ids.add([]byte(d.ID()))
		d.VisitFields(func(f bleveindex.Field) {
			name := f.Name()
			if f.Options().IsIndexed() {
				b := fb[name]
				if b == nil {
					b = newFieldBuilder(name)
					fb[name] = b
				}
				b.startDoc(i)
				if tv, ok := f.(TermVisitor); ok {
					b.lens[i] += uint32(tv.VisitTerms(b.add))
				} else {
					f.Analyze()
					b.lens[i] += uint32(f.AnalyzedLength())
					for term, tf := range f.AnalyzedTokenFrequencies() {
						b.add([]byte(term), tf.Frequency())
					}
				}
			}
			if f.Options().IsStored() {
				st := sb[name]
				if st == nil {
					st = &stored{name: name}
					sb[name] = st
				}
				for st.vals.len() < i {
					st.vals.add(nil)
					st.has = append(st.has, false)
				}
				if st.vals.len() == i {
					st.vals.add(f.Value())
					st.has = append(st.has, true)
				}
			}
		})
	}
	n := len(docs)
	for i, name := range slices.Sorted(maps.Keys(fb)) {
		if i > 0 && pause != nil {
			pause()
		}
		s.fields = append(s.fields, fb[name].build(n, pause))
	}
	for _, name := range slices.Sorted(maps.Keys(sb)) {
		st := sb[name]
		for st.vals.len() < n {
			st.vals.add(nil)
			st.has = append(st.has, false)
		}
		s.stored = append(s.stored, *st)
	}
	s.indexIDs()
	return s
}

// fieldBuilder collects one field's postings document by document: the
// postings of document d are [starts[d], starts[d+1]) of tids and freqs,
// 8 bytes each until build lays them out by term.
type fieldBuilder struct {
	name   string
	short  termTable         // terms of up to 7 bytes
	long   map[string]uint32 // longer terms
	terms  blob              // by term ID
	tids   column            // postings' term IDs
	freqs  column
	starts []uint32
	lens   []uint32
	last   int  // the document of the last startDoc
	twice  bool // a document had the field twice
}

func newFieldBuilder(name string) *fieldBuilder {
	return &fieldBuilder{name: name, long: map[string]uint32{}, last: -1}
}

// startDoc is called before each field of document doc, in order.
func (b *fieldBuilder) startDoc(doc int) {
	b.twice = b.twice || doc == b.last
	b.last = doc
	for len(b.starts) <= doc {
		b.starts = append(b.starts, uint32(b.tids.n))
		b.lens = append(b.lens, 0)
	}
}

// add adds a posting of the current document; term is copied.
func (b *fieldBuilder) add(term []byte, freq int) {
	id, ok := b.termID(term)
	if !ok {
		id = uint32(b.terms.len())
		if k, short := pack(term); short {
			b.short.put(k, id)
		} else {
			b.long[string(term)] = id
		}
		b.terms.add(term)
	}
	b.tids.push(id)
	b.freqs.push(uint32(freq))
}

func (b *fieldBuilder) termID(term []byte) (uint32, bool) {
	if k, short := pack(term); short {
		return b.short.get(k)
	}
	id, ok := b.long[string(term)]
	return id, ok
}

// build lays the postings out by term in dictionary order: a counting
// sort by term, taking documents in order, keeps each term's postings in
// document order. pause, when not nil, runs between its steps and every
// 64 documents it lays out (a batch's trigram field is most of its
// build). Cost: O(postings + terms·log terms).
func (b *fieldBuilder) build(n int, pause func()) field {
	if pause == nil {
		pause = func() {}
	}
	for len(b.starts) <= n {
		b.starts = append(b.starts, uint32(b.tids.n))
	}
	if b.twice {
		b.sumDuplicates()
	}
	terms := b.terms.len()
	order := dictionaryOrder(&b.terms) // dictionary rank -> term ID
	pause()
	rank := make([]uint32, terms)
	f := field{name: b.name, start: make([]uint32, terms+1)}
	f.terms = blob{data: make([]byte, 0, len(b.terms.data)), ends: make([]uint32, 0, terms)}
	for r, id := range order {
		rank[id] = uint32(r)
		f.terms.add(b.terms.at(int(id)))
	}
	for _, blk := range b.tids.blocks {
		for _, id := range blk {
			f.start[rank[id]+1]++
		}
	}
	for i := 1; i < len(f.start); i++ {
		f.start[i] += f.start[i-1]
	}
	pause()
	next := slices.Clone(f.start[:terms])
	f.docs = make([]uint32, b.tids.n)
	f.freqs = freqList{small: make([]uint8, b.tids.n)}
	for d := range n {
		if d%64 == 63 {
			pause()
		}
		for p := b.starts[d]; p < b.starts[d+1]; p++ {
			r := rank[b.tids.at(p)]
			f.docs[next[r]] = uint32(d)
			f.freqs.set(next[r], b.freqs.at(p))
			next[r]++
		}
	}
	f.lens = b.lens
	if len(f.lens) < n {
		f.lens = append(f.lens, make([]uint32, n-len(f.lens))...)
	}
	return f
}

// dictionaryOrder returns the IDs of terms (their indexes) in the order of
// bytes.Compare. Each term is sorted by a key of its first seven bytes,
// padded with zeros, and its length (8 for any longer): two keys that
// differ order their terms as bytes.Compare does, whatever their lengths,
// and equal keys are the same term or longer terms with one prefix, which
// are then compared whole. A trigram index's terms are all short, and
// sorting words beats comparing them through the blob (13% of loading the
// demo's snapshot did that).
func dictionaryOrder(terms *blob) []uint32 {
	type keyed struct {
		key uint64
		id  uint32
	}
	ks := make([]keyed, terms.len())
	for i := range ks {
		t := terms.at(i)
		var k uint64
		for j := range min(len(t), 7) {
			k |= uint64(t[j]) << (56 - 8*j)
		}
		ks[i] = keyed{k | uint64(min(len(t), 8)), uint32(i)}
	}
	slices.SortFunc(ks, func(x, y keyed) int {
		if x.key != y.key {
			return cmp.Compare(x.key, y.key)
		}
		return bytes.Compare(terms.at(int(x.id)), terms.at(int(y.id)))
	})
	order := make([]uint32, len(ks))
	for i, k := range ks {
		order[i] = k.id
	}
	return order
}

// sumDuplicates merges the postings of one term in one document, which
// there are only when a document has the field twice.
func (b *fieldBuilder) sumDuplicates() {
	at := map[uint32]uint32{} // term ID -> its posting in the document
	out := uint32(0)
	for d := 0; d+1 < len(b.starts); d++ {
		clear(at)
		start := out
		for p := b.starts[d]; p < b.starts[d+1]; p++ {
			tid := b.tids.at(p)
			if q, ok := at[tid]; ok {
				b.freqs.set(q, b.freqs.at(q)+b.freqs.at(p))
				continue
			}
			at[tid] = out
			b.tids.set(out, tid)
			b.freqs.set(out, b.freqs.at(p))
			out++
		}
		b.starts[d] = start
	}
	b.starts[len(b.starts)-1] = out
	b.tids.truncate(int(out))
	b.freqs.truncate(int(out))
}

// column is a list of numbers in blocks of columnBlock: past the first
// block, which grows as a slice does, growing it copies nothing. An
// appended slice copies all it holds each time it doubles, and in js/wasm
// those copies, a batch's postings several times over, took the page's
// memory, which is never given back, to their peak. Blocks of 16Ki
// numbers, not 64Ki: the first block's doublings were 10 of the 61 MB
// that loading the browser demo's snapshot allocated, and a smaller last
// block leaves less unused.
type column struct {
	blocks [][]uint32
	n      int
}

const (
	columnShift = 14
	columnBlock = 1 << columnShift
)

func (c *column) push(v uint32) {
	i := c.n >> columnShift
	if i == len(c.blocks) {
		var blk []uint32
		if i > 0 {
			blk = make([]uint32, 0, columnBlock)
		}
		c.blocks = append(c.blocks, blk)
	}
	c.blocks[i] = append(c.blocks[i], v)
	c.n++
}

func (c *column) at(p uint32) uint32 { return c.blocks[p>>columnShift][p&(columnBlock-1)] }

func (c *column) set(p, v uint32) { c.blocks[p>>columnShift][p&(columnBlock-1)] = v }

// truncate keeps the first n numbers.
func (c *column) truncate(n int) {
	c.n = n
	nb := (n + columnBlock - 1) >> columnShift
	c.blocks = c.blocks[:nb]
	if nb > 0 {
		c.blocks[nb-1] = c.blocks[nb-1][:n-(nb-1)<<columnShift]
	}
}

// pack packs a term of up to 7 bytes and its length into a key that is
// never 0.
func pack(term []byte) (uint64, bool) {
	if len(term) > 7 {
		return 0, false
	}
	k := uint64(len(term)+1) << 56
	for i, c := range term {
		k |= uint64(c) << (8 * i)
	}
	return k, true
}

// termTable maps packed short terms to term IDs, by open addressing: it
// hashes a word rather than a string, which matters in js/wasm, whose
// string hash has no AES instructions to run on (a trigram index's
// builder looks a term up per posting).
type termTable struct {
	keys  []uint64 // 0: empty; a power of two long
	ids   []uint32
	n     int
	shift uint // 64 - log2(len(keys))
}

func (t *termTable) slot(k uint64) int {
	return int((k * 0x9e3779b97f4a7c15) >> t.shift)
}

func (t *termTable) get(k uint64) (uint32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.ids[i], true
		case 0:
			return 0, false
		}
	}
}

// put adds a key that is not in the table, keeping it at most half full.
func (t *termTable) put(k uint64, id uint32) {
	if 2*(t.n+1) > len(t.keys) {
		old, oldIDs := t.keys, t.ids
		t.keys = make([]uint64, max(64, 2*len(old)))
		t.ids = make([]uint32, len(t.keys))
		t.n, t.shift = 0, 64
		for 1<<(64-t.shift) < len(t.keys) {
			t.shift--
		}
		for i, ok := range old {
			if ok != 0 {
				t.put(ok, oldIDs[i])
			}
		}
	}
	mask := len(t.keys) - 1
	i := t.slot(k)
	for t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.ids[i] = k, id
	t.n++
}
