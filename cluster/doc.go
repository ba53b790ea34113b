//go:build !js

// Package cluster runs twindex nodes as one search service on NATS
// JetStream: every write goes to a replicated stream, each node applies the
// shards it holds from the stream into indexes of its own, and a search on
// any node fans out to one replica of every shard and merges their answers
// into the ranking one index of all the documents would give.
//
// Invariants:
//   - The stream is the truth. A write is acknowledged once the stream has
//     it (on a majority of its replicas, fsynced); a node's indexes are
//     derived from it and can be rebuilt from it.
//   - Each document has one subject, twindex.d.SHARD.KEY, where SHARD is a
//     hash of its ID modulo the stream's shard count and KEY a hash of the
//     ID; the stream keeps the last message of each subject (a document's
//     current state or its removal), so it grows with the documents, not
//     with the writes.
//   - A node applies each shard's messages in stream order, and records the
//     stream sequence of the last one in the same store transaction as the
//     documents (index.Batch.Mark): after a crash it resumes after that
//     message and no other.
//   - Each shard is placed on at least two nodes (when there are two),
//     chosen by rendezvous hashing over the registered nodes; a node keeps
//     every shard it was ever given and keeps applying it.
//   - A search never silently leaves a shard out: a shard that no replica
//     answers within the timeout is named in the result's warnings and
//     makes it partial.
//
// The package is native only: the browser build never links NATS.
package cluster
