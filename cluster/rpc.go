//go:build !js

package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/twindex/twindex/index"
)

// Subjects of calls to shards: a call to any replica of a shard goes to
// its queue group (NATS picks a subscriber, preferring one on the caller's
// own server); a call pinned to one replica, to the node's own subject.
const (
	anySubject = "twindex.q."  // + SHARD, queue group queueGroup
	oneSubject = "twindex.n."  // + NODE.SHARD
	allSubject = "twindex.all" // every node, no queue group
	queueGroup = "replicas"
)

func anyReplica(shard int) string { return anySubject + strconv.Itoa(shard) }

func oneReplica(node string, shard int) string {
	return oneSubject + node + "." + strconv.Itoa(shard)
}

// call is a request to a shard.
type call struct {
	Op     string          `json:"op"`
	Shard  int             `json:"shard"`
	MinSeq uint64          `json:"minSeq,omitempty"` // answer once the replica has applied this far
	Args   json.RawMessage `json:"args,omitempty"`
}

// reply is a replica's answer.
type reply struct {
	Node string          `json:"node"`
	Err  *wireErr        `json:"err,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// wireErr carries an error across nodes with the sentinel it matches.
type wireErr struct {
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
}

// sentinels are the errors a call's caller may test with errors.Is,
// by wire name.
var sentinels = map[string]error{
	"not_found":       index.ErrNotFound,
	"exists":          index.ErrExists,
	"invalid_doc":     index.ErrInvalidDoc,
	"invalid_request": index.ErrInvalidRequest,
	"empty_query":     index.ErrEmptyQuery,
	"unavailable":     ErrUnavailable,
}

func toWire(err error) *wireErr {
	if err == nil {
		return nil
	}
	for kind, s := range sentinels {
		if errors.Is(err, s) {
			return &wireErr{kind, err.Error()}
		}
	}
	return &wireErr{"", err.Error()}
}

// remoteError is an error a replica returned.
type remoteError struct {
	msg string
	is  error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.is }

func (w *wireErr) err() error {
	if w == nil {
		return nil
	}
	return &remoteError{w.Msg, sentinels[w.Kind]}
}

// handler answers one call on a shard.
type handler func(ctx context.Context, sh *shard, args json.RawMessage) (any, error)

// serveShard subscribes the shard to its calls: its queue group and this
// node's subject for it.
func (n *Node) serveShard(sh *shard) error {
	for _, sub := range []struct{ subj, queue string }{
		{anyReplica(sh.id), queueGroup},
		{oneReplica(n.opts.Name, sh.id), ""},
	} {
		s, err := n.nc.QueueSubscribe(sub.subj, sub.queue, func(m *nats.Msg) { n.dispatch(sh, m) })
		if err != nil {
			return err
		}
		n.mu.Lock()
		n.subs = append(n.subs, s)
		n.mu.Unlock()
	}
	return n.nc.Flush()
}

// dispatch answers a call on its own goroutine: NATS runs a
// subscription's callbacks one after the other, and a search must not
// hold back the next call.
func (n *Node) dispatch(sh *shard, m *nats.Msg) {
	select {
	case n.work <- struct{}{}:
	default:
		n.respond(m, nil, fmt.Errorf("%w: node %s is busy", ErrUnavailable, n.opts.Name))
		return
	}
	n.wg.Go(func() {
		defer func() { <-n.work }()
		var c call
		if err := json.Unmarshal(m.Data, &c); err != nil {
			n.respond(m, nil, fmt.Errorf("bad call: %w", err))
			return
		}
		v, err := n.answer(n.ctx, sh, &c)
		n.respond(m, v, err)
	})
}

// answer runs a call on a shard of this node.
func (n *Node) answer(ctx context.Context, sh *shard, c *call) (any, error) {
	h := n.handlers[c.Op]
	if h == nil {
		return nil, fmt.Errorf("unknown call %q (a node of another version?)", c.Op)
	}
	ctx, cancel := context.WithTimeout(ctx, n.opts.CallTimeout)
	defer cancel()
	if c.MinSeq > 0 {
		if err := n.catchUp(ctx, sh, c.MinSeq); err != nil {
			return nil, err
		}
	}
	return h(ctx, sh, c.Args)
}

// catchUp waits until the shard shows every write up to seq: until it
// has applied the shard's last message at or before seq.
func (n *Node) catchUp(ctx context.Context, sh *shard, seq uint64) error {
	for sh.applied.Load() < seq {
		next, err := nextOnShard(ctx, n.nc, sh.id, sh.applied.Load()+1)
		if err != nil {
			return fmt.Errorf("read your writes: %w", err)
		}
		if next == 0 || next > seq {
			return nil
		}
		if err := sh.waitFor(ctx, next); err != nil {
			return fmt.Errorf("%w: shard %d on node %s has not applied sequence %d yet", ErrUnavailable, sh.id, n.opts.Name, next)
		}
	}
	return nil
}

func (n *Node) respond(m *nats.Msg, v any, err error) {
	r := reply{Node: n.opts.Name, Err: toWire(err)}
	if err == nil {
		data, merr := json.Marshal(v)
		if merr != nil {
			r.Err = toWire(merr)
		} else {
			r.Data = data
		}
	}
	b, _ := json.Marshal(&r)
	if len(b) > maxPayload {
		b, _ = json.Marshal(&reply{Node: n.opts.Name, Err: &wireErr{Msg: fmt.Sprintf("answer of %d bytes is over the %d byte limit", len(b), maxPayload)}})
	}
	if err := m.Respond(b); err != nil {
		n.log.Warn("answer not sent", "error", err)
	}
}

// callShard calls one shard: on node pin if set, else on any replica,
// this node's own when it serves the shard. The answer is decoded into
// out; the node that answered is returned.
func (n *Node) callShard(ctx context.Context, shard int, pin string, c call, out any) (string, error) {
	c.Shard = shard
	if sh := n.localShard(shard); sh != nil && (pin == "" || pin == n.opts.Name) {
		v, err := n.answer(ctx, sh, &c)
		if err != nil {
			return n.opts.Name, err
		}
		// The same bytes as a remote answer: one decoding path.
		b, err := json.Marshal(v)
		if err != nil {
			return n.opts.Name, err
		}
		return n.opts.Name, json.Unmarshal(b, out)
	}
	subj := anyReplica(shard)
	if pin != "" {
		subj = oneReplica(pin, shard)
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, n.opts.CallTimeout)
	defer cancel()
	var msg *nats.Msg
	for attempt := 0; ; attempt++ {
		msg, err = n.nc.RequestWithContext(ctx, subj, data)
		// No replica subscribed: one may be subscribing (a node that
		// just caught up); look again a few times.
		if errors.Is(err, nats.ErrNoResponders) && attempt < 3 && ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		break
	}
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
			return "", fmt.Errorf("%w: shard %d: no replica answered (%w)", ErrUnavailable, shard, err)
		}
		return "", fmt.Errorf("shard %d: %w", shard, err)
	}
	var r reply
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return "", fmt.Errorf("shard %d: bad answer: %w", shard, err)
	}
	if r.Err != nil {
		return r.Node, r.Err.err()
	}
	return r.Node, json.Unmarshal(r.Data, out)
}

// shardResult is one shard's answer in a fan-out.
type shardResult[T any] struct {
	node string
	val  T
	err  error
}

// fanOut calls every shard at once, each on its pinned node if pins has
// one, and returns their answers by shard.
func fanOut[T any](ctx context.Context, n *Node, c call, pins []string, args func(shard int) any) []shardResult[T] {
	out := make([]shardResult[T], n.shards)
	done := make(chan struct{}, n.shards)
	for s := range n.shards {
		go func() {
			defer func() { done <- struct{}{} }()
			cs := c
			if args != nil {
				b, err := json.Marshal(args(s))
				if err != nil {
					out[s].err = err
					return
				}
				cs.Args = b
			}
			pin := ""
			if pins != nil {
				pin = pins[s]
			}
			out[s].node, out[s].err = n.callShard(ctx, s, pin, cs, &out[s].val)
		}()
	}
	for range n.shards {
		<-done
	}
	return out
}
