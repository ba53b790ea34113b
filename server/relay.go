package server

import (
	"context"
	"errors"
	"sync"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// Relay is the Engine of a process that forwards to an index's Owner and
// outlives it: when the Owner stops answering (ErrUnreachable: it exited
// or was killed), the Relay asks take for the index's Engine anew (a
// Client of whichever process owns the index now, or a Host after taking
// it over) and makes the call again, once. Every Engine call may be made
// twice: searches and reads are idempotent, and so are writes, but for
// Writes.Add, which may then fail with index.ErrExists.
//
// A Relay is safe for concurrent use; one take runs at a time.
type Relay struct {
	take func() (Engine, error)

	mu  sync.Mutex
	cur Engine
}

// NewRelay forwards to first, and after it to what take returns.
func NewRelay(first Engine, take func() (Engine, error)) *Relay {
	return &Relay{cur: first, take: take}
}

// engine is the Engine to call now.
func (r *Relay) engine() Engine {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur
}

// replace takes a new Engine in place of failed, unless another call did
// so already.
func (r *Relay) replace(failed Engine) (Engine, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur != failed {
		return r.cur, nil
	}
	e, err := r.take()
	if err != nil {
		return nil, err
	}
	failed.Close()
	r.cur = e
	return e, nil
}

// relay makes a call, and again on a new Engine if the Owner is gone.
func relay[T any](r *Relay, call func(Engine) (T, error)) (T, error) {
	e := r.engine()
	v, err := call(e)
	if !errors.Is(err, ErrUnreachable) {
		return v, err
	}
	next, terr := r.replace(e)
	if terr != nil {
		return v, errors.Join(err, terr)
	}
	return call(next)
}

// Search runs a query.
func (r *Relay) Search(ctx context.Context, req index.Request) (*index.Result, error) {
	return relay(r, func(e Engine) (*index.Result, error) { return e.Search(ctx, req) })
}

// Get returns a stored document.
func (r *Relay) Get(id string) (*index.Doc, error) {
	return relay(r, func(e Engine) (*index.Doc, error) { return e.Get(id) })
}

// Links returns the links of a document.
func (r *Relay) Links(id string) ([]index.Link, error) {
	return relay(r, func(e Engine) ([]index.Link, error) { return e.Links(id) })
}

// Backlinks returns the links into id.
func (r *Relay) Backlinks(id string, types ...string) ([]index.Backlink, error) {
	return relay(r, func(e Engine) ([]index.Backlink, error) { return e.Backlinks(id, types...) })
}

// Stats counts documents and measures the index.
func (r *Relay) Stats() (*index.Stats, error) {
	return relay(r, func(e Engine) (*index.Stats, error) { return e.Stats() })
}

// Write makes w's writes.
func (r *Relay) Write(ctx context.Context, w *Writes) (index.Applied, error) {
	return relay(r, func(e Engine) (index.Applied, error) { return e.Write(ctx, w) })
}

// Check verifies the index.
func (r *Relay) Check(ctx context.Context) (*index.Report, error) {
	return relay(r, func(e Engine) (*index.Report, error) { return e.Check(ctx) })
}

// Optimize merges segments.
func (r *Relay) Optimize(ctx context.Context) error {
	_, err := relay(r, func(e Engine) (struct{}, error) { return struct{}{}, e.Optimize(ctx) })
	return err
}

// Sync brings the index up to date with scope.
func (r *Relay) Sync(ctx context.Context, scope string, progress func(done, total int)) (*folder.Report, error) {
	return relay(r, func(e Engine) (*folder.Report, error) { return e.Sync(ctx, scope, progress) })
}

// Info describes the index.
func (r *Relay) Info() Info { return r.engine().Info() }

// Close closes the current Engine.
func (r *Relay) Close() error { return r.engine().Close() }
