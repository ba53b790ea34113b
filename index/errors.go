package index

import (
	"errors"
	"fmt"
	"sync"
)

var (
	// ErrEmptyQuery is returned by Search when the query has nothing to
	// search for (empty, whitespace, or only characters that match nothing).
	ErrEmptyQuery = errors.New("index: empty query")

	// ErrNotFound is returned by Get when no document has the ID.
	ErrNotFound = errors.New("index: document not found")

	// ErrExists is returned by Add when a document with the ID exists.
	ErrExists = errors.New("index: document already exists")

	// ErrInvalidDoc is returned, wrapped with the reason, for a document
	// that cannot be stored: empty or oversized ID, ID with a NUL byte or
	// invalid UTF-8, text over Options.MaxDocBytes.
	ErrInvalidDoc = errors.New("index: invalid document")

	// ErrInvalidRequest is returned, wrapped with the reason, by Search for
	// a request out of range: unknown mode or order, limit outside
	// 1..MaxLimit, negative offset, Until before Since.
	ErrInvalidRequest = errors.New("index: invalid request")

	// ErrLocked is returned by Open when another process has the index
	// open for writing.
	ErrLocked = errors.New("index: locked by another process")

	// ErrNewerSchema is returned by Open for an index written by a newer
	// version of twindex.
	ErrNewerSchema = errors.New("index: written by a newer twindex (schema version)")

	// ErrClosed is returned by every method called after Close.
	ErrClosed = errors.New("index: closed")

	// ErrBackend is returned by Open for a backend this build lacks.
	ErrBackend = errors.New("index: backend not available in this build")

	// ErrCorrupt matches every *CorruptError.
	ErrCorrupt = errors.New("index: corrupt")
)

// CorruptError is returned, wrapped, when a file of the index cannot be
// read: Open, Search or Check found bytes that bleve or the store cannot
// decode. For a damaged bbolt file (the store, a bleve index's root.bolt)
// Err is a *storage.CorruptError naming the file and page.
// The store is the truth: a corrupt bleve index is rebuilt from it by
// opening with Options.RebuildCorrupt (twindex rebuild); a corrupt store
// cannot be repaired by twindex.
type CorruptError struct {
	Path string // the file or directory that is damaged
	Err  error  // what went wrong reading it
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("index: corrupt %s: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// guard turns a panic from bleve, which panics on some damaged segment
// files, into a *CorruptError in *err. Use it deferred on every path that
// reads bleve data on a goroutine of ours.
func guard(path string, err *error) {
	if r := recover(); r != nil {
		ce := &CorruptError{Path: path, Err: fmt.Errorf("reading an index: %v", r)}
		*err = ce
		if path != "" {
			poisoned.LoadOrStore(path, ce)
		}
	}
}

// poisoned holds, per index directory, the first panic guard recovered
// there. zap panics with a segment's lock held, so whatever reads that
// segment next (a search, a write, the flush in Close) blocks forever;
// Close skips its flush for such an index (the next Open replays the log).
var poisoned sync.Map // directory -> *CorruptError

// poisoned returns the damage a search or write of this index ran into,
// if any: touching the damaged segment again could block on its lock, so
// every later call fails with it until the index is reopened (Options.
// RebuildCorrupt, twindex rebuild).
func (ix *Index) poisoned() error {
	if ix.dir == "" {
		return nil
	}
	if ce, ok := poisoned.Load(ix.dir); ok {
		return ce.(error)
	}
	return nil
}
