//go:build !js && !wasip1

package backend

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"weak"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/storage"
)

// Default is the kind of index this build opens when asked for none.
const Default = Scorch

// checkedSuffix names, beside a scorch index's directory, the record of
// the segment files verifySegments found sound.
const checkedSuffix = ".checked"

// scorch reports failures of its background persister (a full disk, say)
// only to a callback it finds by name in a global registry, then retries
// forever; persistErrs routes them to the index they concern, keyed by
// scorch's directory, so that a flush waiting on it can give up.
var persistErrs sync.Map // directory -> error

const asyncErrorCallback = "twindex"

func init() {
	scorch.RegistryAsyncErrorCallbacks[asyncErrorCallback] = func(err error, dir string) {
		if dir != "" && errors.Is(err, scorch.ErrPersist) {
			persistErrs.Store(dir, err)
		}
	}
}

// PersistError returns and forgets the last failure of the background
// persister of the scorch index in dir, or nil.
func PersistError(dir string) error {
	if v, ok := persistErrs.LoadAndDelete(dir); ok {
		return v.(error)
	}
	return nil
}

// bulkMergePlan is what Options.BulkLoad changes in bleve's merge plan:
// 30 segments per tier rather than 10, and segments under 400 documents
// counted as 400 rather than under 2,000 as 2,000. A load of the
// yardstick's 12,487 documents in batches of 1,000 then merges nothing
// until Optimize.
var bulkMergePlan = map[string]any{"MaxSegmentsPerTier": 30, "FloorSegmentSize": 400}

func openScorch(dir string, q *bleveindex.AnalysisQueue, o Options) (idx bleveindex.Index, err error) {
	if dir != "" {
		// scorch keeps its snapshot list in a bbolt file, which bbolt
		// cannot open safely once truncated.
		if err := storage.CheckFile(filepath.Join(dir, "root.bolt")); err != nil {
			return nil, &CorruptError{Path: dir, Err: err}
		}
	}
	// unsafe_batch: Batch returns once the batch is searchable, and scorch
	// persists it in the background. The store and its write log are the
	// durable record; Open replays whatever scorch had not persisted.
	config := map[string]interface{}{
		"path": dir, "unsafe_batch": true, "asyncErrorCallbackName": asyncErrorCallback,
	}
	if o.BulkLoad {
		config["scorchMergePlanOptions"] = bulkMergePlan
	}
	if o.ReadOnly {
		// No persister, no merger, root.bolt opened read-only.
		config["read_only"] = true
	}
	idx, err = scorch.NewScorch(scorch.Name, config, q)
	if err != nil {
		return nil, err
	}
	// scorch panics on some damaged segment files (zap decodes lengths
	// without bounds checks); that is bad input, not a bug of ours.
	defer func() {
		if r := recover(); r != nil {
			func() {
				defer func() { _ = recover() }()
				_ = idx.Close()
			}()
			idx, err = nil, &CorruptError{Path: dir, Err: fmt.Errorf("%v", r)}
		}
	}()
	if err := idx.Open(); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, err
		}
		return nil, &CorruptError{Path: dir, Err: err}
	}
	if err := verifySegments(idx, dir+checkedSuffix); err != nil {
		_ = idx.Close()
		return nil, err
	}
	return idx, nil
}

// verifySegments checks each segment file of the index's current snapshot
// against the CRC-32 in its footer, which zap never checks: a zeroed or
// truncated segment opens as an empty one, so searches would quietly find
// nothing, and a damaged one panics mid-search with the segment's lock
// held, so the next search touching it would block forever.
//
// Segment files are never written once made, so a file is read once per
// state: the file at record notes each segment found sound with its
// size, modification time and checksum, and a segment whose stamp matches
// is not read again (storage.Options.CheckRecord does the same for the
// store). Damage that changes neither size nor modification time (a bit
// flipped on the disk) then goes unseen until the next merge rewrites the
// segment.
//
// Cost: a stat per segment; a read of every segment file not noted (about
// 27 ms per 100 MB from the page cache).
func verifySegments(idx bleveindex.Index, record string) error {
	r, err := idx.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil
	}
	old, _ := os.ReadFile(record)
	noted := map[string]bool{}
	for _, line := range strings.Split(string(old), "\n") {
		noted[line] = true
	}
	var now []string
	for _, ss := range snap.Segments() {
		seg, ok := ss.Segment().(interface {
			Path() string
			CRC() uint32
		})
		if !ok {
			continue // in memory
		}
		fi, err := os.Stat(seg.Path())
		if err != nil {
			return &CorruptError{Path: seg.Path(), Err: err}
		}
		stamp := fmt.Sprintf("%s %d %d %08x", filepath.Base(seg.Path()), fi.Size(), fi.ModTime().UnixNano(), seg.CRC())
		if !noted[stamp] {
			if err := verifyCRC(seg.Path(), seg.CRC()); err != nil {
				return &CorruptError{Path: seg.Path(), Err: err}
			}
		}
		now = append(now, stamp)
	}
	if b := strings.Join(now, "\n"); b != string(old) {
		// Only a speed-up: a record not written costs the next Open a read.
		_ = os.WriteFile(record, []byte(b), 0o644)
	}
	return nil
}

// verifyCRC checks that the CRC-32 (IEEE) of the file without its last
// four bytes, which zap's footer ends with, is want.
func verifyCRC(path string, want uint32) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	h := crc32.NewIEEE()
	if _, err := io.CopyN(h, f, max(0, fi.Size()-4)); err != nil {
		return err
	}
	if got := h.Sum32(); got != want {
		return fmt.Errorf("checksum %08x, the footer says %08x", got, want)
	}
	return nil
}

// ForceMerge merges a scorch index's persisted segments down to one, in
// one merge: bleve's single-segment plan merges ten segments at a time,
// which writes most of an index of more than ten segments twice. Other
// kinds have nothing to merge. It never returns for a scorch index in
// memory, whose merger waits for a persister it does not run.
//
// Cost: a write of the whole index.
func ForceMerge(ctx context.Context, idx bleveindex.Index) error {
	s, ok := idx.(*scorch.Scorch)
	if !ok {
		return nil
	}
	mo := mergeplan.SingleSegmentMergePlanOptions
	mo.SegmentsPerMergeTask = math.MaxInt32
	// A merge the merger had under way when the request came can leave a
	// second segment beside the merged one: merge again, a few times.
	for range 3 {
		if err := s.ForceMerge(ctx, &mo); err != nil {
			return err
		}
		if Segments(s) <= 1 {
			break
		}
	}
	return nil
}

// snapshotRef identifies a scorch snapshot without keeping it alive.
type snapshotRef = weak.Pointer[scorch.IndexSnapshot]

// snapshotOf returns a weak reference to r when r is a scorch snapshot.
func snapshotOf(r bleveindex.IndexReader) (snapshotRef, bool) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return snapshotRef{}, false
	}
	return weak.Make(snap), true
}
