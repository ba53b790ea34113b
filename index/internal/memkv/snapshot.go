package memkv

// Snapshot is the whole of a Store at one point in time, for writing it
// out. It is a value that stays valid and unchanged however the store is
// written afterwards, and is safe for concurrent use.
type Snapshot struct {
	root *node
	n    int
}

// Snapshot returns the store as it is now. Cost: O(1); the store's next
// batch copies the branches it changes rather than changing them in
// place.
func (s *Store) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shared = true
	return Snapshot{s.root, s.n}
}

// Len returns the number of entries.
func (v Snapshot) Len() int { return v.n }

// Walk calls fn with every entry in increasing key order. fn must not
// change the bytes, which stay valid after it returns. Cost: O(entries).
func (v Snapshot) Walk(fn func(k, v []byte)) { walk(v.root, fn) }

func walk(n *node, fn func(k, v []byte)) {
	if n == nil {
		return
	}
	if n.leaf() {
		for i := range n.ents {
			fn(n.key(i), n.val(i))
		}
		return
	}
	for _, k := range n.kids {
		walk(k, fn)
	}
}

// Builder builds a Store from entries given in strictly increasing key
// order, as a Snapshot's Walk yields them: it fills leaves as the entries
// come and builds the branches above them at the end, with no sorting and
// no search. The zero value is an empty builder; it is not safe for
// concurrent use.
type Builder struct {
	b     leafBuilder
	nodes []*node  // the leaves built so far
	seps  [][]byte // the first key of each leaf but the first
	n     int
}

// Add adds an entry, copying k and v. k must be greater than the key
// added before it: Add does not check, as its callers check order more
// cheaply (a snapshot's keys share prefixes). Cost: O(len(k)+len(v))
// amortized.
func (b *Builder) Add(k, v []byte) {
	b.b.add(k, v)
	if len(b.b.ents) == leafFill {
		b.flush()
	}
}

func (b *Builder) flush() {
	b.n += len(b.b.ents)
	leaf := b.b.take()
	if len(b.nodes) > 0 {
		b.seps = append(b.seps, leaf.key(0))
	}
	b.nodes = append(b.nodes, leaf)
}

// Store returns a store of the entries added, for New to open through
// config[ConfigStore], and empties the builder. Cost: O(entries / leaf
// size).
func (b *Builder) Store() *Store {
	if len(b.b.ents) > 0 {
		b.flush()
	}
	nodes, seps := b.nodes, b.seps
	var t tx
	for len(nodes) > 1 {
		nodes, seps = t.branches(nodes, seps)
	}
	s := &Store{n: b.n}
	if len(nodes) == 1 {
		s.root = nodes[0]
	}
	*b = Builder{}
	return s
}
