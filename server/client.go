package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// dialTimeout bounds Dial's first request: a live Owner answers at once.
const dialTimeout = 2 * time.Second

// Client is the Engine of an index that another process owns: each call
// is a request to the Owner's local endpoint. Calls made while the Owner
// is starting wait until it is ready (or ctx ends; Get, Links, Backlinks
// and Stats, which take no ctx, wait as long as it takes).
//
// A Client is safe for concurrent use.
type Client struct {
	owned *Owned
	hc    *http.Client

	// Starting, if set, is called once, when a call first finds the Owner
	// starting (and so waits): to tell a person why nothing happens.
	Starting func()
	once     sync.Once
}

// Dial connects to the process that owns the index in dir. It returns
// ErrNoOwner when none does (and any owner file is stale: its endpoint
// does not answer), and ErrProtocol (wrapped) for an Owner of another
// version.
func Dial(dir string) (*Client, error) {
	o, err := readOwned(dir)
	if err != nil {
		return nil, err
	}
	if o.Protocol != protocol {
		return nil, fmt.Errorf("%w: twindex %s (pid %d) serves %s; run the same version, or stop it", ErrProtocol, o.Version, o.PID, dir)
	}
	sock := o.Socket
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     30 * time.Second,
	}
	c := &Client{owned: o, hc: &http.Client{Transport: tr}}
	// An answer, even "starting", says the owner lives: a socket can take
	// a connection while its dying owner's files are being closed.
	ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
	defer cancel()
	if err := c.do(ctx, http.MethodGet, "/engine/info", nil, nil); err != nil && !errors.Is(err, ErrStarting) {
		c.Close()
		return nil, ErrNoOwner
	}
	return c, nil
}

// Owned says which process owns the index and where it serves it.
func (c *Client) Owned() Owned { return *c.owned }

// call sends in as JSON to path on the Owner and decodes its answer into
// out. It waits while the Owner is starting.
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	for {
		err := c.do(ctx, method, path, body, out)
		if !errors.Is(err, ErrStarting) {
			return err
		}
		if c.Starting != nil {
			c.once.Do(c.Starting)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, "http://twindex"+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w (pid %d): %w", ErrUnreachable, c.owned.PID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var eb errorBody
		b, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(b, &eb); err != nil || eb.Error.Code == "" {
			return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(b))
		}
		return decodeError(eb.Error)
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w (pid %d): %w", ErrUnreachable, c.owned.PID, err)
	}
	return nil
}

// fetch is call for a result of type T: nil with an error.
func fetch[T any](ctx context.Context, c *Client, method, path string, in any) (*T, error) {
	var out T
	if err := c.call(ctx, method, path, in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Search runs a query on the Owner's index.
func (c *Client) Search(ctx context.Context, req index.Request) (*index.Result, error) {
	return fetch[index.Result](ctx, c, http.MethodPost, "/engine/search", toWire(req))
}

// Get returns a stored document or index.ErrNotFound.
func (c *Client) Get(id string) (*index.Doc, error) {
	return fetch[index.Doc](context.Background(), c, http.MethodPost, "/engine/get", idArgs{ID: id})
}

// Links returns the links of a document as written.
func (c *Client) Links(id string) ([]index.Link, error) {
	l, err := fetch[[]index.Link](context.Background(), c, http.MethodPost, "/engine/links", idArgs{ID: id})
	if err != nil {
		return nil, err
	}
	return *l, nil
}

// Backlinks returns the links into id.
func (c *Client) Backlinks(id string, types ...string) ([]index.Backlink, error) {
	l, err := fetch[[]index.Backlink](context.Background(), c, http.MethodPost, "/engine/backlinks", idArgs{ID: id, Types: types})
	if err != nil {
		return nil, err
	}
	return *l, nil
}

// Stats counts documents and measures the index.
func (c *Client) Stats() (*index.Stats, error) {
	return fetch[index.Stats](context.Background(), c, http.MethodGet, "/engine/stats", nil)
}

// Write sends w to the Owner, which applies it as one batch; it returns
// once the Owner has it durable. A cancelled ctx abandons the answer,
// not the write.
func (c *Client) Write(ctx context.Context, w *Writes) (index.Applied, error) {
	var a index.Applied
	return a, c.call(ctx, http.MethodPost, "/engine/write", w, &a)
}

// Check verifies that the Owner's store and indexes agree.
func (c *Client) Check(ctx context.Context) (*index.Report, error) {
	r, err := fetch[report](ctx, c, http.MethodPost, "/engine/check", nil)
	if err != nil {
		return nil, err
	}
	return r.index(), nil
}

// Optimize merges segments and compacts the store.
func (c *Client) Optimize(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/engine/optimize", nil, nil)
}

// Sync has the Owner bring its index up to date with the files under
// scope. progress is not called: the Owner reports only the end.
func (c *Client) Sync(ctx context.Context, scope string, _ func(done, total int)) (*folder.Report, error) {
	r, err := fetch[folder.Report](ctx, c, http.MethodPost, "/engine/sync", syncArgs{Scope: scope})
	if r == nil {
		r = &folder.Report{}
	}
	return r, err
}

// Info describes the Owner's index.
func (c *Client) Info() Info { return c.owned.Info }

// Close releases the Client's connections; the Owner goes on.
func (c *Client) Close() error {
	c.hc.CloseIdleConnections()
	return nil
}

// idArgs and syncArgs are the bodies of the local endpoint's requests
// about one document and of a sync.
type idArgs struct {
	ID    string   `json:"id"`
	Types []string `json:"types,omitempty"`
}

type syncArgs struct {
	Scope string `json:"scope"`
}
