// Package backend opens, configures, merges and inspects the bleve indexes
// under the engine: scorch on disk (or in memory), upsidedown over memkv
// and compact in memory. It takes plain values (a kind, a directory, an
// analysis queue) and returns bleve's index.Index and plain errors, which
// the engine wraps as its own.
//
// A scorch directory holds one index, and beside it (the directory's name
// + ".checked") the record of the segment files Open found sound; one
// directory must not be open twice at once. Failures of scorch's
// background persister are kept per directory until PersistError takes
// them.
//
// Every function may be called from any goroutine; ForceMerge and
// Segments on an index as bleve allows, which is at any time.
//
// The js/wasm build has compact only: scorch (and with it bbolt) and
// upsidedown (and with it protobuf) are left out by build tags, and wasip1
// lacks scorch. There Open returns ErrUnavailable for them, and the
// functions that read scorch do nothing.
package backend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// The kinds of index Open makes, spelled as the engine's Backend constants
// spell them (its tests check that they agree).
const (
	Scorch     = "scorch"
	UpsideDown = "upsidedown"
	Compact    = "compact"
)

// ErrUnavailable is returned, wrapped with the reason, by Open for a kind
// this build lacks, an unknown kind, or a directory for a memory-only
// kind. Its text begins "index:" because the engine returns it as its
// ErrBackend, for snapshots too.
var ErrUnavailable = errors.New("index: backend not available")

// CorruptError is returned by Open when a file of a scorch index cannot be
// read: its snapshot list (root.bolt) or a segment file is damaged.
type CorruptError struct {
	Path string // the file or directory that is damaged
	Err  error  // what went wrong reading it
}

func (e *CorruptError) Error() string { return fmt.Sprintf("corrupt %s: %v", e.Path, e.Err) }

func (e *CorruptError) Unwrap() error { return e.Err }

// Options are what Open configures a scorch index with; nil means the
// defaults. The other kinds have nothing to configure.
type Options struct {
	// BulkLoad merges less while many batches come: see bulkMergePlan.
	BulkLoad bool
	// ReadOnly opens without persister or merger, root.bolt read-only.
	ReadOnly bool
}

// Open opens, creating it if needed, an index of kind in dir ("" for
// memory), analysing documents on q.
//
// Cost: for scorch on disk, a read of every segment file whose state was
// not noted sound before (see verifySegments).
func Open(kind, dir string, q *bleveindex.AnalysisQueue, opts *Options) (bleveindex.Index, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	switch kind {
	case Compact:
		if dir != "" {
			return nil, fmt.Errorf("%w: %s is memory-only", ErrUnavailable, Compact)
		}
		return compact.New(q), nil
	case UpsideDown:
		return openUpsideDown(dir, q)
	case Scorch:
		return openScorch(dir, q, o)
	}
	return nil, fmt.Errorf("%w: unknown kind %q (want %s, %s or %s)", ErrUnavailable, kind, Scorch, UpsideDown, Compact)
}

// Segments is the number of segments of a scorch or compact index, 0 for
// upsidedown.
func Segments(idx bleveindex.Index) int {
	m := idx.StatsMap()
	n := 0
	for _, k := range []string{"num_root_filesegments", "num_root_memorysegments", "segments"} {
		if v, ok := m[k].(uint64); ok {
			n += int(v)
		}
	}
	return n
}

// Size is the bytes of the files under an index's directory dir, 0 for ""
// (memory). Files that vanish during the walk, as scorch's do when it
// merges, are not counted.
//
// Cost: a stat per file.
func Size(dir string) int64 {
	if dir == "" {
		return 0
	}
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// EachID calls fn with the external ID of every document in idx, and the
// reader it came from, until fn returns an error or ctx ends.
func EachID(ctx context.Context, idx bleveindex.Index, fn func(r bleveindex.IndexReader, id string) error) error {
	r, err := idx.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	all, err := r.DocIDReaderAll()
	if err != nil {
		return err
	}
	defer all.Close()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		iid, err := all.Next()
		if err != nil || iid == nil {
			return err
		}
		id, err := r.ExternalID(iid)
		if err != nil {
			return err
		}
		if err := fn(r, id); err != nil {
			return err
		}
	}
}

// CloseReaders closes the readers that are not nil and returns their
// errors, joined.
func CloseReaders(rs ...bleveindex.IndexReader) error {
	var errs []error
	for _, r := range rs {
		if r != nil {
			errs = append(errs, r.Close())
		}
	}
	return errors.Join(errs...)
}

// FieldTerm is a term of a field.
type FieldTerm struct{ Field, Term string }

// Union is a set of field terms whose documents UnionCounts counts:
// apart (Alone), and with the other sets' in a total (Total).
type Union struct {
	Terms        []FieldTerm
	Alone, Total bool
}

// Conjunction is units of field terms, each of which a document must
// hold to hold it (Holding): a unit by any one of its terms.
type Conjunction [][]FieldTerm
