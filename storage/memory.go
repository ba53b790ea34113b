package storage

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// errReadOnly is returned by writes in a View.
var errReadOnly = errors.New("storage: write in a read-only transaction")

// Memory is a Store held in the process. It is safe for concurrent use:
// Views share a read lock, an Update holds the write lock and keeps an undo
// log so that an error rolls every write back.
type Memory struct {
	mu      sync.RWMutex
	buckets map[string]*memBucket
	fault   FaultFunc
	closed  bool
}

type memBucket struct {
	m    map[string][]byte
	size int64
	// keys is m's keys sorted, built on demand by Scan and dropped by a
	// write that adds or removes a key. Readers share it under keysMu;
	// writers hold the store's write lock, so no reader runs meanwhile.
	keysMu sync.Mutex
	keys   []string
}

// NewMemory returns an empty in-memory store.
func NewMemory(opts *Options) *Memory {
	s := &Memory{buckets: map[string]*memBucket{}}
	if opts != nil {
		s.fault = opts.Fault
	}
	return s
}

// View implements Store.
func (s *Memory) View(fn func(Tx) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	return fn(&memTx{s: s})
}

// Update implements Store.
func (s *Memory) Update(fn func(Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	tx := &memTx{s: s, writable: true}
	err := fn(tx)
	if err == nil && s.fault != nil {
		if ferr := s.fault("commit"); ferr != nil {
			err = fmt.Errorf("commit: %w", ferr)
		}
	}
	if err != nil {
		tx.rollback()
		return err
	}
	return nil
}

// Load fills an empty bucket with entries whose keys are in strictly
// increasing order, as one write: keys and values are copied (the
// values into one allocation), and Scan takes the keys' order as given
// instead of sorting them. It is how a snapshot's buckets come in, which
// Update would put one by one, each with its own copy and undo entry.
// The values share their allocation, which stays while any of them is
// referenced. Cost: O(entries + bytes).
func (s *Memory) Load(bucket []byte, keys, vals [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if len(keys) != len(vals) {
		return fmt.Errorf("storage: load %s: %d keys for %d values", bucket, len(keys), len(vals))
	}
	if b := s.buckets[string(bucket)]; b != nil && len(b.m) > 0 {
		return fmt.Errorf("storage: load %s: the bucket holds %d keys; load fills empty buckets", bucket, len(b.m))
	}
	if s.fault != nil {
		if err := s.fault("load " + string(bucket)); err != nil {
			return fmt.Errorf("load %s: %w", bucket, err)
		}
	}
	n := 0
	for i, v := range vals {
		if i > 0 && bytes.Compare(keys[i-1], keys[i]) >= 0 {
			return fmt.Errorf("storage: load %s: key %d (%q) does not follow %q", bucket, i, keys[i], keys[i-1])
		}
		n += len(v)
	}
	b := &memBucket{m: make(map[string][]byte, len(keys)), keys: make([]string, len(keys))}
	arena := make([]byte, 0, n)
	for i, k := range keys {
		at := len(arena)
		arena = append(arena, vals[i]...)
		b.keys[i] = string(k)
		b.m[b.keys[i]] = arena[at:len(arena):len(arena)]
		b.size += int64(len(k) + len(vals[i]))
	}
	s.buckets[string(bucket)] = b
	return nil
}

// Size implements Store.
func (s *Memory) Size() (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var n int64
	for _, b := range s.buckets {
		n += b.size
	}
	return n, nil
}

// Close implements Store.
func (s *Memory) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.buckets = nil
	return nil
}

type undo struct {
	bucket, key string
	old         []byte
	had         bool
}

type memTx struct {
	s        *Memory
	writable bool
	undo     []undo
}

func (t *memTx) Get(bucket, key []byte) []byte {
	b := t.s.buckets[string(bucket)]
	if b == nil {
		return nil
	}
	return b.m[string(key)]
}

func (t *memTx) write(step string, bucket []byte) error {
	if !t.writable {
		return errReadOnly
	}
	if t.s.fault != nil {
		if err := t.s.fault(step + " " + string(bucket)); err != nil {
			return fmt.Errorf("%s %s: %w", step, bucket, err)
		}
	}
	return nil
}

func (t *memTx) set(bucket, key string, value []byte, present bool) {
	b := t.s.buckets[bucket]
	if b == nil {
		b = &memBucket{m: map[string][]byte{}}
		t.s.buckets[bucket] = b
	}
	old, had := b.m[key]
	if had {
		b.size -= int64(len(key) + len(old))
	}
	if present {
		b.m[key] = value
		b.size += int64(len(key) + len(value))
	} else {
		delete(b.m, key)
	}
	if had != present {
		b.keys = nil
	}
}

func (t *memTx) Put(bucket, key, value []byte) error {
	if err := t.write("put", bucket); err != nil {
		return err
	}
	bk, k := string(bucket), string(key)
	old, had := t.lookup(bk, k)
	t.undo = append(t.undo, undo{bucket: bk, key: k, old: old, had: had})
	t.set(bk, k, bytes.Clone(value), true)
	return nil
}

func (t *memTx) Delete(bucket, key []byte) error {
	if err := t.write("delete", bucket); err != nil {
		return err
	}
	bk, k := string(bucket), string(key)
	old, had := t.lookup(bk, k)
	if !had {
		return nil
	}
	t.undo = append(t.undo, undo{bucket: bk, key: k, old: old, had: had})
	t.set(bk, k, nil, false)
	return nil
}

func (t *memTx) lookup(bucket, key string) ([]byte, bool) {
	b := t.s.buckets[bucket]
	if b == nil {
		return nil, false
	}
	v, ok := b.m[key]
	return v, ok
}

func (t *memTx) rollback() {
	for i := len(t.undo) - 1; i >= 0; i-- {
		u := t.undo[i]
		t.set(u.bucket, u.key, u.old, u.had)
	}
	t.undo = nil
}

func (t *memTx) Scan(bucket, prefix []byte, fn func(k, v []byte) error) error {
	b := t.s.buckets[string(bucket)]
	if b == nil {
		return nil
	}
	b.keysMu.Lock()
	if b.keys == nil {
		b.keys = make([]string, 0, len(b.m))
		for k := range b.m {
			b.keys = append(b.keys, k)
		}
		slices.Sort(b.keys)
	}
	keys := b.keys
	b.keysMu.Unlock()
	return scanKeys(b, keys, prefix, fn)
}

func scanKeys(b *memBucket, keys []string, prefix []byte, fn func(k, v []byte) error) error {
	p := string(prefix)
	i, _ := slices.BinarySearch(keys, p)
	for ; i < len(keys) && strings.HasPrefix(keys[i], p); i++ {
		if err := fn([]byte(keys[i]), b.m[keys[i]]); err != nil {
			return err
		}
	}
	return nil
}
