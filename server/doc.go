// Package server serves an index to other programs, from the one process
// that holds it open: the MCP tools that AI agents call (search, get,
// upsert, remove, backlinks, index_path, stats), and the local endpoint
// through which the other twindex commands on the machine use the same
// index. It is what 'twindex serve' and 'twindex mcp' share.
//
// An Engine is an index as the tools and the CLI use it: a Host holds it
// open in this process; a Client (Dial) sends each call to the Owner, the
// process that holds it and serves it (Own). An index has at most one
// Owner, since it has one lock; the Owner records itself in the index
// folder, and a process that holds the lock knows any such record it
// finds is stale (RemoveStale).
//
// Invariants: the root a Host mirrors is fixed for its life, and nothing
// a caller sends reads or indexes a path outside it. A write is
// acknowledged only once durable, on either side of the endpoint. Tool
// errors are results with isError set and a message that says how to fix
// the call; the session goes on.
package server
