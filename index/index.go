package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/snippet"
	"github.com/twindex/twindex/storage"
	"github.com/twindex/twindex/tokenize"
	"github.com/twindex/twindex/vector"
)

// SchemaVersion is the version of the on-disk layout this build writes.
// Open refuses an index with a higher version.
// Version 2 added sessions, links and vectors to document records.
// Version 3 added the text index's symbols, licence-comment and
// words-as-written fields, the trigram index's declared names (package
// decl) and its grams of one and two runes: Open and OpenSnapshot rebuild both bleve indexes of an older
// index from its store, which version 3 reads as it is.
// Version 4 added to document records the filter of their adjacent term
// pairs (record.Header.Pairs): a version 3 index is read as it is, its
// records without one, and written records gain it.
const SchemaVersion = 4

// rebuildBelow is the oldest schema whose bleve indexes this build
// searches as they are; older ones are rebuilt from the store on open.
const rebuildBelow = 3

// Store buckets and meta keys.
var (
	bucketDocs     = []byte("docs")     // id -> record
	bucketChildren = []byte("children") // parent 0x00 child -> nil
	bucketLog      = []byte("log")      // seq (8 bytes BE) -> ids joined by 0x00
	bucketMeta     = []byte("meta")     // key -> uvarint or bytes
	bucketLinks    = []byte("links")    // to 0x00 from 0x00 type -> nil

	metaSchema      = []byte("schema")
	metaDim         = []byte("dim") // the dimension of every vector
	metaSeq         = []byte("seq")
	metaDocs        = []byte("docs")
	metaTitleTokens = []byte("tokens.title")
	metaBodyTokens  = []byte("tokens.body")
	metaTitleBytes  = []byte("bytes.title")
	metaBodyBytes   = []byte("bytes.body")
	metaUpdated     = []byte("updated")
	metaLanguage    = []byte("language") // the text index's, made at creation; none: English
	// metaPairsSince is the first write whose records' pairs filters
	// (record.Header.Pairs) this build's analysis made: an index whose
	// bleve indexes were rebuilt for a changed analysis keeps its
	// records, and their filters of the old terms are not asked.
	metaPairsSince = []byte("pairs.since")

	// internalSeq is the last write-log sequence number a bleve index has
	// applied, written in the same bleve batch as the documents.
	internalSeq = []byte("twindex.seq")
)

// Index is a twindex search index: a document store and two bleve indexes
// derived from it, one of stemmed words (the text leg) and one of
// character trigrams (the substring leg).
//
// An Index is safe for concurrent use. Searches run concurrently with each
// other and with writes; writes are serialized. Each search sees the state
// before or after a write, never part of one, and never waits for a write:
// it reads the last state a write published (see view).
type Index struct {
	opts  Options
	dir   string // "" for memory
	store storage.Store
	text  bleveindex.Index
	tri   bleveindex.Index
	queue *bleveindex.AnalysisQueue

	textA *tokenize.Text
	triA  *tokenize.Trigram
	fold  *record.FoldCache
	// textIDs and triIDs remember the external IDs of the bleve indexes'
	// latest snapshots.
	textIDs, triIDs backend.IDs
	// join maps the trigram index's doc numbers to the text index's, for
	// the latest pair of states searches fused.
	join *backend.Join
	// lengths remembers the trigram index's fieldLength postings of its
	// latest snapshot, read whole.
	lengths *backend.Whole
	// words remembers textA's analysis of the words that snippets look
	// at; textA is set before the first search and never changes.
	words snippet.Words

	// writeMu serializes writes (Apply, Optimize, Rebuild, Close) from
	// their start to the publication of their view.
	writeMu sync.Mutex
	// mu guards closed, stale, view and the backends' identity: writers
	// hold it briefly to publish a view, searches to take one.
	mu   sync.RWMutex
	view *view
	// stale is set when a committed batch failed to reach a bleve index;
	// the next write first replays the log. Searches go on reading the
	// view before that batch.
	stale  error
	closed bool
	// damage is the first panic guard recovered from bleve; see ready.
	damage atomic.Pointer[CorruptError]
	// unflushed is set once this process gives a bleve index a batch or a
	// merge: Close then waits until scorch has persisted it. A process
	// that only searched (a CLI search) has nothing to persist, and skips
	// the wait and the writes it costs.
	unflushed atomic.Bool

	// vecs holds the documents' vectors for vector search, built from the
	// store on the first such search (under writeMu) and kept in step by
	// every write after that, as it publishes its view; nil until then. A
	// search on the view before may meet a write's new vectors, never its
	// new documents (the vector leg keeps only those of its view).
	vecs atomic.Pointer[vector.Set]

	// pause, set by the package's tests, runs in Apply after the store's
	// commit ("store") and after the bleve batches ("indexes"), before the
	// write is published.
	pause func(step string)
	// textScores, set by the package's tests, makes the substring leg
	// score every candidate from its text, as indexScores must agree with.
	textScores bool
	// analyzeRuns, set by the package's tests, makes the text leg judge
	// every quoted phrase by its words' positions, as record.Folded.HasRun must agree
	// with.
	analyzeRuns bool
}

// readOnlyMaxSegments is the most segments a bleve index may have to be
// opened read-only: bleve's merge plan merges the smallest segments once
// there are more than ten of them, so a writer keeps about that many. A
// variable for the package's tests.
var readOnlyMaxSegments = 10

const (
	storeFile  = "store.db"
	textDir    = "text"
	trigramDir = "trigram"
	// checkedFile records the store file's state when Open last walked
	// its pages clean, or a writer's clean Close left it after commits to
	// such a state (storage.Options.CheckRecord).
	checkedFile = "store.checked"
)

// OpenMemory returns an empty index held in memory, on Compact unless
// Options.Backend says otherwise.
func OpenMemory(opts *Options) (*Index, error) {
	memory := opts == nil || opts.Backend == ""
	o := opts.WithDefaults()
	if memory {
		o.Backend = Compact
	}
	return open("", storage.NewMemory(&storage.Options{Fault: o.fault}), o)
}

func open(dir string, st storage.Store, o Options) (*Index, error) {
	ix := &Index{
		opts: o, dir: dir, store: st,
		queue:   bleveindex.NewAnalysisQueue(o.Workers),
		triA:    tokenize.NewTrigram(),
		fold:    record.NewFoldCache(o.CacheBytes),
		lengths: backend.NewWhole(fieldLength, lengthTerm),
		join:    new(backend.Join),
	}
	fail := func(err error) (*Index, error) {
		ix.closeBackends()
		st.Close()
		ix.queue.Close()
		if dir != "" {
			return nil, fmt.Errorf("open %s: %w", dir, err)
		}
		return nil, fmt.Errorf("open: %w", err)
	}
	had, err := ix.checkSchema()
	if err != nil {
		return fail(err)
	}
	if ix.textA, err = ix.language(had); err != nil {
		return fail(err)
	}
	if had < rebuildBelow && dir != "" {
		// Empty indexes replay the whole store (recover, below), and only
		// then is the new version written, so a crash before that
		// rebuilds them again.
		for _, name := range []string{textDir, trigramDir} {
			if err := os.RemoveAll(ix.subdir(name)); err != nil {
				return fail(err)
			}
		}
	}
	if ix.text, err = ix.openBackend(textDir); err != nil {
		return fail(fmt.Errorf("text index: %w", err))
	}
	if ix.tri, err = ix.openBackend(trigramDir); err != nil {
		return fail(fmt.Errorf("trigram index: %w", err))
	}
	if err := ix.recover(context.Background()); err != nil {
		return fail(err)
	}
	if o.ReadOnly {
		// Only a writer runs scorch's merger, and only while it lives: a
		// short one may leave segments behind for a reader to meet.
		if n, m := backend.Segments(ix.text), backend.Segments(ix.tri); n > readOnlyMaxSegments || m > readOnlyMaxSegments {
			return fail(fmt.Errorf("%w: its indexes have %d and %d segments to merge", ErrReadOnly, n, m))
		}
	} else if err := ix.writeSchema(had); err != nil {
		return fail(err)
	}
	return ix, nil
}

// openBackend opens one bleve index; with Options.RebuildCorrupt, a
// corrupt one is replaced by an empty index, which recover then fills from
// the store.
func (ix *Index) openBackend(name string) (bleveindex.Index, error) {
	o := &backend.Options{BulkLoad: ix.opts.BulkLoad, ReadOnly: ix.opts.ReadOnly}
	idx, err := newBackend(ix.opts.Backend, ix.subdir(name), ix.queue, o)
	if err == nil || !ix.opts.RebuildCorrupt || !errors.Is(err, ErrCorrupt) || ix.dir == "" || ix.opts.ReadOnly {
		return idx, err
	}
	if err := os.RemoveAll(ix.subdir(name)); err != nil {
		return nil, err
	}
	return newBackend(ix.opts.Backend, ix.subdir(name), ix.queue, o)
}

func (ix *Index) subdir(name string) string {
	if ix.dir == "" {
		return ""
	}
	return filepath.Join(ix.dir, name)
}

// checkSchema returns the schema version the store records, 0 for a new
// store, or ErrNewerSchema; with Options.ReadOnly, ErrReadOnly for a new
// store or one whose bleve indexes only a writer can bring up to date
// (rebuildBelow).
func (ix *Index) checkSchema() (uint64, error) {
	var n uint64
	err := ix.store.View(func(tx storage.Tx) error {
		if v := tx.Get(bucketMeta, metaSchema); v != nil {
			n, _ = binary.Uvarint(v)
		}
		return nil
	})
	switch {
	case err != nil:
	case n > SchemaVersion:
		err = fmt.Errorf("%w: index has %d, this build reads up to %d", ErrNewerSchema, n, SchemaVersion)
	case n < rebuildBelow && ix.opts.ReadOnly:
		err = fmt.Errorf("%w: the index is new or of schema %d", ErrReadOnly, n)
	}
	return n, err
}

// writeSchema records SchemaVersion in a store that had version had, once
// the index is what that version promises, and in a new store (had 0) its
// language; in a store whose bleve indexes were rebuilt (had below
// rebuildBelow), that its records' pairs filters are of another analysis
// (metaPairsSince). Version 1 records are read as they are; the mark
// makes a build that reads only version 1 refuse them.
func (ix *Index) writeSchema(had uint64) error {
	if had == SchemaVersion {
		return nil
	}
	return ix.store.Update(func(tx storage.Tx) error {
		if had == 0 {
			if err := tx.Put(bucketMeta, metaLanguage, []byte(ix.textA.Lang())); err != nil {
				return err
			}
		} else if had < rebuildBelow {
			if err := putUint(tx, metaPairsSince, getUint(tx, metaSeq)+1); err != nil {
				return err
			}
		}
		return tx.Put(bucketMeta, metaSchema, binary.AppendUvarint(nil, SchemaVersion))
	})
}

func (ix *Index) closeBackends() error {
	var errs []error
	for i, b := range []bleveindex.Index{ix.text, ix.tri} {
		if b != nil {
			errs = append(errs, b.Close())
			backend.PersistError(ix.subdir([]string{textDir, trigramDir}[i])) // a report from closing
		}
	}
	return errors.Join(errs...)
}

// Close flushes and closes the index, after the searches and writes under
// way. Calls after Close return ErrClosed.
func (ix *Index) Close() error {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.Lock()
	if ix.closed {
		ix.mu.Unlock()
		return nil
	}
	ix.closed = true
	ix.mu.Unlock()
	ix.publish(nil)
	// A damaged index is not flushed: the flush could block on the
	// damaged segment, and the next Open replays the log.
	var flushErr error
	if ce := ix.damage.Load(); ce != nil {
		flushErr = ce
	} else {
		flushErr = ix.flush()
	}
	err := errors.Join(flushErr, ix.closeBackends(), ix.store.Close())
	ix.queue.Close()
	return err
}

// flushTimeout bounds how long Close waits for scorch to persist. Close
// gives up sooner, flushGrace after scorch first reports a failure to
// write its files (a full disk): scorch retries forever, and the store's
// log already holds what it could not write.
const (
	flushTimeout = 2 * time.Minute
	flushGrace   = time.Second
	flushPoll    = 100 * time.Millisecond
)

// storedSeq is the sequence number of the store's last write.
func (ix *Index) storedSeq() (uint64, error) {
	var seq uint64
	err := ix.store.View(func(tx storage.Tx) error {
		seq = getUint(tx, metaSeq)
		return nil
	})
	return seq, err
}

// LastWrite returns the sequence number of the store's last write and
// when it was made (0 and the zero time before any): every write changes
// both, so together they name the store's state, for a cache of what was
// derived from it (package folder's record of the last sync). Cost: two
// reads of the store.
func (ix *Index) LastWrite() (seq uint64, at time.Time, err error) {
	err = ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		seq, at = lastWrite(tx)
		return nil
	})
	return seq, at, err
}

// lastWrite is LastWrite in tx.
func lastWrite(tx storage.Tx) (seq uint64, at time.Time) {
	if ns := getUint(tx, metaUpdated); ns != 0 {
		at = time.Unix(0, int64(ns)).UTC()
	}
	return getUint(tx, metaSeq), at
}

// flush waits until both on-disk bleve indexes have persisted everything
// applied so far, so that the next Open has nothing to replay. scorch
// persists in the background and its Close does not wait for that; a
// batch with a persisted callback, which scorch calls in order, does.
func (ix *Index) flush() error {
	if ix.dir == "" || ix.stale != nil || !ix.unflushed.Load() {
		return nil
	}
	seq, err := ix.storedSeq()
	if err != nil {
		return err
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, idx := range []bleveindex.Index{ix.text, ix.tri} {
		dir := ix.subdir([]string{textDir, trigramDir}[i])
		wg.Go(func() {
			defer ix.guard(&errs[i])
			done := make(chan error, 1)
			b := bleveindex.NewBatch()
			b.SetInternal(internalSeq, seqKey(seq))
			b.SetPersistedCallback(func(err error) { done <- err })
			backend.PersistError(dir) // forget failures from before this batch
			if err := idx.Batch(b); err != nil {
				errs[i] = err
				return
			}
			tick := time.NewTicker(flushPoll)
			defer tick.Stop()
			deadline := time.After(flushTimeout)
			var failed error
			var giveUp <-chan time.Time // set by the first failure
			for {
				select {
				case errs[i] = <-done:
					return
				case <-deadline:
					errs[i] = fmt.Errorf("flush %s: not persisted after %v (the next Open replays the log)", dir, flushTimeout)
					return
				case <-giveUp:
					errs[i] = fmt.Errorf("flush %s: not persisted (the next Open replays the log): %w", dir, failed)
					return
				case <-tick.C:
					if err := backend.PersistError(dir); err != nil {
						failed = err
						if giveUp == nil {
							giveUp = time.After(flushGrace)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Get returns the stored document with the given ID, or ErrNotFound.
func (ix *Index) Get(id string) (*Doc, error) {
	var d *Doc
	err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		v := tx.Get(bucketDocs, []byte(id))
		if v == nil {
			return fmt.Errorf("get %q: %w", id, ErrNotFound)
		}
		var err error
		d, _, err = decodeDoc(id, v, true)
		return err
	})
	return d, err
}

// Count returns the number of documents.
func (ix *Index) Count() (int, error) {
	var n uint64
	err := ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		n = getUint(tx, metaDocs)
		return nil
	})
	return int(n), err
}

// Walk calls fn for every stored document in ID order until fn returns an
// error, which Walk returns. Walk reads one state of the index while writes
// go on; fn must not write to the index, whose store may wait for Walk's
// transaction to end.
func (ix *Index) Walk(ctx context.Context, fn func(*Doc) error) error {
	return ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		return eachDoc(ctx, tx, true, func(d *Doc, _ uint64) error { return fn(d) })
	})
}

// WalkMeta calls fn with the ID of every stored document, in ID order,
// and the values its Meta holds for keys (nil where it holds none), until
// fn returns an error, which WalkMeta returns; it reads one state of the
// index, as Walk does. id and vals point into the store and are valid only
// during the call. It is for callers that compare a few values across
// many documents (a folder sync: each file's size, time and hash).
//
// Cost: a pass over each record's small fields, with no allocation per
// document (a sync of the Go tree's 12,487 files spent 20 ms of CPU
// decoding them whole, as Walk does).
func (ix *Index) WalkMeta(ctx context.Context, keys []string, fn func(id []byte, vals [][]byte) error) error {
	vals := make([][]byte, len(keys))
	return ix.read(readsStore, func(_, _ bleveindex.IndexReader, tx storage.Tx) error {
		n := 0
		return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			if n++; n%256 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if err := record.MetaValues(v, keys, vals); err != nil {
				return fmt.Errorf("document %q: %w", k, err)
			}
			return fn(k, vals)
		})
	})
}

func getUint(tx storage.Tx, key []byte) uint64 {
	v, _ := binary.Uvarint(tx.Get(bucketMeta, key))
	return v
}

func putUint(tx storage.Tx, key []byte, v uint64) error {
	return tx.Put(bucketMeta, key, binary.AppendUvarint(nil, v))
}

// Dir is the index's directory, "" for a memory index.
func (ix *Index) Dir() string { return ix.dir }
