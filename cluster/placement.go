//go:build !js

package cluster

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strconv"
	"time"
)

// The key-value buckets of a cluster.
const (
	// nodesBucket holds each registered node's state, rewritten every
	// beat: the shards it holds and serves, how far it has applied the
	// stream. A node stays registered after it stops.
	nodesBucket = "twindex_nodes"
	// placementBucket holds the placement, under placementKey, as the
	// registered nodes compute it.
	placementBucket = "twindex_placement"
	placementKey    = "shards"
	// beat is how often a node rewrites its state and looks for nodes
	// that joined. Its Beat field says when a node last did, for those who
	// read the bucket: the node itself decides nothing by it, since a
	// search reaches a shard through whichever replica answers.
	beat = time.Second
)

// nodeState is a node's entry in nodesBucket.
type nodeState struct {
	Name    string    `json:"name"`
	Held    []int     `json:"held"`              // shards it has and applies
	Ready   []int     `json:"ready"`             // shards it has caught up on and serves
	Applied uint64    `json:"applied"`           // the stream sequence it has applied up to, over all its shards
	HTTP    string    `json:"http,omitempty"`    // its HTTP API, if any
	Beat    time.Time `json:"beat"`              // when it wrote this
	Stopped bool      `json:"stopped,omitempty"` // it stopped cleanly
}

// placement is the shards of every node: shard i is on Shards[i].
type placement struct {
	Nodes  []string   `json:"nodes"`  // the registered nodes it was computed over, sorted
	Copies int        `json:"copies"` // nodes per shard
	Shards [][]string `json:"shards"` // by shard, the nodes that hold it, best first
}

// place computes the placement of shards over nodes by rendezvous
// (highest random weight) hashing: each shard goes to the copies nodes
// with the highest hash of (shard, node). Adding a node moves only the
// shards it wins, about copies/len(nodes) of them, and every node
// computes the same placement from the same registered nodes.
func place(nodes []string, shards, copies int) *placement {
	nodes = slices.Sorted(slices.Values(nodes))
	p := &placement{Nodes: nodes, Copies: min(copies, len(nodes)), Shards: make([][]string, shards)}
	type scoredNode struct {
		name  string
		score uint64
	}
	for s := range shards {
		ranked := make([]scoredNode, len(nodes))
		for i, n := range nodes {
			// A cryptographic hash: FNV's of names that differ in one
			// character are too alike (one node won 54 of 64 shards).
			sum := sha256.Sum256([]byte(n + "\x00" + strconv.Itoa(s)))
			ranked[i] = scoredNode{n, binary.BigEndian.Uint64(sum[:8])}
		}
		slices.SortFunc(ranked, func(a, b scoredNode) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(a.name, b.name)
		})
		for _, r := range ranked[:p.Copies] {
			p.Shards[s] = append(p.Shards[s], r.name)
		}
	}
	return p
}

// of returns the shards placed on node, in order.
func (p *placement) of(node string) []int {
	var out []int
	for s, nodes := range p.Shards {
		if slices.Contains(nodes, node) {
			out = append(out, s)
		}
	}
	return out
}

func (p *placement) encode() []byte {
	b, _ := json.Marshal(p)
	return b
}
