//go:build !js

package cluster

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// maxPayload bounds one NATS message: a document (at most
// index.Options.MaxDocBytes of text, 1 MiB by default, plus its vector and
// fields, JSON-escaped) or a shard's answer to a search.
const maxPayload = 8 << 20

// startServer starts the embedded NATS server of a node, with JetStream
// storing under dir and fsyncing every write (sync_interval: always), and
// with a route to each peer when there are peers. The node connects to
// it in process; it also listens for clients on a free loopback port
// (a server that listens for none does not finish starting in a
// cluster).
//
// A node without peers runs JetStream alone, without a cluster listener
// even when Listen is set: clustered JetStream refuses to start with no
// routes ("requires configured routes"), and the server then never
// becomes ready, so a cluster of one would fail after 30 s.
func startServer(o *Options, dir string) (*server.Server, error) {
	so := &server.Options{
		ServerName: o.Name,
		Host:       "127.0.0.1",
		Port:       server.RANDOM_PORT,
		JetStream:  true,
		StoreDir:   filepath.Join(dir, "nats"),
		SyncAlways: true,
		MaxPayload: maxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	if o.Listen != "" {
		host, port, err := splitHostPort(o.Listen)
		if err != nil {
			return nil, fmt.Errorf("%w: --cluster-listen %q: %w", ErrConfig, o.Listen, err)
		}
		if len(o.Peers) > 0 {
			so.Cluster = server.ClusterOpts{Name: "twindex", Host: host, Port: port}
		}
		var routes []*url.URL
		for _, p := range o.Peers {
			if _, _, err := splitHostPort(p); err != nil {
				return nil, fmt.Errorf("%w: peer %q: %w", ErrConfig, p, err)
			}
			routes = append(routes, &url.URL{Scheme: "nats-route", Host: p})
		}
		so.Routes = routes
	}
	s, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("start NATS: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("%w: the embedded NATS server did not start in 30 s", ErrUnavailable)
	}
	return s, nil
}

func splitHostPort(hp string) (string, int, error) {
	host, p, err := net.SplitHostPort(hp)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port <= 0 || port > 65535 {
		return "", 0, fmt.Errorf("port %q is not 1..65535", p)
	}
	return host, port, nil
}

// connect connects to the embedded server in process, or to url.
func connect(s *server.Server, url, name string) (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name("twindex " + name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
	}
	if s != nil {
		opts = append(opts, nats.InProcessServer(s))
		url = ""
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: connect to NATS: %w", ErrUnavailable, err)
	}
	return nc, nil
}
