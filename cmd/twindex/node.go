package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"strings"
	"syscall"

	"github.com/twindex/twindex/cluster"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// clusterFlags make 'twindex serve' a node of a cluster.
type clusterFlags struct {
	node, listen, peers, url string
	shards, replicas         int
}

func (fs *flagSet) clusterFlags() *clusterFlags {
	f := &clusterFlags{}
	fs.StringVar(&f.node, "node", "", "run as the node `NAME` of a cluster (unique, the same across restarts; needs --index for its data)")
	fs.StringVar(&f.listen, "cluster-listen", "", "the embedded NATS server's cluster `address` (host:port) that the other nodes connect to")
	fs.StringVar(&f.peers, "cluster-peers", "", "the other nodes' cluster `addresses`, comma-separated")
	fs.StringVar(&f.url, "nats-url", "", "use the NATS deployment (with JetStream) at `URL` instead of an embedded server")
	fs.IntVar(&f.shards, "shards", 0, "`shards` of a new cluster (default 12); a cluster keeps the count it was made with")
	fs.IntVar(&f.replicas, "replicas", 0, "stream `replicas` of a new cluster (default: 3, or the nodes if fewer; 1 with --nats-url)")
	return f
}

func (f *clusterFlags) used() bool {
	return f.listen != "" || f.peers != "" || f.url != "" || f.shards != 0 || f.replicas != 0
}

// runNode runs a cluster node until ctx ends or SIGTERM: it serves the
// whole cluster's documents over the HTTP API.
func runNode(ctx context.Context, e *env, f *clusterFlags, dir, httpAddr, cors string, log *slog.Logger) error {
	if dir == "" {
		return usageErr("give the node a data directory of its own: --index DIR", "--node needs --index")
	}
	if httpAddr == "" {
		return usageErr("a node is used through its HTTP API: --http 127.0.0.1:7700", "--node needs --http")
	}
	var peers []string
	for _, p := range strings.Split(f.peers, ",") {
		if p = strings.TrimSpace(p); p != "" {
			peers = append(peers, p)
		}
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", httpAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", httpAddr, err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	token := e.getenv("TWINDEX_TOKEN")
	if !addr.IP.IsLoopback() && token == "" {
		ln.Close()
		return usageErr("set TWINDEX_TOKEN to a secret that clients send as 'Authorization: Bearer $TWINDEX_TOKEN', or serve on 127.0.0.1",
			"%w: %s is reachable from other machines", server.ErrNoToken, addr)
	}
	node, err := cluster.Open(ctx, &cluster.Options{
		Name: f.node, Dir: dir, Listen: f.listen, Peers: peers, URL: f.url,
		Shards: f.shards, Replicas: f.replicas, HTTP: "http://" + addr.String(), Log: log,
		Index: &index.Options{},
	})
	if err != nil {
		ln.Close()
		if errors.Is(err, cluster.ErrConfig) {
			return usageErr("run 'twindex serve --help'", "%w", err)
		}
		return err
	}
	svc := server.New(node, &server.Options{Log: log, Version: buildVersion()})
	srv := server.HTTPServer(svc.Handler(&server.HTTPOptions{Token: token, CORS: cors, Loopback: addr.IP.IsLoopback()}), log)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(e.stderr, "listening on http://%s\n", addr)
	log.Info("node up", "node", f.node, "shards", node.Shards())
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	log.Info("stopping")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	svc.EndStreams()
	if serr := srv.Shutdown(sctx); serr != nil {
		srv.Close()
	}
	svc.Close()
	if cerr := node.Close(); cerr != nil {
		return cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
