// Package server serves an index to other programs: the MCP tools that
// AI agents call (search, get, upsert, remove, backlinks, index_path,
// stats), shared by 'twindex mcp' and 'twindex serve'.
//
// A Service owns the index it serves: Close waits for the calls in
// progress, then closes it. Tool errors are results with isError set and a
// message that says how to fix the call; the session goes on.
package server
