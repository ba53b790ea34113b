//go:build !js

package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/twindex/twindex/index"
)

// stallAfter is how long the apply loop waits for a message while the
// stream has some pending for it before it starts its consumer over.
const stallAfter = 3 * time.Second

// consumerGone is how long the servers keep a stream consumer whose node
// stopped asking for messages without deleting it (killed): nats.go's
// default for ordered consumers is 5 minutes. A live consumer asks
// continually, with heartbeats while idle.
const consumerGone = 30 * time.Second

// errStalled is a consumer that stopped delivering.
var errStalled = errors.New("consumer stalled")

// getTimeout bounds a request for a stored message. The stream's leader
// answers it in milliseconds; a request sent while the leader is dead
// but not yet replaced is answered by no one (the followers leave
// requests to the leader they still believe in), so without a bound it
// waits forever, and so does the apply loop that sent it.
const getTimeout = 5 * time.Second

// markName is the index.Batch mark under which a shard's index records the
// stream sequence of the last message it applied.
const markName = "stream"

// applyBatch bounds the messages one apply takes: one index batch per
// shard that they touch.
const applyBatch = 1000

// shard is a shard this node holds: its index and how far it has applied
// the stream.
//
// Concurrency: the apply loop alone writes ix and applied; searches read
// ix from any goroutine, and wait on advanced for read-your-writes.
type shard struct {
	id      int
	ix      *index.Index
	applied atomic.Uint64 // stream sequence of the last message applied
	ready   atomic.Bool   // caught up once: it answers calls

	mu       sync.Mutex
	advanced chan struct{} // closed and replaced when applied moves
}

func newShard(id int, ix *index.Index) (*shard, error) {
	sh := &shard{id: id, ix: ix, advanced: make(chan struct{})}
	seq, err := ix.Marked(markName)
	if err != nil {
		return nil, err
	}
	sh.applied.Store(seq)
	return sh, nil
}

// moved records that the shard applied the stream up to seq.
func (sh *shard) moved(seq uint64) {
	sh.applied.Store(seq)
	sh.mu.Lock()
	close(sh.advanced)
	sh.advanced = make(chan struct{})
	sh.mu.Unlock()
}

// waitFor waits until the shard has applied seq, or ctx ends.
func (sh *shard) waitFor(ctx context.Context, seq uint64) error {
	for {
		sh.mu.Lock()
		ch := sh.advanced
		sh.mu.Unlock()
		if sh.applied.Load() >= seq {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// shardDir is where a shard's index lives under the node's directory.
func shardDir(dir string, id int) string {
	return filepath.Join(dir, "shards", strconv.Itoa(id))
}

// shardsOnDisk lists the shards a node has an index of.
func shardsOnDisk(dir string) ([]int, error) {
	ents, err := os.ReadDir(filepath.Join(dir, "shards"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && e.IsDir() && n >= 0 {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

// applyLoop applies the stream to the shards this node holds until ctx
// ends: an ordered consumer of their subjects, started after the
// earliest position any of them recorded, whose messages are applied in
// stream order in batches, each shard's batch with its position. When
// the node takes a new shard, the consumer starts over from that shard's
// position (0: the whole shard is replayed). After a failure to apply
// (a full disk), it waits and starts over from what was recorded.
func (n *Node) applyLoop(ctx context.Context) {
	for ctx.Err() == nil {
		err := n.consume(ctx)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errStalled) {
			n.log.Warn("restarting the stream consumer", "reason", err, "applied", n.appliedByShard())
			continue
		}
		if err != nil {
			n.log.Error("applying the stream failed; retrying", "error", err)
			n.applyErr.Store(err.Error())
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
}

// consume runs one ordered consumer until the held shards change (nil),
// an apply fails, or ctx ends.
func (n *Node) consume(ctx context.Context) error {
	held, changed := n.heldShards()
	if len(held) == 0 {
		select {
		case <-ctx.Done():
		case <-changed:
		}
		return nil
	}
	start := uint64(0)
	var filters []string
	for i, sh := range held {
		if a := sh.applied.Load(); i == 0 || a < start {
			start = a
		}
		filters = append(filters, shardSubjects(sh.id))
	}
	byID := map[int]*shard{}
	for _, sh := range held {
		byID[sh.id] = sh
	}
	cons, err := n.js.OrderedConsumer(ctx, streamName, jetstream.OrderedConsumerConfig{
		FilterSubjects:    filters,
		DeliverPolicy:     jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:       start + 1,
		InactiveThreshold: consumerGone,
	})
	if err != nil {
		return fmt.Errorf("consumer: %w", err)
	}
	msgs := make(chan jetstream.Msg, 2*applyBatch)
	stop := make(chan struct{})
	cc, err := cons.Consume(func(m jetstream.Msg) {
		select {
		case msgs <- m:
		case <-stop:
		}
	}, jetstream.PullMaxMessages(2*applyBatch))
	if err != nil {
		return fmt.Errorf("consume: %w", err)
	}
	defer func() {
		close(stop)
		cc.Stop()
		// Stopping leaves the consumer on the servers until it has been
		// inactive for consumerGone: delete it, so that a restart (new
		// shards, a stall) or a Close leaves none behind.
		if info := cons.CachedInfo(); info != nil {
			dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if err := n.js.DeleteConsumer(dctx, streamName, info.Name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
				n.log.Debug("deleting the stopped stream consumer", "consumer", info.Name, "error", err)
			}
			cancel()
		}
	}()
	idle := time.NewTicker(500 * time.Millisecond)
	defer idle.Stop()
	var batch []jetstream.Msg
	last := time.Now() // of the last message, or of the last check that none was pending
	for {
		batch = batch[:0]
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
			return nil
		case <-idle.C:
			if len(msgs) > 0 {
				continue
			}
			behind, err := n.behind(ctx, held)
			switch {
			case err == nil && behind < 0:
				last = time.Now()
				n.caughtUp(held)
			case time.Since(last) > stallAfter:
				// The consumer reads one server's copy of the stream: when
				// that server dies, or its copy is behind the leader's (a
				// node catching up after a restart), messages stop. Start
				// over from the positions the shards recorded.
				if err != nil {
					return fmt.Errorf("%w: no message for %v, and shard %d's next message not read from the stream's leader: %w", errStalled, stallAfter, behind, err)
				}
				return fmt.Errorf("%w: no message for %v while shard %d is behind the stream", errStalled, stallAfter, behind)
			}
			continue
		case m := <-msgs:
			batch = append(batch, m)
			last = time.Now()
		}
	drain:
		for len(batch) < applyBatch {
			select {
			case m := <-msgs:
				batch = append(batch, m)
			default:
				break drain
			}
		}
		pending, err := n.apply(ctx, byID, batch)
		if err != nil {
			return err
		}
		if pending == 0 && len(msgs) == 0 {
			if behind, err := n.behind(ctx, held); err == nil && behind < 0 {
				n.caughtUp(held)
			}
		}
	}
}

// behind returns a shard of held that has not applied a message the
// stream's leader has, or -1 when every shard has applied them all.
func (n *Node) behind(ctx context.Context, held []*shard) (int, error) {
	for _, sh := range held {
		next, err := nextOnShard(ctx, n.nc, sh.id, sh.applied.Load()+1)
		if err != nil {
			return sh.id, err
		}
		if next != 0 {
			return sh.id, nil
		}
	}
	return -1, nil
}

// apply applies a run of messages, in stream order, one index batch per
// shard, each marked with the sequence of its last message; it returns
// the number of messages pending after the last one.
func (n *Node) apply(ctx context.Context, byID map[int]*shard, msgs []jetstream.Msg) (pending uint64, err error) {
	type work struct {
		b    index.Batch
		last uint64
		ops  []*entry
	}
	todo := map[int]*work{}
	for _, m := range msgs {
		meta, err := m.Metadata()
		if err != nil {
			return 0, fmt.Errorf("message metadata: %w", err)
		}
		pending = meta.NumPending
		id, err := shardOfSubject(m.Subject())
		if err != nil {
			return 0, err
		}
		sh := byID[id]
		seq := meta.Sequence.Stream
		if sh == nil || seq <= sh.applied.Load() {
			continue // another shard's, or applied before a restart
		}
		e, err := decodeEntry(m.Data())
		if err != nil {
			return 0, fmt.Errorf("stream message %d: %w", seq, err)
		}
		w := todo[id]
		if w == nil {
			w = &work{}
			todo[id] = w
		}
		w.ops = append(w.ops, e)
		w.last = seq
	}
	for id, w := range todo {
		sh := byID[id]
		for _, e := range w.ops {
			addOp(&w.b, e)
		}
		w.b.Mark(markName, w.last)
		_, err := sh.ix.Apply(ctx, &w.b)
		if errors.Is(err, index.ErrInvalidDoc) {
			// A document this shard refuses (a vector of another
			// dimension than the shard's): every replica refuses it alike,
			// so it is skipped, and the rest applied one by one.
			err = n.applyEach(ctx, sh, w.ops, w.last)
		}
		if err != nil {
			return 0, fmt.Errorf("shard %d: %w", id, err)
		}
		sh.moved(w.last)
	}
	return pending, nil
}

func addOp(b *index.Batch, e *entry) {
	if e.Doc != nil {
		b.Upsert(*e.Doc)
	} else {
		b.Remove(e.ID)
	}
}

// applyEach applies entries one at a time, skipping those the index
// refuses as invalid, and marks the last sequence.
func (n *Node) applyEach(ctx context.Context, sh *shard, ops []*entry, last uint64) error {
	for _, e := range ops {
		var b index.Batch
		addOp(&b, e)
		if _, err := sh.ix.Apply(ctx, &b); err != nil {
			if !errors.Is(err, index.ErrInvalidDoc) {
				return err
			}
			n.log.Warn("document refused by its shard, skipped", "shard", sh.id, "error", err)
		}
	}
	var b index.Batch
	b.Mark(markName, last)
	_, err := sh.ix.Apply(ctx, &b)
	return err
}

// appliedByShard is the stream position of each shard the node holds,
// for logs.
func (n *Node) appliedByShard() map[string]uint64 {
	held, _ := n.heldShards()
	out := make(map[string]uint64, len(held))
	for _, sh := range held {
		out[strconv.Itoa(sh.id)] = sh.applied.Load()
	}
	return out
}

// stuckAfter is how long a shard may leave a message of the stream
// unapplied before watchShards warns.
const stuckAfter = 30 * time.Second

// watchShards warns, every stuckAfter while it lasts, of each shard whose
// position has not moved for stuckAfter although the stream's leader has
// a message after it: a shard that stopped applying answers without the
// documents written since. It runs apart from the apply loop, so that it
// also sees an apply loop that is blocked.
func (n *Node) watchShards(ctx context.Context) {
	type seen struct {
		applied       uint64
		since, warned time.Time
	}
	last := map[int]seen{}
	t := time.NewTicker(stuckAfter / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		held, _ := n.heldShards()
		now := time.Now()
		for _, sh := range held {
			a := sh.applied.Load()
			was, ok := last[sh.id]
			if !ok || was.applied != a {
				last[sh.id] = seen{applied: a, since: now}
				continue
			}
			if now.Sub(was.since) < stuckAfter || now.Sub(was.warned) < stuckAfter {
				continue
			}
			next, err := nextOnShard(ctx, n.nc, sh.id, a+1)
			switch {
			case err != nil && ctx.Err() == nil:
				n.log.Warn("shard's position not checked against the stream", "shard", sh.id, "applied", a, "unchanged", now.Sub(was.since).Round(time.Second), "error", err)
			case next != 0:
				n.log.Warn("shard not applying the stream: its answers miss the documents written since", "shard", sh.id, "applied", a, "next", next, "unchanged", now.Sub(was.since).Round(time.Second))
			default:
				continue
			}
			was.warned = now
			last[sh.id] = was
		}
	}
}

// caughtUp makes the shards serve calls, once they have applied every
// message the stream's leader had when this was checked (behind).
func (n *Node) caughtUp(held []*shard) {
	for _, sh := range held {
		if !sh.ready.Swap(true) {
			if err := n.serveShard(sh); err != nil {
				n.log.Error("serving a shard", "shard", sh.id, "error", err)
				sh.ready.Store(false)
				continue
			}
			n.log.Info("shard caught up, serving", "shard", sh.id, "applied", sh.applied.Load())
		}
	}
}

// storedMsg is a message as the stream's leader returns it.
type storedMsg struct {
	Seq  uint64 `json:"seq"`
	Data []byte `json:"data"`
}

// getMsg asks the stream's leader for a message: the last of subject
// last, or the first at or after seq of subject next. Direct gets, which
// any replica answers, may miss a message a follower has not received
// yet; reading your writes and deciding an add must not. found is false
// when there is no such message. The request waits at most getTimeout.
func getMsg(ctx context.Context, nc *nats.Conn, seq uint64, next, last string) (m storedMsg, found bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, getTimeout)
	defer cancel()
	req := map[string]any{}
	if last != "" {
		req["last_by_subj"] = last
	} else {
		req["seq"], req["next_by_subj"] = seq, next
	}
	body, _ := json.Marshal(req)
	reply, err := nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET."+streamName, body)
	if err != nil {
		return m, false, err
	}
	var resp struct {
		Message *storedMsg          `json:"message"`
		Error   *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(reply.Data, &resp); err != nil {
		return m, false, err
	}
	switch {
	case resp.Error != nil && resp.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound:
		return m, false, nil
	case resp.Error != nil:
		return m, false, resp.Error
	case resp.Message == nil:
		return m, false, errors.New("stream message get: empty answer")
	}
	return *resp.Message, true, nil
}

// nextOnShard is the sequence of the first message of a shard at or
// after seq, 0 if it has none.
func nextOnShard(ctx context.Context, nc *nats.Conn, shard int, seq uint64) (uint64, error) {
	m, ok, err := getMsg(ctx, nc, seq, shardSubjects(shard), "")
	if !ok {
		return 0, err
	}
	return m.Seq, nil
}
