//go:build !js && !wasip1

package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// lockTimeout bounds how long Open waits for another process's lock
// before returning ErrLocked (bbolt waits forever by default).
const lockTimeout = 250 * time.Millisecond

// lockPoll is how often Open asks again whether another process still
// holds the file, after a walk that failed while it did.
const lockPoll = 10 * time.Millisecond

// growStep is how far the file grows past the pages in use when a commit
// needs more room. bbolt's default, 16 MiB, left a third of a 50 MiB store
// as a tail that no page used: sparse on most file systems, but the size
// a listing, a backup or a copy without hole detection sees. Cost: a
// truncate and fsync per growStep of data written, where bbolt's default
// paid one per 16 MiB.
const growStep = 1 << 20

// openDB opens the bbolt file at path with the store's settings.
func openDB(path string, noSync bool) (*bolt.DB, error) {
	db, err := bolt.Open(path, 0o644, &bolt.Options{
		Timeout:      lockTimeout,
		FreelistType: bolt.FreelistMapType,
		NoSync:       noSync,
	})
	if err != nil {
		return nil, err
	}
	db.AllocSize = growStep
	return db, nil
}

// beforeLock, when not nil, runs where another process could write the
// file before bbolt locks it, in Open between the walk and the lock and
// in Compact between the swap and the reopen: a test's other writer.
var beforeLock func()

// Bolt is a Store in one bbolt file. It is safe for concurrent use.
//
// Opened with Options.CheckRecord and without Options.NoSync, it notes at
// a clean Close the state its own commits left, as the walk at Open notes
// the state it found sound, so that the next Open does not walk it: when
// the state it opened is the one Open found sound (the file unchanged
// between the walk and bbolt's lock), every commit since succeeded and
// was fsynced, and no other process wrote the file while Compact had it
// unlocked. A state bbolt made from a sound one, by commits that
// succeeded or by Compact's copy, is sound as far as the walk can tell,
// and the damage that the record cannot see (a flipped bit that changes
// neither size, modification time nor transaction ID) it cannot see
// after a walk either. A process killed or a commit that failed leaves
// the record as it was, and the next Open walks.
type Bolt struct {
	db    *bolt.DB
	fault FaultFunc
	// record is Options.CheckRecord while the state may be noted at Close.
	record string
	// wrote: a commit or Compact changed the file; unsound: the state
	// may not be noted (a commit failed, bbolt panicked, another process
	// may have written while Compact had the file unlocked).
	wrote, unsound atomic.Bool
}

// Open opens or creates the store file at path. It returns ErrLocked when
// another process has it open, and a *CorruptError when CheckFile finds
// the file damaged.
//
// The file is walked before bbolt opens it, so before its lock is taken:
// a process that holds it may commit during the walk, and commits that
// reuse pages the walk has yet to read can fail it more times than
// CheckFile walks again. A walk that fails while another process holds
// the lock is therefore not the verdict: Open waits for the lock as
// bbolt would (lockTimeout), returns ErrLocked if it is not let go, and
// walks the file again if it is.
//
// Cost: CheckFile's, O(reachable pages), unless Options.CheckRecord says
// the file is unchanged since its last walk.
func Open(path string, opts *Options) (_ *Bolt, err error) {
	if opts == nil {
		opts = &Options{}
	}
	var sound stamp // the state the walk (or its record) found sound
	check := func() (err error) {
		if opts.CheckRecord != "" {
			sound, err = checkOnce(path, opts.CheckRecord)
			return err
		}
		return CheckFile(path)
	}
	err = check()
	var ce *CorruptError
	if errors.As(err, &ce) && heldElsewhere(path) {
		for deadline := time.Now().Add(lockTimeout); heldElsewhere(path); time.Sleep(lockPoll) {
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("open %s: %w", path, ErrLocked)
			}
		}
		err = check()
	}
	if errors.As(err, &ce) {
		return nil, err // it names the file
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if beforeLock != nil {
		beforeLock()
	}
	defer recoverCorrupt(&err, nil)
	db, err := openDB(path, opts.NoSync)
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("open %s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &Bolt{db: db, fault: opts.Fault}
	if opts.CheckRecord != "" && !opts.NoSync {
		// With the lock held, no other process writes until Close. A file
		// that was missing or empty bbolt has just made: its few pages
		// are walked now.
		if sound == (stamp{}) {
			sound, _ = checkFile(path)
		}
		if now, err := fileStamp(path); err == nil && now != (stamp{}) && now == sound {
			s.record = opts.CheckRecord
		}
	}
	return s, nil
}

// recoverCorrupt turns a bbolt panic into an error: bbolt panics when it
// meets a damaged page ("invalid page type", "page already freed"), which
// is bad input from the disk, not a bug of the caller's. It marks the
// state unsound, when given the flag: Close does not note it.
func recoverCorrupt(err *error, unsound *atomic.Bool) {
	if r := recover(); r != nil {
		if unsound != nil {
			unsound.Store(true)
		}
		*err = fmt.Errorf("%w: %v", ErrCorrupt, r)
	}
}

// View implements Store.
func (s *Bolt) View(fn func(Tx) error) (err error) {
	defer recoverCorrupt(&err, &s.unsound)
	err = s.db.View(func(tx *bolt.Tx) error { return fn(&boltTx{tx: tx}) })
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	return err
}

// Update implements Store. A transaction that writes nothing is rolled
// back rather than committed: bbolt would write a new freelist and meta
// page and fsync the file for it (twice per Open of an index, which
// checks its schema and prunes its log), and the file would look changed
// to Options.CheckRecord.
func (s *Bolt) Update(fn func(Tx) error) (err error) {
	defer recoverCorrupt(&err, &s.unsound)
	tx, err := s.db.Begin(true)
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return ErrClosed
	}
	if err != nil {
		return err
	}
	defer tx.Rollback() // after Commit, a no-op
	bt := &boltTx{tx: tx, fault: s.fault}
	if err := fn(bt); err != nil {
		return err
	}
	if s.fault != nil {
		if err := s.fault("commit"); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
	}
	if !bt.wrote {
		return nil
	}
	if err := tx.Commit(); err != nil {
		s.unsound.Store(true)
		return err
	}
	s.wrote.Store(true)
	return nil
}

// Size implements Store.
func (s *Bolt) Size() (int64, error) {
	fi, err := os.Stat(s.db.Path())
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// compactTx is how many bytes of keys and values Compact copies per
// transaction of the new file. A transaction holds what it copies in the
// heap until it commits, and Optimize compacts while the bleve indexes
// merge: with 64 MiB, building the yardstick's corpus through the CLI
// peaked at 468-521 MiB of RSS (eight builds); with 8 MiB, at 462-477
// MiB, in the same time (medians 24.4 and 24.0 s), the file within 0.02%.
const compactTx = 8 << 20

// Compact rewrites the store into a fresh file, dropping free pages, and
// swaps it in. No transaction may run meanwhile. Cost: a read of the
// store and a write of what it holds, in transactions of compactTx bytes.
func (s *Bolt) Compact() error {
	path := s.db.Path()
	tmp := path + ".compact"
	_ = os.Remove(tmp)
	dst, err := openDB(tmp, false)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	if err := bolt.Compact(dst, s.db, compactTx); err != nil {
		dst.Close()
		os.Remove(tmp)
		return fmt.Errorf("compact: %w", err)
	}
	made, _ := fileStamp(tmp) // the state bbolt made, before its lock goes
	if err := dst.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("compact: %w", err)
	}
	noSync := s.db.NoSync
	if err := s.db.Close(); err != nil {
		s.unsound.Store(true)
		return fmt.Errorf("compact: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		s.unsound.Store(true)
		return fmt.Errorf("compact: %w", err)
	}
	if beforeLock != nil {
		beforeLock()
	}
	db, err := openDB(path, noSync)
	if err != nil {
		s.unsound.Store(true)
		return fmt.Errorf("compact: reopen: %w", err)
	}
	s.db = db
	// The file was unlocked from dst's Close to here: the state is still
	// the one made only if no other process wrote it meanwhile.
	if now, err := fileStamp(path); err != nil || made == (stamp{}) || now != made {
		s.unsound.Store(true)
	} else {
		s.wrote.Store(true)
	}
	return nil
}

// Close implements Store. Cost: a stat, a read of the meta pages and a
// write of the record when it notes the state (see Bolt).
func (s *Bolt) Close() error {
	if s.record != "" && s.wrote.Load() && !s.unsound.Load() {
		// Before the lock is let go: the state noted is this process's.
		if st, err := fileStamp(s.db.Path()); err == nil && st != (stamp{}) {
			_ = os.WriteFile(s.record, []byte(st.String()), 0o644)
		}
	}
	return s.db.Close()
}

type boltTx struct {
	tx    *bolt.Tx
	fault FaultFunc
	wrote bool // Put or Delete was called
}

func (t *boltTx) Get(bucket, key []byte) []byte {
	b := t.tx.Bucket(bucket)
	if b == nil {
		return nil
	}
	return b.Get(key)
}

func (t *boltTx) check(step string, bucket []byte) error {
	if t.fault == nil {
		return nil
	}
	if err := t.fault(step + " " + string(bucket)); err != nil {
		return fmt.Errorf("%s %s: %w", step, bucket, err)
	}
	return nil
}

func (t *boltTx) Put(bucket, key, value []byte) error {
	if err := t.check("put", bucket); err != nil {
		return err
	}
	t.wrote = true
	b, err := t.tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	return b.Put(key, value)
}

func (t *boltTx) Delete(bucket, key []byte) error {
	if err := t.check("delete", bucket); err != nil {
		return err
	}
	t.wrote = true
	b := t.tx.Bucket(bucket)
	if b == nil {
		return nil
	}
	return b.Delete(key)
}

func (t *boltTx) Scan(bucket, prefix []byte, fn func(k, v []byte) error) error {
	b := t.tx.Bucket(bucket)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}
