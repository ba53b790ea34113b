package index

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/storage"
)

// A view is one state of the index as searches read it: the store's
// sequence number of a write, and the bleve indexes after that write.
// Searches never wait for a write: a write changes the store first and the
// bleve indexes after, then publishes a new view, and a search reads the
// view published when it began.
//
// While no write is under way, a search opens readers of the bleve indexes
// as they are (scorch's readers are snapshots, merges included). A write
// first freezes the view: it opens readers of the indexes before its
// batches, which searches share until the next view is published, so that
// none sees part of a write (or holds merged-away segments longer than a
// write lasts).
//
// The store has no versions to read an older state from. A search reads
// it in a transaction of its own, which may already hold the next write:
// that write records in the view, before it commits, the value every key
// it changes had before (a storage.Undo), and a search whose transaction
// holds the write reads through it. Writes are serialized up to
// their publication, so a transaction holds at most one write more than
// its view; a search that finds more (it took its view just before one
// write was published and opened its transaction after the next one
// committed) takes the newer view and reads again.
type view struct {
	seq  uint64
	undo atomic.Pointer[storage.Undo] // the next write's, once it commits
	// textR and triR are the readers a write froze, nil before; set under
	// mu. users counts the searches reading them.
	textR, triR bleveindex.IndexReader
	users       sync.WaitGroup
	// noTrigrams: the trigram index is not built yet (Options.TrigramsLater);
	// searches get no reader of it and read every document instead.
	noTrigrams bool
}

// close closes the view's frozen readers, if any, once no search reads
// them.
func (v *view) close() error {
	v.users.Wait()
	return backend.CloseReaders(v.textR, v.triR)
}

// openReaders opens a reader of each bleve index as it is now.
func (ix *Index) openReaders() (textR, triR bleveindex.IndexReader, err error) {
	defer ix.guard(&err)
	if textR, err = ix.text.Reader(); err != nil {
		return nil, nil, fmt.Errorf("text index: %w", err)
	}
	if triR, err = ix.tri.Reader(); err != nil {
		textR.Close()
		return nil, nil, fmt.Errorf("trigram index: %w", err)
	}
	return textR, triR, nil
}

// freeze makes the searches of the current view share readers of the
// bleve indexes as they are, before a write changes them. The caller
// holds writeMu.
func (ix *Index) freeze() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	v := ix.view
	if v.textR != nil {
		return nil // a failed write froze it
	}
	var err error
	v.textR, v.triR, err = ix.openReaders()
	return err
}

// publish makes v the view new searches read and retires the one before
// it: its frozen readers close when its last search is done, in the
// background, or, when v is nil (Close), before publish returns. The
// caller holds writeMu.
func (ix *Index) publish(v *view) {
	ix.mu.Lock()
	old := ix.view
	ix.view = v
	ix.mu.Unlock()
	switch {
	case old == nil:
	case v == nil:
		old.close()
	default:
		go old.close()
	}
}

// errNoView is returned by reads after a Rebuild that failed.
var errNoView = errors.New("index: a rebuild failed and left nothing to read; run it again or reopen the index")

// errMoved is read's signal that the store moved on by more than the
// write a view's undo covers.
var errMoved = errors.New("the store is more than one write ahead of the view")

// read calls fn with readers of the current view's bleve indexes (nil
// for a of readsStore; the trigram index's nil while it is not built) and
// a transaction of the store that reads the view's state. fn must not
// keep either once it returns.
func (ix *Index) read(a access, fn func(textR, triR bleveindex.IndexReader, tx storage.Tx) error) error {
	// Each retry follows a write published meanwhile; writes take far
	// longer than a transaction takes to open, so one retry is the rule.
	for range 100 {
		ix.mu.RLock()
		if err := ix.ready(a); err != nil {
			ix.mu.RUnlock()
			return err
		}
		v := ix.view
		if v == nil {
			ix.mu.RUnlock()
			return errNoView
		}
		var textR, triR bleveindex.IndexReader
		done := func() {}
		switch {
		case a == readsStore:
		case v.textR != nil:
			textR, triR = v.textR, v.triR
			v.users.Add(1)
			done = v.users.Done
		default:
			// No write can start its batches while mu is held: these
			// readers show the view's state.
			var err error
			if textR, triR, err = ix.openReaders(); err != nil {
				ix.mu.RUnlock()
				return err
			}
			done = func() { backend.CloseReaders(textR, triR) }
		}
		ix.mu.RUnlock()
		err := ix.store.View(func(raw storage.Tx) error {
			tx := raw
			switch seq := getUint(raw, metaSeq); {
			case seq == v.seq:
			case seq == v.seq+1 && v.undo.Load() != nil:
				tx = v.undo.Load().Before(raw)
			default:
				return errMoved
			}
			if v.noTrigrams {
				return fn(textR, nil, tx)
			}
			return fn(textR, triR, tx)
		})
		done()
		if err != errMoved {
			return err
		}
	}
	return fmt.Errorf("%w: writes kept moving the store on while a search began", errMoved)
}
