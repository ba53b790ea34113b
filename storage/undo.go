package storage

import (
	"bytes"
	"errors"
	"slices"
)

// Undo holds the values a write transaction changed, as they were before
// it: what a reader needs to see the state before the write in a
// transaction that already holds it. A store keeps no old versions, so a
// writer that lets readers go on at the previous state while it finishes
// work of its own (an index's derived structures, say) records its
// changes in an Undo before it commits, and those readers read through it.
//
// An Undo is filled by one write (Recording) and then only read; reads
// (Before) may run concurrently once the write has returned. Cost: each
// key a write changes costs one lookup and a copy of its old value.
type Undo struct {
	buckets map[string]map[string]undoValue
}

type undoValue struct {
	v       []byte
	present bool
}

// Recording returns tx, a read-write transaction, wrapped so that every
// key its Put or Delete changes is first recorded in u with the value it
// had. u must be new.
func (u *Undo) Recording(tx Tx) Tx {
	u.buckets = map[string]map[string]undoValue{}
	return &recordingTx{Tx: tx, u: u}
}

// Before returns tx, a read-only transaction that holds u's write, wrapped
// to read the state before that write.
func (u *Undo) Before(tx Tx) Tx { return &beforeTx{Tx: tx, u: u} }

type recordingTx struct {
	Tx
	u *Undo
}

// errFound stops the scan that looks a key up in record.
var errFound = errors.New("found")

func (t *recordingTx) record(bucket, key []byte) error {
	b := t.u.buckets[string(bucket)]
	if b == nil {
		b = map[string]undoValue{}
		t.u.buckets[string(bucket)] = b
	}
	if _, ok := b[string(key)]; ok {
		return nil
	}
	var old undoValue
	// The memory store looks the key up: its Scan sorts the bucket's keys
	// again after every key a write adds, which made a write of n new
	// keys O(n² log n).
	if m, ok := t.Tx.(*memTx); ok {
		if v, had := m.lookup(string(bucket), string(key)); had {
			old = undoValue{v: append([]byte{}, v...), present: true}
		}
		b[string(key)] = old
		return nil
	}
	// A scan tells a key with an empty value from an absent one, which
	// Get does not in every store.
	err := t.Tx.Scan(bucket, key, func(k, v []byte) error {
		if bytes.Equal(k, key) {
			old = undoValue{v: append([]byte{}, v...), present: true}
		}
		return errFound
	})
	if err != nil && err != errFound {
		return err
	}
	b[string(key)] = old
	return nil
}

func (t *recordingTx) Put(bucket, key, value []byte) error {
	if err := t.record(bucket, key); err != nil {
		return err
	}
	return t.Tx.Put(bucket, key, value)
}

func (t *recordingTx) Delete(bucket, key []byte) error {
	if err := t.record(bucket, key); err != nil {
		return err
	}
	return t.Tx.Delete(bucket, key)
}

type beforeTx struct {
	Tx
	u *Undo
}

func (t *beforeTx) Get(bucket, key []byte) []byte {
	if old, ok := t.u.buckets[string(bucket)][string(key)]; ok {
		return old.v
	}
	return t.Tx.Get(bucket, key)
}

func (t *beforeTx) Put(bucket, key, value []byte) error { return errReadOnly }
func (t *beforeTx) Delete(bucket, key []byte) error     { return errReadOnly }

// Scan merges the write's keys of the range into the transaction's scan,
// in order: as they were before it, or left out where they did not exist.
func (t *beforeTx) Scan(bucket, prefix []byte, fn func(k, v []byte) error) error {
	changed := t.u.buckets[string(bucket)]
	var keys []string
	for k := range changed {
		if bytes.HasPrefix([]byte(k), prefix) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return t.Tx.Scan(bucket, prefix, fn)
	}
	slices.Sort(keys)
	i := 0
	// upTo passes fn the changed keys below k (all that are left for nil)
	// that existed before the write.
	upTo := func(k []byte) error {
		for ; i < len(keys) && (k == nil || keys[i] < string(k)); i++ {
			if old := changed[keys[i]]; old.present {
				if err := fn([]byte(keys[i]), old.v); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := t.Tx.Scan(bucket, prefix, func(k, v []byte) error {
		if err := upTo(k); err != nil {
			return err
		}
		if i < len(keys) && keys[i] == string(k) {
			old := changed[keys[i]]
			i++
			if !old.present {
				return nil
			}
			v = old.v
		}
		return fn(k, v)
	})
	if err != nil {
		return err
	}
	return upTo(nil)
}
