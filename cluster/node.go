//go:build !js

package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/twindex/twindex/index"
)

// Options configure a Node. Name and Dir are required.
type Options struct {
	// Name is the node's name, unique in the cluster and the same across
	// its restarts: letters, digits, '-' and '_'.
	Name string
	// Dir holds the node's data: its shards' indexes and, with an
	// embedded NATS server, the stream's replica.
	Dir string
	// Listen is the embedded NATS server's cluster address (host:port),
	// where the other nodes' servers connect; Peers are theirs. Without
	// Peers, the embedded server runs alone (a cluster of one) and does
	// not listen on Listen.
	Listen string
	Peers  []string
	// URL, when set, is an existing NATS deployment with JetStream to
	// use instead of an embedded server.
	URL string
	// Replicas is the stream's replication factor when this node makes
	// the stream: 0 means min(3, the number of nodes of the embedded
	// cluster), 1 with URL.
	Replicas int
	// Shards is the number of shards when this node makes the stream
	// (0 means DefaultShards); a stream that exists keeps its own.
	Shards int
	// Copies is how many nodes hold each shard (0 means 2).
	Copies int
	// Expect is how many nodes to wait for, at most Settle, before the
	// first placement, so that the nodes of a new cluster share the
	// shards from the start; 0 means len(Peers)+1.
	Expect int
	Settle time.Duration // 0 means 15 s
	// CallTimeout bounds a call to a shard, and WriteTimeout a write's
	// retries while the stream has no leader; 0 means 10 s and 30 s.
	CallTimeout, WriteTimeout time.Duration
	// HTTP is the node's HTTP API address, published in its state.
	HTTP string
	// Index configures each shard's index; nil means defaults.
	Index *index.Options
	Log   *slog.Logger // nil: discard
}

// DefaultShards is the shard count of a new stream: more than the nodes
// of most clusters, so that each node holds several and a new node can
// take some.
const DefaultShards = 12

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Node is one twindex node of a cluster. It serves the documents of the
// whole cluster as a server.Engine: writes go to the stream, searches and
// reads fan out to the shards.
//
// Concurrency: every method may be called from any goroutine. The node
// runs its apply loop, its heartbeat and the calls it answers on
// goroutines of its own, which Close waits for.
type Node struct {
	opts   Options
	log    *slog.Logger
	srv    *server.Server // nil with Options.URL
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	shards int
	app    appender
	kv     jetstream.KeyValue // nodesBucket
	place  jetstream.KeyValue // placementBucket

	handlers map[string]handler
	work     chan struct{} // bounds the calls answered at once

	mu      sync.Mutex
	held    map[int]*shard
	changed chan struct{} // closed and replaced when held changes
	subs    []*nats.Subscription
	closed  bool

	applyErr atomic.Value // string: the last apply failure

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Open starts a node: its NATS server (or a connection to Options.URL),
// the stream and buckets (made by the first node), its registration, the
// shards placed on it, and the apply loop. It returns once the node is
// registered and has its shards open; they serve calls once caught up.
func Open(ctx context.Context, o *Options) (*Node, error) {
	opts, err := o.defaults()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, err
	}
	n := &Node{opts: opts, log: opts.Log, held: map[int]*shard{}, changed: make(chan struct{}),
		work: make(chan struct{}, 4*runtime.GOMAXPROCS(0))}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.handlers = n.shardHandlers()
	if err := n.start(ctx); err != nil {
		n.shutdown()
		return nil, err
	}
	return n, nil
}

func (o *Options) defaults() (Options, error) {
	r := *o
	bad := func(format string, args ...any) (Options, error) {
		return r, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
	}
	switch {
	case !nameRE.MatchString(r.Name):
		return bad("node name %q: 1 to 64 letters, digits, '-' or '_'", r.Name)
	case r.Dir == "":
		return bad("no data directory")
	case r.URL != "" && (r.Listen != "" || len(r.Peers) > 0):
		return bad("a NATS URL or an embedded cluster (listen address and peers), not both")
	case len(r.Peers) > 0 && r.Listen == "":
		return bad("peers need this node's cluster listen address")
	case r.Shards < 0 || r.Shards > 4096:
		return bad("shards %d out of range 1..4096", r.Shards)
	}
	if r.Log == nil {
		r.Log = slog.New(slog.DiscardHandler)
	}
	if r.Shards == 0 {
		r.Shards = DefaultShards
	}
	if r.Copies <= 0 {
		r.Copies = 2
	}
	if r.Expect <= 0 {
		r.Expect = len(r.Peers) + 1
	}
	if r.Settle <= 0 {
		r.Settle = 15 * time.Second
	}
	if r.Replicas <= 0 {
		r.Replicas = 1
		if r.URL == "" {
			r.Replicas = min(3, len(r.Peers)+1)
		}
	}
	if r.CallTimeout <= 0 {
		r.CallTimeout = 10 * time.Second
	}
	if r.WriteTimeout <= 0 {
		r.WriteTimeout = 30 * time.Second
	}
	return r, nil
}

func (n *Node) start(ctx context.Context) error {
	var err error
	if n.opts.URL == "" {
		if n.srv, err = startServer(&n.opts, n.opts.Dir); err != nil {
			return err
		}
	}
	if n.nc, err = connect(n.srv, n.opts.URL, n.opts.Name); err != nil {
		return err
	}
	if n.js, err = jetstream.New(n.nc); err != nil {
		return err
	}
	// The stream's leader answers the reads of the apply loop and of
	// writes, and a write waits while there is none: its changes are
	// logged.
	if _, err := n.nc.Subscribe(leaderElected+streamName, func(m *nats.Msg) {
		var a struct {
			Leader string `json:"leader"`
		}
		if json.Unmarshal(m.Data, &a) == nil {
			n.log.Info("stream leader elected", "leader", a.Leader)
		}
	}); err != nil {
		return err
	}
	// A new cluster's JetStream elects its meta leader once a majority
	// of the servers are up: until then, making the stream fails.
	if err := retry(ctx, n.opts.Settle+30*time.Second, func(ctx context.Context) error {
		n.stream, n.shards, err = openStream(ctx, n.js, n.opts.Replicas, n.opts.Shards)
		if err != nil {
			return err
		}
		if n.kv, err = openBucket(ctx, n.js, nodesBucket, n.opts.Replicas); err != nil {
			return err
		}
		n.place, err = openBucket(ctx, n.js, placementBucket, n.opts.Replicas)
		return err
	}); err != nil {
		return err
	}
	n.app = appender{nc: n.nc, js: n.js, shards: n.shards, wait: n.opts.WriteTimeout}
	if err := n.register(ctx); err != nil {
		return err
	}
	n.wg.Go(func() { n.applyLoop(n.ctx) })
	n.wg.Go(func() { n.heartbeat(n.ctx) })
	n.wg.Go(func() { n.watchShards(n.ctx) })
	return nil
}

// retry calls fn until it succeeds, ctx ends or d passes.
func retry(ctx context.Context, d time.Duration, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	for {
		actx, acancel := context.WithTimeout(ctx, 5*time.Second)
		err := fn(actx)
		acancel()
		if err == nil || errors.Is(err, ErrConfig) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", ErrUnavailable, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func openBucket(ctx context.Context, js jetstream.JetStream, name string, replicas int) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, name)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: name, Replicas: replicas, History: 1})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, name)
		}
	}
	return kv, err
}

// register records the node in nodesBucket, waits (at most Settle) for
// the expected nodes to register, then takes the shards placed on it and
// those it has on disk.
func (n *Node) register(ctx context.Context) error {
	onDisk, err := shardsOnDisk(n.opts.Dir)
	if err != nil {
		return err
	}
	// A restarted node's server may not have rejoined the cluster yet.
	if err := retry(ctx, n.opts.Settle+30*time.Second, n.putState); err != nil {
		return fmt.Errorf("register node %s: %w", n.opts.Name, err)
	}
	deadline := time.Now().Add(n.opts.Settle)
	var names []string
	for {
		if err := retry(ctx, 30*time.Second, func(ctx context.Context) error {
			names, err = n.registered(ctx)
			return err
		}); err != nil {
			return err
		}
		if len(names) >= n.opts.Expect || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	p := place(names, n.shards, n.opts.Copies)
	n.log.Info("placement", "nodes", names, "mine", p.of(n.opts.Name), "on disk", onDisk)
	if err := retry(ctx, 30*time.Second, func(ctx context.Context) error {
		_, err := n.place.Put(ctx, placementKey, p.encode())
		return err
	}); err != nil {
		return err
	}
	return n.take(append(onDisk, p.of(n.opts.Name)...))
}

// registered lists the names of the registered nodes whose states
// decode.
func (n *Node) registered(ctx context.Context) ([]string, error) {
	keys, err := n.kv.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for k := range keys.Keys() {
		e, err := n.kv.Get(ctx, k)
		if err != nil {
			continue // deleted meanwhile
		}
		var st nodeState
		if json.Unmarshal(e.Value(), &st) == nil {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names, nil
}

// take opens the indexes of the given shards that the node does not hold
// yet; the apply loop then brings them up to date.
func (n *Node) take(ids []int) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	added := false
	for _, id := range ids {
		if _, ok := n.held[id]; ok || id >= n.shards {
			continue
		}
		ix, err := index.Open(shardDir(n.opts.Dir, id), n.opts.Index)
		if err != nil {
			return fmt.Errorf("shard %d: %w", id, err)
		}
		sh, err := newShard(id, ix)
		if err != nil {
			ix.Close()
			return fmt.Errorf("shard %d: %w", id, err)
		}
		n.held[id] = sh
		added = true
	}
	if added {
		close(n.changed)
		n.changed = make(chan struct{})
	}
	return nil
}

// heldShards returns the shards the node holds, in order, and a channel
// closed when that changes.
func (n *Node) heldShards() ([]*shard, <-chan struct{}) {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]*shard, 0, len(n.held))
	for _, sh := range n.held {
		out = append(out, sh)
	}
	slices.SortFunc(out, func(a, b *shard) int { return a.id - b.id })
	return out, n.changed
}

// localShard returns the shard if this node holds it and serves it.
func (n *Node) localShard(id int) *shard {
	n.mu.Lock()
	defer n.mu.Unlock()
	if sh := n.held[id]; sh != nil && sh.ready.Load() {
		return sh
	}
	return nil
}

// state is the node's entry for nodesBucket.
func (n *Node) state() *nodeState {
	held, _ := n.heldShards()
	st := &nodeState{Name: n.opts.Name, HTTP: n.opts.HTTP, Beat: time.Now().UTC(), Held: []int{}, Ready: []int{}}
	for i, sh := range held {
		st.Held = append(st.Held, sh.id)
		if sh.ready.Load() {
			st.Ready = append(st.Ready, sh.id)
		}
		if a := sh.applied.Load(); i == 0 || a < st.Applied {
			st.Applied = a
		}
	}
	return st
}

func (n *Node) putState(ctx context.Context) error {
	b, _ := json.Marshal(n.state())
	_, err := n.kv.Put(ctx, n.opts.Name, b)
	return err
}

// heartbeat rewrites the node's state every beat and, when the
// registered nodes change (a node joined), recomputes the placement and
// takes the shards newly placed here, which the apply loop then replays.
func (n *Node) heartbeat(ctx context.Context) {
	t := time.NewTicker(beat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		bctx, cancel := context.WithTimeout(ctx, beat)
		if err := n.putState(bctx); err != nil && ctx.Err() == nil {
			n.log.Debug("heartbeat not written", "error", err)
		}
		names, err := n.registered(bctx)
		cancel()
		if err != nil {
			continue
		}
		p := place(names, n.shards, n.opts.Copies)
		mine := p.of(n.opts.Name)
		held, _ := n.heldShards()
		var more []int
		for _, id := range mine {
			if !slices.ContainsFunc(held, func(sh *shard) bool { return sh.id == id }) {
				more = append(more, id)
			}
		}
		if len(more) > 0 {
			n.log.Info("taking shards placed here", "shards", more, "nodes", names)
			pctx, cancel := context.WithTimeout(ctx, beat)
			n.place.Put(pctx, placementKey, p.encode())
			cancel()
			if err := n.take(more); err != nil {
				n.log.Error("taking shards", "error", err)
			}
		}
	}
}

// Name is the node's name.
func (n *Node) Name() string { return n.opts.Name }

// Shards is the stream's shard count.
func (n *Node) Shards() int { return n.shards }

// Close stops the node: its calls, its apply loop and heartbeat, its
// shards' indexes and its NATS server. Writes the stream acknowledged
// stay in the stream.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	n.mu.Unlock()
	if n.kv != nil {
		st := n.state()
		st.Stopped = true
		b, _ := json.Marshal(st)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		n.kv.Put(ctx, n.opts.Name, b)
		cancel()
	}
	return n.shutdown()
}

func (n *Node) shutdown() error {
	n.mu.Lock()
	subs := n.subs
	n.subs = nil
	n.mu.Unlock()
	for _, s := range subs {
		s.Unsubscribe()
	}
	n.cancel()
	n.wg.Wait()
	var errs []error
	n.mu.Lock()
	for _, sh := range n.held {
		errs = append(errs, sh.ix.Close())
	}
	n.held = map[int]*shard{}
	n.mu.Unlock()
	if n.nc != nil {
		n.nc.Close()
	}
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	}
	return errors.Join(errs...)
}
