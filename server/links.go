package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
)

type backlinksInput struct {
	ID    string   `json:"id" jsonschema:"the document ID (it need not exist: links to documents not written yet are kept)"`
	Types []string `json:"types,omitempty" jsonschema:"only links of these types (any of), e.g. imports, contains, mentions"`
}

type backlinksOutput struct {
	Backlinks []index.Backlink `json:"backlinks" jsonschema:"documents linking to id: {from, type}, sorted by from"`
}

var backlinksArgs = map[string]arg{
	"id": {fix: `pass the ID of the document whose incoming links you want, e.g. {"id": "src/util.go"}`},
}

func (s *Service) addBacklinks() {
	addTool(s, &mcp.Tool{
		Name:        "backlinks",
		Title:       "Documents linking to a document",
		Description: "Every document whose links point to id (typed edges written with upsert's links), from the index of links by target. Use it to find what imports, contains or mentions a document; read them with get.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: boolPtr(false), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, backlinksArgs, s.backlinks)
}

func (s *Service) backlinks(_ context.Context, _ *mcp.CallToolRequest, in backlinksInput) (*mcp.CallToolResult, backlinksOutput, error) {
	if strings.TrimSpace(in.ID) == "" {
		return nil, backlinksOutput{}, badArg("backlinks", "id is empty: %s", backlinksArgs["id"].fix)
	}
	bl, err := s.eng.Backlinks(in.ID, in.Types...)
	if err != nil {
		s.log.Error("backlinks failed", "id", in.ID, "error", err)
		return nil, backlinksOutput{}, fmt.Errorf("backlinks failed: %w", err)
	}
	out := backlinksOutput{Backlinks: bl}
	if out.Backlinks == nil {
		out.Backlinks = []index.Backlink{}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d document(s) link to %q", len(bl), in.ID)
	for _, l := range bl {
		fmt.Fprintf(&b, "\n- %s (%s)", l.From, plain.OrDash(l.Type))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
}
