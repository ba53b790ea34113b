//go:build !js

package cluster

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

var ctx = context.Background()

// freeAddrs returns n loopback addresses with free ports.
func freeAddrs(t testing.TB, n int) []string {
	t.Helper()
	var out []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		out = append(out, ln.Addr().String())
	}
	for _, ln := range lns {
		ln.Close()
	}
	return out
}

// testCluster starts n nodes in this process, each with its own embedded
// NATS server, and closes them at the end of the test.
func testCluster(t testing.TB, n int, shards int) []*Node {
	t.Helper()
	addrs := freeAddrs(t, n)
	nodes := make([]*Node, n)
	errs := make(chan error, n)
	for i := range n {
		var peers []string
		for j, a := range addrs {
			if j != i {
				peers = append(peers, a)
			}
		}
		o := &Options{Name: fmt.Sprintf("n%d", i), Dir: t.TempDir(), Listen: addrs[i], Peers: peers, Shards: shards,
			Index: &index.Options{Workers: 1}}
		go func() {
			var err error
			nodes[i], err = Open(ctx, o)
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, nd := range nodes {
			nd.Close()
		}
	})
	return nodes
}

// waitApplied waits until every node's shards have applied the stream.
func waitApplied(t testing.TB, nodes []*Node) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, nd := range nodes {
		last, err := nd.app.lastSeq(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held, _ := nd.heldShards()
		for _, sh := range held {
			c, cancel := context.WithDeadline(ctx, deadline)
			err := nd.catchUp(c, sh, last)
			cancel()
			if err != nil {
				t.Fatalf("node %s shard %d: %v", nd.Name(), sh.id, err)
			}
		}
	}
}

// A user's first cluster is one node, started with a listen address and
// no peers: it must start and take a write.
func TestOneNode(t *testing.T) {
	o := &Options{Name: "solo", Dir: t.TempDir(), Listen: freeAddrs(t, 1)[0], Shards: 2,
		Index: &index.Options{Workers: 1}}
	nd, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer nd.Close()
	a, err := nd.Write(ctx, &server.Writes{Upsert: []index.Doc{{ID: "a", Body: "alone but working"}}})
	if err != nil || a.Written != 1 {
		t.Fatalf("write: %+v %v", a, err)
	}
	waitApplied(t, []*Node{nd})
	got, err := nd.Search(ctx, index.Request{Query: "working", Limit: 10})
	if err != nil || len(got.Hits) != 1 || got.Hits[0].ID != "a" {
		t.Fatalf("search: %v %v", ids(got), err)
	}
}

func TestWritesReachEveryNode(t *testing.T) {
	nodes := testCluster(t, 3, 6)
	var docs []index.Doc
	for i := range 50 {
		docs = append(docs, index.Doc{ID: fmt.Sprintf("doc%02d", i), Title: "title", Body: fmt.Sprintf("body number %d", i)})
	}
	a, err := nodes[0].Write(ctx, &server.Writes{Upsert: docs})
	if err != nil {
		t.Fatal(err)
	}
	if a.Written != 50 {
		t.Errorf("written %d", a.Written)
	}
	waitApplied(t, nodes)
	one, err := index.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if err := one.Upsert(ctx, docs...); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"body number 7", "numb", "title", "bod 4", "nothing here"} {
		want, err := one.Search(ctx, index.Request{Query: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, nd := range nodes {
			got, err := nd.Search(ctx, index.Request{Query: q, Limit: 10})
			if err != nil {
				t.Fatalf("node %s: search %q: %v", nd.Name(), q, err)
			}
			if got.Total != want.Total || fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) || len(got.Partial) > 0 {
				t.Errorf("node %s: %q: %d %v (partial %v), want %d %v", nd.Name(), q, got.Total, ids(got), got.Partial, want.Total, ids(want))
			}
		}
	}
	for _, nd := range nodes {
		st, err := nd.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if st.Docs != 50 {
			t.Errorf("node %s: %d documents, want 50", nd.Name(), st.Docs)
		}
		d, err := nd.Get("doc07")
		if err != nil || d.Body != "body number 7" {
			t.Errorf("node %s: get doc07: %v %v", nd.Name(), d, err)
		}
	}
	// An add of an existing ID is refused; a remove counts what existed.
	if _, err := nodes[1].Write(ctx, &server.Writes{Add: []index.Doc{{ID: "doc01", Body: "again"}}}); err == nil {
		t.Error("add of an existing document succeeded")
	}
	a, err = nodes[2].Write(ctx, &server.Writes{Remove: []string{"doc01", "doc02", "nothere"}})
	if err != nil || a.Removed != 2 {
		t.Errorf("remove: %+v %v, want 2 removed", a, err)
	}
	waitApplied(t, nodes)
	if _, err := nodes[0].Get("doc01"); err == nil {
		t.Error("removed document still there")
	}
	// Read your writes: a search with the write's sequence sees it on
	// any node, without waiting for the nodes to apply it.
	for i, nd := range nodes {
		id := fmt.Sprintf("fresh%d", i)
		a, err := nodes[(i+1)%3].Write(ctx, &server.Writes{Upsert: []index.Doc{{ID: id, Body: "zanzibar " + id}}})
		if err != nil {
			t.Fatal(err)
		}
		if a.Seq == 0 {
			t.Fatal("a write without a sequence")
		}
		res, err := nd.Search(ctx, index.Request{Query: id, Mode: index.ModeSubstring, MinSeq: a.Seq})
		if err != nil || res.Total != 1 {
			t.Errorf("node %s: search %s after its write: %+v %v", nd.Name(), id, res, err)
		}
	}
	// A node that stops deletes its stream consumer: the servers keep one
	// per running node, not one more per stop or restart. The stream's
	// leader may have been the stopped node's server: until another is
	// elected, asking fails (-1), and is asked again.
	consumers := func() int {
		c, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		st, err := nodes[0].js.Stream(c, streamName)
		if err != nil {
			return -1
		}
		info, err := st.Info(c)
		if err != nil {
			return -1
		}
		return info.State.Consumers
	}
	if n := consumers(); n != 3 {
		t.Errorf("%d stream consumers for 3 nodes", n)
	}
	nodes[2].Close()
	n := consumers()
	for deadline := time.Now().Add(20 * time.Second); n != 2 && time.Now().Before(deadline); n = consumers() {
		time.Sleep(100 * time.Millisecond)
	}
	if n != 2 {
		t.Errorf("%d stream consumers 20 s after a node of 3 stopped, want 2 (-1: the stream did not answer)", n)
	}
}

func ids(r *index.Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.ID+fmt.Sprintf("=%.6g", h.Score))
	}
	return out
}

// TestLeaderKilled: the stream's leader dies; the nodes left apply the
// writes made after, once another leader is elected. Requests sent to the
// dead leader before then go unanswered, and must not hold the apply
// loops that sent them.
func TestLeaderKilled(t *testing.T) {
	nodes := testCluster(t, 3, 6)
	write := func(nd *Node, from int) {
		t.Helper()
		var docs []index.Doc
		for i := from; i < from+20; i++ {
			docs = append(docs, index.Doc{ID: fmt.Sprintf("doc%02d", i), Body: fmt.Sprintf("body number %d", i)})
		}
		if _, err := nd.Write(ctx, &server.Writes{Upsert: docs}); err != nil {
			t.Fatal(err)
		}
	}
	write(nodes[0], 0)
	waitApplied(t, nodes)
	info, err := nodes[0].stream.Info(ctx)
	if err != nil || info.Cluster == nil {
		t.Fatalf("stream info: %+v %v", info, err)
	}
	var rest []*Node
	for _, nd := range nodes {
		if nd.Name() == info.Cluster.Leader {
			nd.srv.Shutdown() // its routes drop at once, as in a crash
		} else {
			rest = append(rest, nd)
		}
	}
	if len(rest) != 2 {
		t.Fatalf("leader %q is not one of the nodes", info.Cluster.Leader)
	}
	// The apply loops check the stream's leader every 500 ms when idle:
	// let them do so before the followers notice it is gone.
	time.Sleep(time.Second)
	write(rest[0], 20)
	waitApplied(t, rest)
	for _, nd := range rest {
		st, err := nd.Stats()
		if err != nil || st.Docs != 40 {
			t.Errorf("node %s: %+v %v, want 40 documents", nd.Name(), st, err)
		}
	}
}
