package index

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/storage"
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

	// ErrBackend is returned, wrapped with the reason, by Open for a
	// backend this build lacks or that cannot hold the index asked for
	// (Compact on disk), and by OpenSnapshot and WriteSnapshot for a
	// backend other than Compact.
	ErrBackend = backend.ErrUnavailable

	// ErrLanguage is returned by Open, wrapped with the reason, when
	// Options.Language is not one of tokenize.Langs, or is not the
	// language the index was created in: its terms are stems of that
	// language, and another one would stem documents and queries
	// otherwise. An index changes language only by being made anew.
	ErrLanguage = errors.New("index: language")

	// ErrCorrupt matches every *CorruptError.
	ErrCorrupt = errors.New("index: corrupt")

	// ErrReadOnly is returned, wrapped, by the writes of an index opened
	// with Options.ReadOnly, and by such an Open when the index must be
	// written before it can be read: a new index, one of an older schema,
	// one whose bleve indexes are behind its store (after a crash), or one
	// with segments to merge. Open it without ReadOnly then.
	ErrReadOnly = errors.New("index: opened read-only")
)

// badValue is an ErrInvalidRequest of a Parse function: its message is
// the reason alone, so that a caller can put its flag or argument name
// before it.
type badValue struct{ msg string }

func (e *badValue) Error() string        { return e.msg }
func (e *badValue) Is(target error) bool { return target == ErrInvalidRequest }

func unknownValue(what, s, want string) error {
	return &badValue{fmt.Sprintf("unknown %s %q (want %s)", what, s, want)}
}

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
	if se, ok := e.Err.(*storage.CorruptError); ok && se.Path == e.Path { // named once
		return fmt.Sprintf("index: corrupt %s: page %d: %s", e.Path, se.Page, se.Msg)
	}
	return fmt.Sprintf("index: corrupt %s: %v", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// InStore reports whether the damage is in the document store, which
// nothing rebuilds: the bleve indexes are rebuilt from it.
func (e *CorruptError) InStore() bool { return filepath.Base(e.Path) == storeFile }

// guard turns a panic from bleve, which panics on some damaged segment
// files, into a *CorruptError in *err, and records it as the index's
// damage. Use it deferred on every path that reads bleve data on a
// goroutine of ours.
func (ix *Index) guard(err *error) {
	if r := recover(); r != nil {
		path := ix.dir
		if path == "" {
			path = "memory index"
		}
		ce := &CorruptError{Path: path, Err: fmt.Errorf("reading an index: %v", r)}
		*err = ce
		ix.damage.CompareAndSwap(nil, ce)
	}
}

// PanicError is a panic of twindex's own code on a goroutine that reads
// no bleve data: a search's checks of candidates, its snippets and its
// phrases' judgments, a write's analysis, Check's filters. It is a bug,
// not damage (a panic that bleve's reading may have caused is guard's
// CorruptError): the call that ran into it returns it, having changed
// nothing, and the index stays usable. Please report it with Stack.
type PanicError struct {
	Value any    // what was passed to panic
	At    string // the function and line that panicked
	Stack []byte // the goroutine's stack at the panic
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("index: internal error at %s: %v (a bug in twindex: please report it with PanicError.Stack)", e.At, e.Value)
}

// recovered turns a panic into *err, a *PanicError, for a part of a
// call's work that reads no bleve data. Use it deferred, on whichever
// goroutine does the part, so that the same bug gives the same error
// on the caller's goroutine as on a worker's.
func recovered(err *error) {
	if r := recover(); r != nil {
		*err = &PanicError{Value: r, At: panicSite(), Stack: debug.Stack()}
	}
}

// panicSite returns the function and line that panicked, from within a
// deferred call during the panic: the first frame past runtime.gopanic
// that is not the runtime's (which raises index and nil errors), nor its
// internal packages'.
func panicSite() string {
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(1, pc)])
	panicking := false
	for {
		f, more := frames.Next()
		if panicking && !strings.HasPrefix(f.Function, "runtime.") && !strings.HasPrefix(f.Function, "internal/runtime/") {
			return fmt.Sprintf("%s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		panicking = panicking || f.Function == "runtime.gopanic"
		if !more {
			return "an unknown place"
		}
	}
}

// access is what a method is about to touch, for ready.
type access uint8

const (
	// readsStore: the store alone.
	readsStore access = iota
	// readsIndexes: bleve's data, or a view of it, even when the indexes
	// are behind the store.
	readsIndexes
	// readsInStep: bleve's data, which must be in step with the store.
	readsInStep
)

// ready returns why the index cannot serve a call that touches a: it is
// closed; or bleve ran into damage (guard), and touching the damaged
// segment again could block forever on the lock zap panicked with, so
// every later call fails with it until the index is reopened (Options.
// RebuildCorrupt, twindex rebuild); or, for readsInStep, a committed
// write failed to reach bleve (the next write or Open repairs it); or a
// Rebuild failed and left no view of the indexes (errNoView). The caller
// holds ix.mu.
func (ix *Index) ready(a access) error {
	switch {
	case ix.closed:
		return ErrClosed
	case a == readsStore:
		return nil
	case ix.damage.Load() != nil:
		return ix.damage.Load()
	case ix.view == nil:
		return errNoView
	case a == readsInStep && ix.stale != nil:
		return fmt.Errorf("index out of step with its store after a failed write (the next write or Open repairs it): %w", ix.stale)
	}
	return nil
}
