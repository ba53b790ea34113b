package server

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// Engine is an index as the tools and the CLI use it. Two kinds exist: a
// Host holds the index open in this process; a Client sends each call to
// the process that holds it (its Owner), over the local endpoint. Both
// answer alike, errors included: a Client's errors match the same
// sentinels (index.ErrNotFound, folder.ErrOutsideRoot, ...) and carry the
// same messages.
//
// An Engine is safe for concurrent use.
type Engine interface {
	Search(ctx context.Context, req index.Request) (*index.Result, error)
	Get(id string) (*index.Doc, error)
	Links(id string) ([]index.Link, error)
	Backlinks(id string, types ...string) ([]index.Backlink, error)
	Stats() (*index.Stats, error)
	// Write makes w's writes, all or none; it returns when they are
	// durable.
	Write(ctx context.Context, w *Writes) (index.Applied, error)
	Check(ctx context.Context) (*index.Report, error)
	Optimize(ctx context.Context) error
	// Sync brings the index up to date with the files under scope, an
	// absolute path under the root ("" for the root), as folder.Sync.
	// It fails with ErrNoRoot when the index mirrors no folder.
	Sync(ctx context.Context, scope string, progress func(done, total int)) (*folder.Report, error)
	Info() Info
	Close() error
}

// Writes are the writes of one Engine.Write.
type Writes struct {
	Upsert []index.Doc `json:"upsert,omitempty"` // added or replaced
	Add    []index.Doc `json:"add,omitempty"`    // new: index.ErrExists if one exists
	Remove []string    `json:"remove,omitempty"` // absent IDs are ignored
}

// Info describes the index an Engine serves.
type Info struct {
	Dir      string `json:"dir"`                // the index directory
	Root     string `json:"root,omitempty"`     // the folder it mirrors; "" for none
	MaxSize  int64  `json:"maxSize"`            // files over this many bytes are skipped
	Reranker bool   `json:"reranker,omitempty"` // the index has an index.Options.Reranker
}

// HostOptions configure a Host; nil means defaults.
type HostOptions struct {
	// Root is the absolute folder the index mirrors, fixed for the
	// Host's life: file IDs are relative to it and Sync refuses paths
	// outside it. "" means none: the index holds only documents written
	// to it.
	Root string
	// MaxSize is the size over which Sync skips a file; 0 means
	// folder.DefaultMaxSize.
	MaxSize int64
	// Reranker says that the index was opened with an
	// index.Options.Reranker: searches may ask for reranking.
	Reranker bool
}

// Host is the Engine of an index open in this process.
//
// Concurrency: every method may be called from any goroutine. Syncs are
// serialized among themselves: each diffs a folder against the index and
// must not interleave with another.
type Host struct {
	ix   *index.Index
	info Info

	syncMu sync.Mutex // held for the whole of a sync
	// writes counts the calls of Write: writes other than a sync's,
	// which may leave the index unlike the folder (a removed file's
	// document while the file stays) until a walk of it.
	writes atomic.Uint64
}

// NewHost makes the Engine of ix, which it owns from now on: Close
// closes it.
func NewHost(ix *index.Index, o *HostOptions) *Host {
	if o == nil {
		o = &HostOptions{}
	}
	h := &Host{ix: ix, info: Info{Dir: ix.Dir(), Root: o.Root, MaxSize: o.MaxSize, Reranker: o.Reranker}}
	if h.info.MaxSize <= 0 {
		h.info.MaxSize = folder.DefaultMaxSize
	}
	return h
}

// Index is the index the Host holds.
func (h *Host) Index() *index.Index { return h.ix }

// Search runs a query; see index.Index.Search.
func (h *Host) Search(ctx context.Context, req index.Request) (*index.Result, error) {
	return h.ix.Search(ctx, req)
}

// Get returns a stored document or index.ErrNotFound.
func (h *Host) Get(id string) (*index.Doc, error) { return h.ix.Get(id) }

// Links returns the links of a document as written.
func (h *Host) Links(id string) ([]index.Link, error) { return h.ix.Links(id) }

// Backlinks returns the links into id.
func (h *Host) Backlinks(id string, types ...string) ([]index.Backlink, error) {
	return h.ix.Backlinks(id, types...)
}

// Stats counts documents and measures the index.
func (h *Host) Stats() (*index.Stats, error) { return h.ix.Stats() }

// Write applies w as one batch.
func (h *Host) Write(ctx context.Context, w *Writes) (index.Applied, error) {
	h.writes.Add(1)
	var b index.Batch
	for _, d := range w.Add {
		b.Add(d)
	}
	for _, d := range w.Upsert {
		b.Upsert(d)
	}
	b.Remove(w.Remove...)
	return h.ix.Apply(ctx, &b)
}

// Check verifies that the store and both indexes agree.
func (h *Host) Check(ctx context.Context) (*index.Report, error) { return h.ix.Check(ctx) }

// Optimize merges segments and compacts the store.
func (h *Host) Optimize(ctx context.Context) error { return h.ix.Optimize(ctx) }

// Sync brings the index up to date with the files under scope. A
// relative scope is relative to the root. Cost: folder.Sync's, after
// any sync in progress.
func (h *Host) Sync(ctx context.Context, scope string, progress func(done, total int)) (*folder.Report, error) {
	return h.SyncWalked(ctx, scope, nil, progress)
}

// SyncWalked is Sync taking walk, what a sync on the index opened
// read-only found (folder.ReadOnlyError), instead of walking the folder
// again when it is of the same scope.
func (h *Host) SyncWalked(ctx context.Context, scope string, walk *folder.Walk, progress func(done, total int)) (*folder.Report, error) {
	if scope == "" {
		return h.sync(ctx, progress, walk)
	}
	return h.sync(ctx, progress, walk, scope)
}

// sync syncs scopes, the root when none is given, taking walk if it is
// theirs (folder.Options.Walk).
func (h *Host) sync(ctx context.Context, progress func(done, total int), walk *folder.Walk, scopes ...string) (*folder.Report, error) {
	root := h.info.Root
	if root == "" {
		return &folder.Report{}, ErrNoRoot
	}
	for i, s := range scopes {
		if !filepath.IsAbs(s) {
			scopes[i] = filepath.Join(root, s)
		}
	}
	h.syncMu.Lock()
	defer h.syncMu.Unlock()
	return folder.Sync(ctx, h.ix, &folder.Options{Root: root, IndexDir: h.info.Dir, MaxSize: h.info.MaxSize, Progress: progress, Walk: walk}, scopes...)
}

// Info describes the index.
func (h *Host) Info() Info { return h.info }

// Close closes the index.
func (h *Host) Close() error { return h.ix.Close() }
