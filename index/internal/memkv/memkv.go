// Package memkv is an in-memory key/value store for bleve's upsidedown
// index: a copy-on-write B+tree implementing upsidedown_store_api's
// KVStore. It replaces bleve's gtreap store, whose persistent treap
// allocated a path of nodes per row written and whose iterators ran a
// goroutine per iterator and a channel send per row.
//
// Invariants: a Reader holds the root it started with, and no node
// reachable from a root that one holds is ever changed, so it sees one
// point in time for as long as it is kept and never waits for writers. A batch is applied whole or, when its merge operator
// fails, not at all.
//
// The package registers nothing: its user registers New with bleve's
// registry under a name of its choosing, once.
package memkv

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	store "github.com/blevesearch/upsidedown_store_api"
)

// New returns an empty store for upsidedown, with the signature that
// bleve's KV store registry takes; config is not read.
func New(mo store.MergeOperator, _ map[string]interface{}) (store.KVStore, error) {
	return &Store{mo: mo}, nil
}

// Store is the key/value store: a copy-on-write B+tree.
//
// A batch sorts its rows and visits each node on their paths once: it
// writes each leaf it changes anew, and copies each branch it changes
// (path copying) when a reader may hold the current root, changing it in
// place otherwise. It publishes its new root at once, so a batch is
// atomic and readers never wait for writers. Batches are serialized by
// mu. Every method is safe for concurrent use.
//
// A leaf keeps its keys and values in one byte slice and their offsets in
// another, neither holding pointers, so the garbage collector has a few
// objects per leaf to look at rather than two per row: in the browser a
// collection pauses the page, and one over the treap's millions of nodes
// took most of a second.
type Store struct {
	mo store.MergeOperator

	mu   sync.Mutex
	root *node  // nil when empty
	n    int    // number of entries
	gen  uint64 // nodes with this gen were made by the current generation
	// shared is set when a reader took root: the next batch must start a
	// new generation rather than change the current one's nodes.
	shared bool
}

// Node sizes. A node below a quarter of its maximum is merged with a
// neighbour when they fit in one.
const (
	leafMax   = 64
	branchMax = 64
)

// node is a leaf (kids == nil) or a branch. A leaf's entry i is
// ents[i], its key and value in data; keys are strictly increasing and
// a leaf is never changed once built. In a branch, len(keys) ==
// len(kids)-1 and keys[i] separates kids[i] and kids[i+1]: every key under
// kids[i] is less than keys[i], every key under kids[i+1] at least keys[i].
type node struct {
	gen  uint64 // branches only: the generation that may change it
	data []byte
	ents []entry
	keys [][]byte
	kids []*node
}

// entry locates a key and its value in its leaf's data: the key at off,
// the value right after it.
type entry struct{ off, klen, vlen uint32 }

func (n *node) leaf() bool { return n.kids == nil }

func (n *node) key(i int) []byte {
	e := n.ents[i]
	return n.data[e.off : e.off+e.klen : e.off+e.klen]
}

func (n *node) val(i int) []byte {
	e := n.ents[i]
	s := e.off + e.klen
	return n.data[s : s+e.vlen : s+e.vlen]
}

// search returns the index of the first entry of leaf n whose key is at
// least key, and whether it equals key.
func (n *node) search(key []byte) (int, bool) {
	return slices.BinarySearchFunc(n.ents, key, func(e entry, k []byte) int {
		return bytes.Compare(n.data[e.off:e.off+e.klen], k)
	})
}

// leafBuilder builds leaves from entries: add them in increasing key order,
// then take the leaf.
type leafBuilder struct {
	data []byte
	ents []entry
}

func (b *leafBuilder) add(k, v []byte) {
	b.ents = append(b.ents, entry{uint32(len(b.data)), uint32(len(k)), uint32(len(v))})
	b.data = append(append(b.data, k...), v...)
}

// take returns a leaf of the entries added so far, in slices of its own,
// and starts over.
func (b *leafBuilder) take() *node {
	n := &node{data: slices.Clone(b.data), ents: slices.Clone(b.ents)}
	if n.data == nil {
		n.data = []byte{} // so that an empty value reads as present: nil is absent
	}
	b.data, b.ents = b.data[:0], b.ents[:0]
	return n
}

// Close implements store.KVStore.
func (s *Store) Close() error { return nil }

// Reader implements store.KVStore: a snapshot of the store as it is now.
func (s *Store) Reader() (store.KVReader, error) {
	yield()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shared = true
	return &reader{root: s.root}, nil
}

// Writer implements store.KVStore.
func (s *Store) Writer() (store.KVWriter, error) { return writer{s}, nil }

type writer struct{ s *Store }

func (w writer) NewBatch() store.KVBatch {
	return &batch{merge: store.NewEmulatedMerge(w.s.mo)}
}

func (w writer) NewBatchEx(o store.KVBatchOptions) ([]byte, store.KVBatch, error) {
	b := &batch{merge: store.NewEmulatedMerge(w.s.mo), ops: make([]batchOp, 0, o.NumSets+o.NumDeletes)}
	// The caller's rows are copied into the batch's buffer; size it to
	// hold them all.
	b.buf = make([]byte, 0, o.TotalBytes)
	return make([]byte, o.TotalBytes), b, nil
}

func (w writer) Close() error { return nil }

// errMerge is returned by ExecuteBatch when the merge operator fails.
var errMerge = errors.New("memkv: merge operator failed")

// ExecuteBatch implements store.KVWriter: all of the batch or, on error,
// none of it.
func (w writer) ExecuteBatch(kb store.KVBatch) error {
	b, ok := kb.(*batch)
	if !ok {
		return fmt.Errorf("memkv: batch of type %T, want one from this store", kb)
	}
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	// Merge first, without writing, so that a failure leaves the tree
	// as it was; then the writes, which cannot fail.
	merged := make([]batchOp, 0, len(b.merge.Merges))
	for k, operands := range b.merge.Merges {
		key := b.copy([]byte(k))
		v, ok := s.mo.FullMerge(key, get(s.root, key), operands)
		if !ok {
			return fmt.Errorf("%w on key %q", errMerge, key)
		}
		merged = append(merged, batchOp{key: key, val: b.copy(v)})
	}
	if s.shared {
		s.gen++
		s.shared = false
	}
	t := tx{gen: s.gen}
	root := t.write(s.root, sortOps(append(merged, b.ops...)))
	s.root = root
	s.n += t.delta
	return nil
}

type batchOp struct {
	key, val []byte
	del      bool
}

// batch implements store.KVBatch. It copies what it is given into its
// buffer, so the caller may reuse its slices at once; the tree copies the
// rows again into its leaves.
type batch struct {
	ops   []batchOp
	merge *store.EmulatedMerge
	buf   []byte
}

// copy appends p to the batch's buffer and returns the copy, never nil.
func (b *batch) copy(p []byte) []byte {
	if len(p) == 0 {
		return []byte{}
	}
	if len(b.buf)+len(p) > cap(b.buf) {
		b.buf = make([]byte, 0, max(64<<10, len(p)))
	}
	start := len(b.buf)
	b.buf = append(b.buf, p...)
	return b.buf[start:len(b.buf):len(b.buf)]
}

func (b *batch) Set(key, val []byte) {
	b.ops = append(b.ops, batchOp{key: b.copy(key), val: b.copy(val)})
}

func (b *batch) Delete(key []byte) {
	b.ops = append(b.ops, batchOp{key: b.copy(key), del: true})
}

func (b *batch) Merge(key, val []byte) { b.merge.Merge(key, b.copy(val)) }

func (b *batch) Reset() {
	b.ops = b.ops[:0]
	clear(b.merge.Merges)
	b.buf = b.buf[:0]
}

func (b *batch) Close() error { return nil }

// get returns the value of key under n, or nil. Cost: O(log n).
func get(n *node, key []byte) []byte {
	if n == nil {
		return nil
	}
	for !n.leaf() {
		n = n.kids[childIndex(n, key)]
	}
	if i, ok := n.search(key); ok {
		return n.val(i)
	}
	return nil
}

// childIndex is the child of branch n whose range holds key.
func childIndex(n *node, key []byte) int {
	i, ok := slices.BinarySearchFunc(n.keys, key, bytes.Compare)
	if ok {
		i++
	}
	return i
}

// tx changes a tree within one generation.
type tx struct {
	gen   uint64
	delta int // entries added minus entries removed
	// Scratch space: the entries of a leaf being rewritten, and the leaf
	// being built.
	ks, vs [][]byte
	b      leafBuilder
}

// own returns branch n if this generation made it, else a copy that it
// may change.
func (t *tx) own(n *node) *node {
	if n.gen == t.gen {
		return n
	}
	return &node{gen: t.gen, keys: slices.Clone(n.keys), kids: slices.Clone(n.kids)}
}

// sortOps returns ops sorted by key, keeping the last op of each key,
// the one that decides the key's final state. It sorts small pointer-free
// records holding each key's first 16 bytes, which decide most
// comparisons, rather than the ops themselves.
func sortOps(ops []batchOp) []batchOp {
	type rec struct {
		hi, lo uint64
		i      int32
	}
	recs := make([]rec, len(ops))
	for i, op := range ops {
		var b [16]byte
		copy(b[:], op.key)
		recs[i] = rec{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]), int32(i)}
	}
	slices.SortFunc(recs, func(a, b rec) int {
		if a.hi != b.hi {
			return cmp.Compare(a.hi, b.hi)
		}
		if a.lo != b.lo {
			return cmp.Compare(a.lo, b.lo)
		}
		if c := bytes.Compare(ops[a.i].key, ops[b.i].key); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	out := make([]batchOp, 0, len(ops))
	for i, r := range recs {
		if i+1 < len(recs) && bytes.Equal(ops[r.i].key, ops[recs[i+1].i].key) {
			continue
		}
		out = append(out, ops[r.i])
	}
	return out
}

// write applies ops, sorted by sortOps, to the tree under root and
// returns the new root (nil when the tree is empty). Each node on a path
// to a written key is visited once, so the cost is O(len(ops) + the
// nodes touched × their size) rather than a descent per op.
func (t *tx) write(root *node, ops []batchOp) *node {
	if len(ops) == 0 {
		return root
	}
	if root == nil {
		root = &node{} // an empty leaf
	}
	nodes, seps := t.apply(root, ops)
	for len(nodes) > 1 {
		nodes, seps = t.branches(nodes, seps)
	}
	if len(nodes) == 0 {
		return nil
	}
	root = nodes[0]
	for !root.leaf() && len(root.kids) == 1 {
		root = root.kids[0]
	}
	return root
}

// apply writes ops (sorted, all within n's key range) under n and returns
// the nodes that replace it, in order (none when it emptied, several when
// it overflowed), and the separators between them.
func (t *tx) apply(n *node, ops []batchOp) ([]*node, [][]byte) {
	if n.leaf() {
		return t.applyLeaf(n, ops)
	}
	n = t.own(n)
	// Right to left, so that replacing a child does not move the children
	// still to visit.
	hi := len(ops)
	for c := len(n.kids) - 1; c >= 0 && hi > 0; c-- {
		lo := 0
		if c > 0 {
			lo, _ = slices.BinarySearchFunc(ops[:hi], n.keys[c-1], func(op batchOp, k []byte) int { return bytes.Compare(op.key, k) })
		}
		if lo == hi {
			continue
		}
		nodes, seps := t.apply(n.kids[c], ops[lo:hi])
		hi = lo
		switch {
		case len(nodes) == 0:
			n.kids = slices.Delete(n.kids, c, c+1)
			if len(n.keys) > 0 {
				n.keys = slices.Delete(n.keys, max(c-1, 0), max(c, 1))
			}
		case len(nodes) == 1:
			n.kids[c] = nodes[0]
		default:
			n.kids = slices.Replace(n.kids, c, c+1, nodes...)
			n.keys = slices.Insert(n.keys, c, seps...)
		}
	}
	t.mergeSmall(n)
	if len(n.kids) == 0 {
		return nil, nil
	}
	if len(n.kids) <= branchMax {
		return []*node{n}, nil
	}
	return t.branches(n.kids, n.keys)
}

// applyLeaf merges ops into the entries of leaf n and returns the new
// leaves: one, or about leafFill entries each when there are more than
// leafMax.
func (t *tx) applyLeaf(n *node, ops []batchOp) ([]*node, [][]byte) {
	ks, vs := t.ks[:0], t.vs[:0]
	t.merge(n, ops, func(k, v []byte) { ks, vs = append(ks, k), append(vs, v) })
	defer func() {
		clear(ks) // let the scratch space hold no rows alive
		clear(vs)
		t.ks, t.vs = ks[:0], vs[:0]
	}()
	if len(ks) == 0 {
		return nil, nil
	}
	parts := 1
	if len(ks) > leafMax {
		parts = (len(ks) + leafFill - 1) / leafFill
	}
	nodes := make([]*node, parts)
	seps := make([][]byte, parts-1)
	for p := range parts {
		for i := cut(len(ks), parts, p); i < cut(len(ks), parts, p+1); i++ {
			t.b.add(ks[i], vs[i])
		}
		nodes[p] = t.b.take()
		if p > 0 {
			seps[p-1] = nodes[p].key(0)
		}
	}
	return nodes, seps
}

// merge calls fn with every entry of leaf n after ops, in key order, and
// counts the entries ops add and remove.
func (t *tx) merge(n *node, ops []batchOp, fn func(k, v []byte)) {
	i, j := 0, 0
	for i < len(n.ents) || j < len(ops) {
		c := -1
		if j == len(ops) {
			c = -1
		} else if i == len(n.ents) {
			c = 1
		} else {
			c = bytes.Compare(n.key(i), ops[j].key)
		}
		switch {
		case c < 0:
			fn(n.key(i), n.val(i))
			i++
			continue
		case c == 0:
			i++
			if ops[j].del {
				t.delta--
			}
		case !ops[j].del:
			t.delta++
		}
		if !ops[j].del {
			fn(ops[j].key, ops[j].val)
		}
		j++
	}
}

// cut returns where part p of n items split in parts begins: p·n/parts,
// in 64 bits, as a batch of 2^20 rows in leaves of leafFill makes p·n
// overflow a 32-bit int.
func cut(n, parts, p int) int { return int(int64(p) * int64(n) / int64(parts)) }

// Fill of the nodes a split or a load makes: room is left so that the
// next writes do not split every node again.
const (
	leafFill   = leafMax * 3 / 4
	branchFill = branchMax * 3 / 4
)

// branches groups nodes, with the separators between them, under new
// branches of about branchFill children each; it returns the branches
// and the separators between them.
func (t *tx) branches(nodes []*node, seps [][]byte) ([]*node, [][]byte) {
	parts := (len(nodes) + branchFill - 1) / branchFill
	out := make([]*node, parts)
	up := make([][]byte, parts-1)
	for p := range parts {
		lo, hi := cut(len(nodes), parts, p), cut(len(nodes), parts, p+1)
		out[p] = &node{gen: t.gen, kids: slices.Clone(nodes[lo:hi]), keys: slices.Clone(seps[lo : hi-1])}
		if p > 0 {
			up[p-1] = seps[lo-1]
		}
	}
	return out, up
}

// mergeSmall joins neighbouring children of n when one is under a quarter
// full and both fit in one node, so that deletes do not leave a sparse
// tree.
func (t *tx) mergeSmall(n *node) {
	for c := len(n.kids) - 1; c > 0; c-- {
		a, b := n.kids[c-1], n.kids[c]
		limit := maxSize(a)
		if size(a) >= limit/4 && size(b) >= limit/4 || size(a)+size(b) > limit {
			continue
		}
		if a.leaf() {
			for _, l := range []*node{a, b} {
				for i := range l.ents {
					t.b.add(l.key(i), l.val(i))
				}
			}
			a = t.b.take()
		} else {
			a = t.own(a)
			a.keys = append(append(a.keys, n.keys[c-1]), b.keys...)
			a.kids = append(a.kids, b.kids...)
		}
		n.kids[c-1] = a
		n.kids = slices.Delete(n.kids, c, c+1)
		n.keys = slices.Delete(n.keys, c-1, c)
	}
}

// size is the number of entries of a leaf or children of a branch.
func size(n *node) int {
	if n.leaf() {
		return len(n.ents)
	}
	return len(n.kids)
}

func maxSize(n *node) int {
	if n.leaf() {
		return leafMax
	}
	return branchMax
}
