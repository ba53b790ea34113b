package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/internal/plain"
)

// progressEvery spaces index_path's progress notifications.
const progressEvery = 200 * time.Millisecond

type indexPathInput struct {
	Path string `json:"path" jsonschema:"folder or file to index; relative paths are resolved against the index root"`
}

type indexPathOutput struct {
	Root      string   `json:"root" jsonschema:"folder document IDs are relative to"`
	Scope     string   `json:"scope" jsonschema:"ID of the folder or file indexed, empty for the root"`
	Written   int      `json:"written" jsonschema:"files and folders added or changed"`
	Removed   int      `json:"removed" jsonschema:"documents of files that are gone or now ignored"`
	Unchanged int      `json:"unchanged"`
	Binary    int      `json:"binary" jsonschema:"binary files skipped"`
	Invalid   int      `json:"invalid" jsonschema:"files the index refused (logged by the server)"`
	Oversize  []string `json:"oversize" jsonschema:"IDs of files skipped for their size (up to 20)"`
	Skipped   int      `json:"skipped" jsonschema:"files skipped for their size or a name that is not UTF-8"`
	TookMs    int64    `json:"tookMs"`
}

var indexPathArgs = map[string]arg{
	"path": {fix: `path is a folder or file on the server's machine, e.g. {"path": "/home/me/notes"}`},
}

func (s *Service) addIndexPath() {
	addTool(s, &mcp.Tool{
		Name:  "index_path",
		Title: "Index a folder",
		Description: "Index a folder or file, or bring it up to date, as 'twindex index' does: new and changed files are indexed, deleted or ignored ones removed, " +
			".gitignore honored, binary and oversized files skipped. Document IDs are paths relative to the index root; " +
			"searches keep working while it runs, and it reports progress when the call carries a progress token.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: boolPtr(true), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, indexPathArgs, s.indexPath)
}

func (s *Service) indexPath(ctx context.Context, req *mcp.CallToolRequest, in indexPathInput) (*mcp.CallToolResult, indexPathOutput, error) {
	const tool = "index_path"
	if strings.TrimSpace(in.Path) == "" {
		return nil, indexPathOutput{}, badArg(tool, "path is empty: %s", indexPathArgs["path"].fix)
	}
	root := s.info.Root
	if root == "" {
		return nil, indexPathOutput{}, badArg(tool, "this server mirrors no folder, so it indexes none: start it with one (twindex mcp PATH, or --root DIR) to index files")
	}
	p := in.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, indexPathOutput{}, badArg(tool, "path %q: %s", in.Path, err)
	}
	scope, ok := folder.RelID(root, abs)
	if !ok {
		return nil, indexPathOutput{}, outsideRoot(abs, root)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, indexPathOutput{}, badArg(tool, "path %q: %s; pass an existing folder or file (absolute, or relative to %s)", in.Path, err, root)
	}

	var notify func(done, total int)
	if tok := progressToken(req); tok != nil {
		notify = s.progress(ctx, req, tok)
	}
	rep, err := s.eng.Sync(ctx, abs, notify)
	for _, r := range rep.Invalid {
		s.log.Info("skipped", "id", r.ID, "reason", r.Reason)
	}
	for _, w := range rep.Warnings {
		s.log.Info("warning", "msg", w)
	}
	if err != nil {
		switch {
		case errors.Is(err, context.Canceled):
			return nil, indexPathOutput{}, errors.New("index_path: cancelled; the batches committed stay, call again to finish")
		case errors.Is(err, folder.ErrOutsideRoot):
			return nil, indexPathOutput{}, outsideRoot(abs, root)
		case errors.Is(err, folder.ErrWalk):
			return nil, indexPathOutput{}, badArg(tool, "%s", err)
		}
		s.log.Error("index_path failed", "path", abs, "error", err)
		return nil, indexPathOutput{}, fmt.Errorf("index_path %s: %w; the batches committed stay", abs, err)
	}
	if n := len(rep.Oversize); n > 0 {
		s.log.Info(fmt.Sprintf("skipped %d file(s) over %s (raise --max-size to index them): %s", n, plain.Bytes(s.info.MaxSize), plain.List(rep.Oversize, 5)))
	}
	if n := len(rep.BadNames); n > 0 {
		s.log.Info(fmt.Sprintf("skipped %d file(s) whose names are not valid UTF-8: %s", n, plain.List(rep.BadNames, 5)))
	}
	out := indexPathOutput{Root: root, Scope: scope, Written: rep.Written, Removed: rep.Removed, Unchanged: rep.Unchanged,
		Binary: rep.Binary, Invalid: len(rep.Invalid), Oversize: rep.Oversize,
		Skipped: len(rep.Oversize) + len(rep.BadNames), TookMs: rep.Elapsed.Milliseconds()}
	if len(out.Oversize) > 20 {
		out.Oversize = out.Oversize[:20]
	}
	if out.Oversize == nil {
		out.Oversize = []string{}
	}
	text := fmt.Sprintf("Indexed %s: %d written, %d removed, %d unchanged, %d binary skipped in %s.",
		abs, out.Written, out.Removed, out.Unchanged, out.Binary, rep.Elapsed.Round(time.Millisecond))
	if n := len(rep.Oversize); n > 0 {
		text += fmt.Sprintf(" %d file(s) over %s skipped: %s.", n, plain.Bytes(s.info.MaxSize), plain.List(rep.Oversize, 5))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

// outsideRoot is index_path's error for a path outside the root, or
// leading outside it through a symbolic link.
func outsideRoot(abs, root string) error {
	return badArg("index_path", "%s is outside the index root %s, which document IDs are relative to; index a path under it, or run another server with --index for that folder", abs, root)
}

// progressToken is the call's progress token; nil for none, and for a
// call not made over MCP (the HTTP API).
func progressToken(req *mcp.CallToolRequest) any {
	if req == nil || req.Params == nil {
		return nil
	}
	return req.Params.GetProgressToken()
}

// progress returns a callback that sends progress notifications for the
// call, at most one per progressEvery apart from the last.
func (s *Service) progress(ctx context.Context, req *mcp.CallToolRequest, tok any) func(done, total int) {
	var mu sync.Mutex
	var last time.Time
	sent := -1
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if done == sent || (done < total && time.Since(last) < progressEvery) {
			return
		}
		last, sent = time.Now(), done
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok,
			Progress: float64(done), Total: float64(total), Message: fmt.Sprintf("indexed %d of %d changed files", done, total)})
		s.log.Debug("progress notification", "done", done, "total", total, "error", err)
	}
}

type searchCounters struct {
	Served       int64 `json:"served" jsonschema:"searches answered since the server started"`
	WithHits     int64 `json:"withHits" jsonschema:"searches that found at least one document"`
	SnippetBytes int64 `json:"snippetBytes" jsonschema:"bytes of snippets returned"`
}

type statsOutput struct {
	Index        string         `json:"index" jsonschema:"index directory"`
	Root         string         `json:"root,omitempty" jsonschema:"folder file IDs are relative to"`
	Docs         int            `json:"docs"`
	Kinds        map[string]int `json:"kinds" jsonschema:"documents per kind (\"\" for none)"`
	StoreBytes   int64          `json:"storeBytes"`
	TextBytes    int64          `json:"textBytes"`
	TrigramBytes int64          `json:"trigramBytes"`
	Updated      string         `json:"updated,omitempty" jsonschema:"time of the last write, RFC 3339"`
	Writes       uint64         `json:"writes" jsonschema:"writes since the index was created"`
	Searches     searchCounters `json:"searches"`
}

func (s *Service) addStats() {
	addTool(s, &mcp.Tool{
		Name:        "stats",
		Title:       "Index statistics",
		Description: "Document counts per kind, index sizes, the time of the last update, and this server's search counters; use the kinds it lists to filter search.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: boolPtr(false), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, nil, s.stats)
}

func (s *Service) stats(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, statsOutput, error) {
	st, err := s.eng.Stats()
	if err != nil {
		s.log.Error("stats failed", "error", err)
		return nil, statsOutput{}, fmt.Errorf("stats: the index returned an error: %w", err)
	}
	out := statsOutput{Index: s.info.Dir, Root: s.info.Root, Docs: st.Docs, Kinds: st.Kinds, StoreBytes: st.StoreBytes,
		TextBytes: st.TextBytes, TrigramBytes: st.TrigramBytes, Writes: st.Seq,
		Searches: searchCounters{Served: s.searches.Load(), WithHits: s.searchesWithHits.Load(), SnippetBytes: s.snippetBytes.Load()}}
	if out.Kinds == nil {
		out.Kinds = map[string]int{}
	}
	if !st.Updated.IsZero() {
		out.Updated = st.Updated.UTC().Format(time.RFC3339)
	}
	kinds := make([]string, 0, len(out.Kinds))
	for k, n := range out.Kinds {
		kinds = append(kinds, fmt.Sprintf("%s %d", plain.OrDash(k), n))
	}
	sort.Strings(kinds)
	text := fmt.Sprintf("%d documents (%s); store %s, text index %s, trigram index %s; last update %s; %d searches served, %d with hits, %s of snippets.",
		out.Docs, strings.Join(kinds, ", "), plain.Bytes(out.StoreBytes), plain.Bytes(out.TextBytes), plain.Bytes(out.TrigramBytes), plain.OrDash(out.Updated),
		out.Searches.Served, out.Searches.WithHits, plain.Bytes(out.Searches.SnippetBytes))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}
