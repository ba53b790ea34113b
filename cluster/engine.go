//go:build !js

package cluster

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

var _ server.Engine = (*Node)(nil)

// shardHandlers are the calls a node answers for its shards.
func (n *Node) shardHandlers() map[string]handler {
	h := map[string]handler{
		"get": func(ctx context.Context, sh *shard, args json.RawMessage) (any, error) {
			var id string
			if err := json.Unmarshal(args, &id); err != nil {
				return nil, err
			}
			return sh.ix.Get(id)
		},
		"links": func(ctx context.Context, sh *shard, args json.RawMessage) (any, error) {
			var id string
			if err := json.Unmarshal(args, &id); err != nil {
				return nil, err
			}
			return sh.ix.Links(id)
		},
		"backlinks": func(ctx context.Context, sh *shard, args json.RawMessage) (any, error) {
			var a backlinksArgs
			if err := json.Unmarshal(args, &a); err != nil {
				return nil, err
			}
			return sh.ix.Backlinks(a.ID, a.Types...)
		},
		"stats": func(ctx context.Context, sh *shard, _ json.RawMessage) (any, error) {
			return sh.ix.Stats()
		},
		"check": func(ctx context.Context, sh *shard, _ json.RawMessage) (any, error) {
			return sh.ix.Check(ctx)
		},
	}
	searchHandlers(h)
	return h
}

type backlinksArgs struct {
	ID    string   `json:"id"`
	Types []string `json:"types,omitempty"`
}

// Get returns a stored document from a replica of its shard, or
// index.ErrNotFound.
func (n *Node) Get(id string) (*index.Doc, error) {
	var d *index.Doc
	args, _ := json.Marshal(id)
	_, err := n.callShard(n.ctx, shardOf(id, n.shards), "", call{Op: "get", Args: args}, &d)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Links returns the links of a document as written.
func (n *Node) Links(id string) ([]index.Link, error) {
	var out []index.Link
	args, _ := json.Marshal(id)
	_, err := n.callShard(n.ctx, shardOf(id, n.shards), "", call{Op: "links", Args: args}, &out)
	return out, err
}

// Backlinks returns the links into id, from every shard: a link is
// stored with the document it comes from.
func (n *Node) Backlinks(id string, types ...string) ([]index.Backlink, error) {
	rs := fanOut[[]index.Backlink](n.ctx, n, call{Op: "backlinks"}, nil, func(int) any { return backlinksArgs{id, types} })
	var out []index.Backlink
	for _, r := range rs {
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, r.val...)
	}
	slices.SortFunc(out, func(a, b index.Backlink) int {
		if c := cmp.Compare(a.From, b.From); c != 0 {
			return c
		}
		return cmp.Compare(a.Type, b.Type)
	})
	return out, nil
}

// Stats adds up the shards' statistics, one replica of each: documents,
// kinds, sizes (of one copy of the data) and segments. Seq is the
// stream's last sequence; Language is the shards' (made with the same
// index.Options).
func (n *Node) Stats() (*index.Stats, error) {
	rs := fanOut[*index.Stats](n.ctx, n, call{Op: "stats"}, nil, nil)
	out := &index.Stats{Kinds: map[string]int{}}
	for _, r := range rs {
		if r.err != nil {
			return nil, r.err
		}
		s := r.val
		out.Docs += s.Docs
		out.Language = s.Language
		for k, v := range s.Kinds {
			out.Kinds[k] += v
		}
		out.StoreBytes += s.StoreBytes
		out.TextBytes += s.TextBytes
		out.TrigramBytes += s.TrigramBytes
		out.TextSegments += s.TextSegments
		out.TrigramSegments += s.TrigramSegments
		if s.Updated.After(out.Updated) {
			out.Updated = s.Updated
		}
	}
	seq, err := n.app.lastSeq(n.ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	out.Seq = seq
	return out, nil
}

// Check checks one replica of every shard and adds up the reports; the
// sequences are sums, so the report is OK only when every shard's is.
func (n *Node) Check(ctx context.Context) (*index.Report, error) {
	rs := fanOut[*index.Report](ctx, n, call{Op: "check"}, nil, nil)
	out := &index.Report{}
	for _, r := range rs {
		if r.err != nil {
			return nil, r.err
		}
		out.Docs += r.val.Docs
		out.Seq += r.val.Seq
		out.BadPairs = append(out.BadPairs, r.val.BadPairs...)
		out.BadPairsN += len(r.val.BadPairs) // the uncapped count does not cross the shards' calls
		for _, leg := range []struct{ to, from *index.LegReport }{{&out.Text, &r.val.Text}, {&out.Trigram, &r.val.Trigram}} {
			leg.to.Docs += leg.from.Docs
			leg.to.Seq += leg.from.Seq
			leg.to.Missing = append(leg.to.Missing, leg.from.Missing...)
			leg.to.Extra = append(leg.to.Extra, leg.from.Extra...)
			leg.to.Changed = append(leg.to.Changed, leg.from.Changed...)
			leg.to.MissingN += len(leg.from.Missing)
			leg.to.ExtraN += len(leg.from.Extra)
			leg.to.ChangedN += len(leg.from.Changed)
		}
	}
	return out, nil
}

// Optimize merges the segments of every shard this node holds. Each
// node optimizes its own: run it on each.
func (n *Node) Optimize(ctx context.Context) error {
	held, _ := n.heldShards()
	for _, sh := range held {
		if err := sh.ix.Optimize(ctx); err != nil {
			return fmt.Errorf("shard %d: %w", sh.id, err)
		}
	}
	return nil
}

// Sync fails with server.ErrNoRoot: a cluster holds the documents
// written to it, not a folder.
func (n *Node) Sync(context.Context, string, func(done, total int)) (*folder.Report, error) {
	return &folder.Report{}, server.ErrNoRoot
}

// Info describes the node's data directory.
func (n *Node) Info() server.Info {
	return server.Info{Dir: n.opts.Dir, MaxSize: folder.DefaultMaxSize}
}

// Write makes w's writes through the stream and returns once the stream
// has them. Within a write, later operations on an ID override earlier
// ones, as in an index.Batch (adds, then upserts, then removes). An add
// of an ID that exists fails with index.ErrExists, and Removed counts
// the removed documents that existed: both are decided against the
// stream, which refuses the write if one of those documents changed
// meanwhile (the write is then decided again).
func (n *Node) Write(ctx context.Context, w *server.Writes) (index.Applied, error) {
	maxDoc := 0
	if n.opts.Index != nil {
		maxDoc = n.opts.Index.MaxDocBytes
	}
	if maxDoc <= 0 {
		maxDoc = 1 << 20
	}
	type op struct {
		add, remove bool
		doc         index.Doc
	}
	var ops []op
	for _, d := range w.Add {
		ops = append(ops, op{add: true, doc: d})
	}
	for _, d := range w.Upsert {
		ops = append(ops, op{doc: d})
	}
	for _, id := range w.Remove {
		if id == "" {
			return index.Applied{}, fmt.Errorf("%w: remove: empty ID", index.ErrInvalidDoc)
		}
		ops = append(ops, op{remove: true, doc: index.Doc{ID: id}})
	}
	for i := range ops {
		if !ops[i].remove {
			if err := index.CheckDoc(&ops[i].doc, maxDoc); err != nil {
				return index.Applied{}, err
			}
		}
	}
	for attempt := 0; ; attempt++ {
		// The documents whose outcome depends on what exists: their last
		// message now, to decide and to expect.
		last := map[string]uint64{}
		exists := map[string]bool{}
		for _, o := range ops {
			if (o.add || o.remove) && !hasKey(last, o.doc.ID) {
				seq, ok, err := n.lastState(ctx, o.doc.ID)
				if err != nil {
					return index.Applied{}, err
				}
				last[o.doc.ID], exists[o.doc.ID] = seq, ok
			}
		}
		var a index.Applied
		final := map[string]*op{}
		var order []string
		for i := range ops {
			o := &ops[i]
			id := o.doc.ID
			_, seen := final[id]
			if !seen {
				order = append(order, id)
			}
			switch {
			case o.add && exists[id] && !seen:
				return index.Applied{}, fmt.Errorf("add %q: %w", id, index.ErrExists)
			case o.remove:
				if f := final[id]; (f != nil && !f.remove) || (f == nil && exists[id]) {
					a.Removed++
				}
			default:
				a.Written++
			}
			final[id] = o
		}
		var msgs []*nats.Msg
		for _, id := range order {
			o := final[id]
			e := &entry{}
			if o.remove {
				e.ID = id
			} else {
				e.Doc = &o.doc
			}
			data, err := encodeEntry(e)
			if err != nil {
				return index.Applied{}, err
			}
			m := &nats.Msg{Subject: subjectOf(id, n.shards), Data: data, Header: nats.Header{}}
			if seq, ok := last[id]; ok {
				m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(seq, 10))
			}
			msgs = append(msgs, m)
		}
		if len(msgs) == 0 {
			return a, nil
		}
		seq, err := n.app.append(ctx, msgs)
		a.Seq = seq
		var api *jetstream.APIError
		if errors.As(err, &api) && api.ErrorCode == errCodeWrongLastSeq && attempt < 5 {
			continue // one of the documents changed since it was read
		}
		if err != nil {
			return index.Applied{}, fmt.Errorf("write: %w", err)
		}
		return a, nil
	}
}

func hasKey(m map[string]uint64, k string) bool {
	_, ok := m[k]
	return ok
}

// lastState returns the sequence of a document's last message (0 if it
// has none) and whether the document exists after it.
func (n *Node) lastState(ctx context.Context, id string) (uint64, bool, error) {
	m, ok, err := getMsg(ctx, n.nc, 0, "", subjectOf(id, n.shards))
	if err != nil {
		return 0, false, fmt.Errorf("%w: read %q from the stream: %w", ErrUnavailable, id, err)
	}
	if !ok {
		return 0, false, nil
	}
	e, err := decodeEntry(m.Data)
	if err != nil {
		return 0, false, fmt.Errorf("stream message %d: %w", m.Seq, err)
	}
	return m.Seq, e.Doc != nil, nil
}
