package server

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolPanicFailsTheCall holds that a tool whose handler panics (a bug)
// fails that call, through MCP and through the HTTP API, with a message
// that says so, and that the server goes on answering.
func TestToolPanicFailsTheCall(t *testing.T) {
	mt := newMCPTest(t)
	type none struct{}
	addTool(mt.srv, &mcp.Tool{Name: "panics", Description: "panics"}, nil,
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, none, error) {
			var m map[string]int
			m["x"]++ // a runtime error, as a bug raises
			return nil, none{}, nil
		})
	res := mt.call("panics", object{})
	if msg := resultText(res); !res.IsError || !strings.Contains(msg, "internal error") || !strings.Contains(msg, "nil map") {
		t.Fatalf("MCP: error %v, %q; want an error result naming the panic", res.IsError, msg)
	}
	if _, err := mt.srv.tools["panics"].call(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("HTTP API: %v; want the internal error", err)
	}
	mt.upsert(object{"id": "a", "body": "still here"})
	var out struct{ Total int }
	mt.ok("search", object{"query": "still"}, &out)
	if out.Total != 1 {
		t.Fatalf("the next search: %d hits, want 1", out.Total)
	}
}
