//go:build !js

package cluster

import "errors"

var (
	// ErrClosed is returned by every method called after Close.
	ErrClosed = errors.New("cluster: closed")

	// ErrConfig is returned, wrapped with the reason, by Open for options
	// that cannot make a node: no name, peers without a listen address, a
	// stream made with another shard count.
	ErrConfig = errors.New("cluster: invalid configuration")

	// ErrUnavailable is returned, wrapped, when the stream does not take
	// a write in time (no quorum: a majority of its replicas is down) or
	// no replica of a shard answers a call that needs that shard.
	ErrUnavailable = errors.New("cluster: unavailable")
)
