//go:build !js

package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/twindex/twindex/index"
)

// The stream and its subjects.
const (
	streamName = "TWINDEX"
	// docSubjects is the prefix of every document's subject:
	// twindex.d.SHARD.KEY.
	docSubjects = "twindex.d."
	// metaShards is the stream's metadata key for its shard count, fixed
	// when the stream is made.
	metaShards = "twindex.shards"
	// maxBatch is the most messages one atomic batch carries: JetStream's
	// default limit. A write of more documents is several batches.
	maxBatch = 1000
	// leaderElected is the prefix of the subject on which JetStream
	// announces a stream's new leader.
	leaderElected = "$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED."
	// dupWindow is how long the stream remembers message IDs: a write
	// retried within it (after a leader change) is stored once.
	dupWindow = 2 * time.Minute
)

// entryVersion is the version of the entries this build writes and reads;
// a node stops at an entry of a later version rather than misapply it.
const entryVersion = 1

// entry is one message of the stream: a document's new state or its
// removal.
type entry struct {
	V   int        `json:"v"`
	Doc *index.Doc `json:"doc,omitempty"` // the document; nil for a removal
	ID  string     `json:"id,omitempty"`  // the removed document's ID
}

// shardOf returns the shard of a document ID: FNV-1a of the ID modulo
// the shard count, fixed for the life of the stream.
func shardOf(id string, shards int) int {
	h := fnv.New64a()
	h.Write([]byte(id))
	return int(h.Sum64() % uint64(shards))
}

// subjectOf returns a document's subject. The key is a hash because IDs
// may hold any character, and subjects may not.
func subjectOf(id string, shards int) string {
	sum := sha256.Sum256([]byte(id))
	return docSubjects + strconv.Itoa(shardOf(id, shards)) + "." + hex.EncodeToString(sum[:16])
}

// shardSubjects is the filter of one shard's messages.
func shardSubjects(shard int) string { return docSubjects + strconv.Itoa(shard) + ".>" }

// shardOfSubject reads the shard from a document's subject.
func shardOfSubject(subj string) (int, error) {
	rest, ok := strings.CutPrefix(subj, docSubjects)
	if ok {
		if i := strings.IndexByte(rest, '.'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil && n >= 0 {
				return n, nil
			}
		}
	}
	return 0, fmt.Errorf("subject %q is not a document's", subj)
}

// streamConfig is the stream of a cluster: every document's last state,
// replicated and fsynced on each replica before it is acknowledged.
func streamConfig(replicas, shards int) jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name:        streamName,
		Description: "twindex documents: the last write of each, by shard",
		Subjects:    []string{docSubjects + ">"},
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
		// One message per document: a node that comes back finds every
		// document changed since it stopped, once, in stream order.
		MaxMsgsPerSubject:  1,
		Discard:            jetstream.DiscardOld,
		Duplicates:         dupWindow,
		AllowDirect:        true,
		AllowAtomicPublish: true,
		MaxMsgSize:         maxPayload,
		Metadata:           map[string]string{metaShards: strconv.Itoa(shards)},
	}
}

// openStream makes the stream, or opens the one there is, and returns it
// with its shard count (the existing stream's, which wins over shards).
func openStream(ctx context.Context, js jetstream.JetStream, replicas, shards int) (jetstream.Stream, int, error) {
	st, err := js.Stream(ctx, streamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		st, err = js.CreateStream(ctx, streamConfig(replicas, shards))
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			st, err = js.Stream(ctx, streamName) // another node made it first
		}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%w: stream %s: %w", ErrUnavailable, streamName, err)
	}
	n, err := strconv.Atoi(st.CachedInfo().Config.Metadata[metaShards])
	if err != nil || n < 1 {
		return nil, 0, fmt.Errorf("%w: stream %s has no shard count in its metadata (%s)", ErrConfig, streamName, metaShards)
	}
	return st, n, nil
}

// encodeEntry is a document's message.
func encodeEntry(e *entry) ([]byte, error) {
	e.V = entryVersion
	return json.Marshal(e)
}

// decodeEntry reads a message; an entry of a later version is an error.
func decodeEntry(data []byte) (*entry, error) {
	var e entry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("decode entry: %w", err)
	}
	switch {
	case e.V > entryVersion:
		return nil, fmt.Errorf("entry of version %d, this twindex reads up to %d: upgrade the node", e.V, entryVersion)
	case e.Doc == nil && e.ID == "":
		return nil, errors.New("entry with neither a document nor an ID")
	}
	return &e, nil
}

// appender writes to the stream.
type appender struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	shards int
	// wait bounds a write's retries: elections take 2-10 s.
	wait time.Duration
}

// append writes the messages, all or none, and returns the stream
// sequence of the last one. A write of more than maxBatch messages is
// several atomic batches, each all or none. Each message carries a
// message ID, so that a batch retried after a timeout (its first attempt
// may have been stored) is stored once.
func (a *appender) append(ctx context.Context, msgs []*nats.Msg) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, a.wait)
	defer cancel()
	write := nuid.Next()
	for i, m := range msgs {
		if m.Header == nil {
			m.Header = nats.Header{}
		}
		m.Header.Set(jetstream.MsgIDHeader, write+"."+strconv.Itoa(i))
	}
	var last uint64
	for start := 0; start < len(msgs); start += maxBatch {
		part := msgs[start:min(start+maxBatch, len(msgs))]
		seq, err := a.retry(ctx, part)
		if err != nil {
			if start > 0 {
				return 0, fmt.Errorf("after %d of %d documents were written: %w", start, len(msgs), err)
			}
			return 0, err
		}
		last = seq
	}
	return last, nil
}

// retry writes one batch until it is stored, refused, or ctx ends.
func (a *appender) retry(ctx context.Context, msgs []*nats.Msg) (uint64, error) {
	backoff := 50 * time.Millisecond
	for {
		seq, err := a.batch(ctx, msgs)
		if err == nil || !transient(err) {
			return seq, err
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("%w: the stream took no write in %v (is a majority of its nodes up?): %w", ErrUnavailable, a.wait, err)
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// batch sends one atomic batch: the messages, then a commit that the
// stream's leader answers once every message is stored on a majority.
func (a *appender) batch(ctx context.Context, msgs []*nats.Msg) (uint64, error) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if len(msgs) == 1 {
		m := msgs[0]
		m.Header.Del("Nats-Batch-Id")
		ack, err := a.js.PublishMsg(rctx, m)
		if err != nil {
			return 0, err
		}
		return ack.Sequence, nil
	}
	id := nuid.Next()
	for i, m := range msgs {
		m.Header.Set("Nats-Batch-Id", id)
		m.Header.Set("Nats-Batch-Sequence", strconv.Itoa(i+1))
		m.Header.Del("Nats-Batch-Commit")
		if i == len(msgs)-1 {
			m.Header.Set("Nats-Batch-Commit", "1")
			break
		}
		if err := a.nc.PublishMsg(m); err != nil {
			return 0, err
		}
	}
	reply, err := a.nc.RequestMsgWithContext(rctx, msgs[len(msgs)-1])
	if err != nil {
		return 0, err
	}
	var ack struct {
		Error *jetstream.APIError `json:"error"`
		Seq   uint64              `json:"seq"`
	}
	if err := json.Unmarshal(reply.Data, &ack); err != nil {
		return 0, fmt.Errorf("commit's reply: %w", err)
	}
	if ack.Error != nil {
		if ack.Error.ErrorCode == errCodeDuplicateInBatch {
			return a.lastSeq(rctx)
		}
		return 0, ack.Error
	}
	return ack.Seq, nil
}

// lastSeq is the stream's last sequence: at or after any write stored.
func (a *appender) lastSeq(ctx context.Context) (uint64, error) {
	st, err := a.js.Stream(ctx, streamName)
	if err != nil {
		return 0, err
	}
	return st.CachedInfo().State.LastSeq, nil
}

// JetStream error codes the appender acts on.
const (
	errCodeDuplicateInBatch jetstream.ErrorCode = 10201
	errCodeIncompleteBatch  jetstream.ErrorCode = 10176
	errCodeNotAvailable     jetstream.ErrorCode = 10008
	errCodeStreamOffline    jetstream.ErrorCode = 10118
	errCodeWrongLastSeq     jetstream.ErrorCode = 10071
)

// transient reports whether a failed write may succeed if sent again:
// no leader yet, a batch cut by a leader change, a timeout.
func transient(err error) bool {
	var api *jetstream.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode {
		case errCodeIncompleteBatch, errCodeNotAvailable, errCodeStreamOffline:
			return true
		}
		return api.Code >= 500
	}
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, nats.ErrDisconnected)
}
