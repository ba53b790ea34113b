package memkv

import (
	"bytes"

	store "github.com/blevesearch/upsidedown_store_api"

	"github.com/twindex/twindex/index/internal/keys"
)

// reader is a snapshot of a Store: the root it was made with. It is
// safe for concurrent use; its iterators are not.
type reader struct {
	root *node
}

// Get implements store.KVReader; the caller owns the bytes returned.
func (r *reader) Get(key []byte) ([]byte, error) {
	return bytes.Clone(get(r.root, key)), nil
}

func (r *reader) MultiGet(keys [][]byte) ([][]byte, error) {
	return store.MultiGet(r, keys)
}

// PrefixIterator implements store.KVReader.
func (r *reader) PrefixIterator(prefix []byte) store.KVIterator {
	it := &iterator{root: r.root, start: prefix, end: keys.PrefixEnd(prefix)}
	it.Seek(prefix)
	return it
}

// RangeIterator implements store.KVReader: keys >= start and < end; a
// nil end means no upper bound.
func (r *reader) RangeIterator(start, end []byte) store.KVIterator {
	it := &iterator{root: r.root, start: start, end: end}
	it.Seek(start)
	return it
}

func (r *reader) Close() error { return nil }

// iterator walks a tree in key order within [start, end). It keeps the
// path from the root to its leaf, so Next costs O(1) amortized and Seek
// O(log n).
type iterator struct {
	root       *node
	start, end []byte
	path       []step // branches from the root down, and the child taken
	leaf       *node
	pos        int
	valid      bool
}

type step struct {
	n *node
	i int
}

// Seek implements store.KVIterator: it moves to the first key >= key
// within the iterator's range.
func (it *iterator) Seek(key []byte) {
	if bytes.Compare(key, it.start) < 0 {
		key = it.start
	}
	it.path = it.path[:0]
	it.leaf, it.valid = nil, false
	n := it.root
	if n == nil {
		return
	}
	for !n.leaf() {
		i := childIndex(n, key)
		it.path = append(it.path, step{n, i})
		n = n.kids[i]
	}
	it.leaf = n
	it.pos, _ = n.search(key)
	it.settle()
}

// Next implements store.KVIterator.
func (it *iterator) Next() {
	if !it.valid {
		return
	}
	it.pos++
	it.settle()
}

// settle moves past the end of a leaf to the next leaf holding a key and
// decides validity.
func (it *iterator) settle() {
	for it.pos >= len(it.leaf.ents) {
		// Up to the nearest branch with a child to the right, then down
		// its leftmost path.
		for len(it.path) > 0 && it.path[len(it.path)-1].i+1 >= len(it.path[len(it.path)-1].n.kids) {
			it.path = it.path[:len(it.path)-1]
		}
		if len(it.path) == 0 {
			it.valid = false
			return
		}
		top := &it.path[len(it.path)-1]
		top.i++
		n := top.n.kids[top.i]
		for !n.leaf() {
			it.path = append(it.path, step{n, 0})
			n = n.kids[0]
		}
		it.leaf, it.pos = n, 0
	}
	it.valid = it.end == nil || bytes.Compare(it.leaf.key(it.pos), it.end) < 0
}

// Key implements store.KVIterator. The bytes must not be changed.
func (it *iterator) Key() []byte {
	if !it.valid {
		return nil
	}
	return it.leaf.key(it.pos)
}

// Value implements store.KVIterator. The bytes must not be changed.
func (it *iterator) Value() []byte {
	if !it.valid {
		return nil
	}
	return it.leaf.val(it.pos)
}

func (it *iterator) Valid() bool { return it.valid }

func (it *iterator) Current() ([]byte, []byte, bool) {
	if !it.valid {
		return nil, nil, false
	}
	return it.leaf.key(it.pos), it.leaf.val(it.pos), true
}

func (it *iterator) Close() error {
	it.root, it.leaf, it.path, it.valid = nil, nil, nil, false
	return nil
}
