package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/plain"
)

// Limits of the document tools.
const (
	getMaxIDs          = 100
	getDefaultMaxBytes = 8000
	getMaxMaxBytes     = 1 << 20
	writeMaxDocs       = 1000 // per upsert or remove call
)

type getInput struct {
	IDs      []string `json:"ids" jsonschema:"document IDs, as in search hits"`
	MaxBytes int      `json:"maxBytes,omitempty" jsonschema:"most body bytes returned per document"`
	Offset   int      `json:"offset,omitempty" jsonschema:"byte offset into each body to start at: the nextOffset of a truncated document"`
}

type docOut struct {
	ID        string            `json:"id"`
	Kind      string            `json:"kind,omitempty"`
	Title     string            `json:"title,omitempty"`
	Parent    string            `json:"parent,omitempty" jsonschema:"ID of the enclosing document (for files: the folder)"`
	Tags      []string          `json:"tags,omitempty"`
	Role      string            `json:"role,omitempty"`
	Project   string            `json:"project,omitempty"`
	Source    string            `json:"source,omitempty"`
	TS        string            `json:"ts,omitempty" jsonschema:"RFC 3339 time (files: modification time)"`
	Meta      map[string]string `json:"meta,omitempty"`
	Session   string            `json:"session,omitempty"`
	Links     []index.Link      `json:"links,omitempty" jsonschema:"the document's typed links: [{to, type}]"`
	Body      string            `json:"body" jsonschema:"the body from offset, at most maxBytes (cut at a character boundary)"`
	BodyBytes int               `json:"bodyBytes" jsonschema:"length of the whole body in bytes"`
	Offset    int               `json:"offset" jsonschema:"byte offset of body within the whole body"`
	Truncated bool              `json:"truncated" jsonschema:"true when more of the body follows"`
	// NextOffset is where the next part of the body starts.
	NextOffset *int `json:"nextOffset" jsonschema:"offset for the next part of the body, null when there is no more"`
}

type getOutput struct {
	Documents []docOut `json:"documents" jsonschema:"the documents found, in the order asked"`
	Missing   []string `json:"missing" jsonschema:"IDs no document has"`
}

var getArgs = map[string]arg{
	"ids": {minItems: count(1), maxItems: count(getMaxIDs),
		fix: fmt.Sprintf("ids is a list of 1 to %d document IDs, as returned in search hits", getMaxIDs)},
	"maxBytes": {min: num(1), max: num(getMaxMaxBytes), def: getDefaultMaxBytes,
		fix: fmt.Sprintf("maxBytes is from 1 to %d (default %d)", getMaxMaxBytes, getDefaultMaxBytes)},
	"offset": {min: num(0), fix: "offset is 0 or more: the nextOffset of a truncated document"},
}

func (s *Service) addGet() {
	addTool(s, &mcp.Tool{
		Name:  "get",
		Title: "Read documents",
		Description: fmt.Sprintf("Read stored documents by ID (from search hits): fields and body. "+
			"Bodies are capped at maxBytes (default %d); when truncated is true, call again with offset set to the document's nextOffset to read on.", getDefaultMaxBytes),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: boolPtr(false), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, getArgs, s.get)
}

func (s *Service) get(_ context.Context, _ *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, getOutput, error) {
	if len(in.IDs) == 0 {
		return nil, getOutput{}, badArg("get", "no ids: %s", getArgs["ids"].fix)
	}
	out := getOutput{Documents: []docOut{}, Missing: []string{}}
	if in.MaxBytes == 0 {
		in.MaxBytes = getDefaultMaxBytes
	}
	for _, id := range in.IDs {
		d, err := s.eng.Get(id)
		if errors.Is(err, index.ErrNotFound) {
			out.Missing = append(out.Missing, id)
			continue
		}
		if err != nil {
			s.log.Error("get failed", "id", id, "error", err)
			return nil, getOutput{}, fmt.Errorf("get %q: the index returned an error: %w", id, err)
		}
		out.Documents = append(out.Documents, toDocOut(d, in.Offset, in.MaxBytes))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: getText(&out)}}}, out, nil
}

func toDocOut(d *index.Doc, offset, maxBytes int) docOut {
	o := docOut{ID: d.ID, Kind: d.Kind, Title: d.Title, Parent: d.Parent, Tags: d.Tags, Role: d.Role,
		Project: d.Project, Source: d.Source, Meta: d.Meta, Session: d.Session, Links: d.Links, BodyBytes: len(d.Body)}
	if !d.Time.IsZero() {
		o.TS = d.Time.Format(time.RFC3339Nano)
	}
	start, end := bodyWindow(d.Body, offset, maxBytes)
	o.Body, o.Offset = d.Body[start:end], start
	if end < len(d.Body) {
		o.Truncated, o.NextOffset = true, &end
	}
	return o
}

// bodyWindow is the part of body from offset holding at most maxBytes,
// both ends moved to character boundaries: the start forward, the end
// back (but past at least one character, so paging always advances).
func bodyWindow(body string, offset, maxBytes int) (start, end int) {
	start = min(offset, len(body))
	for start < len(body) && !utf8.RuneStart(body[start]) {
		start++
	}
	end = min(start+maxBytes, len(body))
	for end > start && end < len(body) && !utf8.RuneStart(body[end]) {
		end--
	}
	if end == start && start < len(body) {
		_, n := utf8.DecodeRuneInString(body[start:])
		end = start + n
	}
	return start, end
}

func getText(out *getOutput) string {
	var b strings.Builder
	for i, d := range out.Documents {
		if i > 0 {
			b.WriteString("\n\n")
		}
		field := func(name, v string) {
			if v != "" {
				fmt.Fprintf(&b, "%s: %s\n", name, plain.Clean(v))
			}
		}
		field("id", d.ID)
		field("kind", d.Kind)
		field("title", d.Title)
		field("parent", d.Parent)
		field("tags", strings.Join(d.Tags, ", "))
		field("role", d.Role)
		field("project", d.Project)
		field("source", d.Source)
		field("ts", d.TS)
		for _, k := range slices.Sorted(maps.Keys(d.Meta)) {
			field("meta."+k, d.Meta[k])
		}
		if d.Body != "" {
			b.WriteString("\n" + d.Body)
		}
		if d.Truncated {
			fmt.Fprintf(&b, "\n[body bytes %d-%d of %d; read on with offset=%d]", d.Offset, d.Offset+len(d.Body), d.BodyBytes, *d.NextOffset)
		}
	}
	if len(out.Missing) > 0 {
		if len(out.Documents) > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "No document with ID %s (IDs come from search hits).", quoteAll(out.Missing))
	}
	return b.String()
}

func quoteAll(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// docIn is a document to upsert: the CLI's JSONL fields.
type docIn struct {
	ID      string            `json:"id" jsonschema:"unique ID; a document with the same ID is replaced"`
	Kind    string            `json:"kind,omitempty" jsonschema:"kind, for filtering (search kinds)"`
	Title   string            `json:"title,omitempty" jsonschema:"title, searched and weighted above the body"`
	Body    string            `json:"body,omitempty" jsonschema:"text, searched"`
	Parent  string            `json:"parent,omitempty" jsonschema:"ID of the enclosing document, for search under"`
	Tags    []string          `json:"tags,omitempty"`
	Role    string            `json:"role,omitempty"`
	Project string            `json:"project,omitempty"`
	Source  string            `json:"source,omitempty" jsonschema:"where the document came from (a path or URL), returned as is"`
	TS      string            `json:"ts,omitempty" jsonschema:"time: RFC 3339 (2024-05-01T12:00:00Z) or a date (2024-05-01), for since/until and date order"`
	Meta    map[string]string `json:"meta,omitempty" jsonschema:"extra string fields, returned by get"`
	Session string            `json:"session,omitempty" jsonschema:"session the document belongs to, for search boost"`
	Links   []index.Link      `json:"links,omitempty" jsonschema:"typed links to other documents (which need not exist yet): [{to, type}], e.g. type imports, contains, mentions"`
	Vector  []float32         `json:"vector,omitempty" jsonschema:"embedding; every vector of an index has the same dimension"`
}

type upsertInput struct {
	Docs []docIn `json:"docs" jsonschema:"documents to add or replace"`
}

type upsertOutput struct {
	IDs      []string `json:"ids" jsonschema:"IDs written, in the order given"`
	Warnings []string `json:"warnings,omitempty" jsonschema:"what was written in a lesser form, e.g. without vectors because the embedding server failed"`
	Seq      uint64   `json:"seq,omitempty" jsonschema:"on a cluster: the write's sequence in the cluster's log; search with minSeq to read it"`
}

var upsertArgs = map[string]arg{
	"docs": {minItems: count(1), maxItems: count(writeMaxDocs),
		fix: fmt.Sprintf("docs is a list of 1 to %d documents, each an object with a non-empty id and any of kind, title, body, parent, tags, role, project, source, ts (RFC 3339 or YYYY-MM-DD), meta, session, links [{to, type}], vector", writeMaxDocs)},
}

func (s *Service) addUpsert() {
	addTool(s, &mcp.Tool{
		Name:  "upsert",
		Title: "Add or replace documents",
		Description: fmt.Sprintf("Add documents to the index or replace those with the same id, all or none: if one document is invalid nothing is written and the error names it. "+
			"Up to %d per call; they are searchable as soon as the call returns.", writeMaxDocs),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: boolPtr(true), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, upsertArgs, s.upsert)
}

func (s *Service) upsert(ctx context.Context, _ *mcp.CallToolRequest, in upsertInput) (*mcp.CallToolResult, upsertOutput, error) {
	return s.write(ctx, in, false)
}

// write writes in's documents, all or none: added or replaced, or, with
// add, only added, failing on one that exists.
func (s *Service) write(ctx context.Context, in upsertInput, add bool) (*mcp.CallToolResult, upsertOutput, error) {
	if len(in.Docs) == 0 {
		return nil, upsertOutput{}, badArg("upsert", "no docs: %s", upsertArgs["docs"].fix)
	}
	docs := make([]index.Doc, 0, len(in.Docs))
	out := upsertOutput{IDs: make([]string, 0, len(in.Docs))}
	limit := folder.DocLimit(s.info.MaxSize)
	for i, j := range in.Docs {
		d := index.Doc{ID: j.ID, Kind: j.Kind, Title: j.Title, Body: j.Body, Parent: j.Parent, Tags: j.Tags, Role: j.Role,
			Project: j.Project, Source: j.Source, Meta: j.Meta, Session: j.Session, Links: j.Links, Vector: j.Vector}
		if j.TS != "" {
			t, err := ParseTime(j.TS)
			if err != nil {
				return nil, out, badArg("upsert", "docs[%d] (id %q): ts: %s; nothing was written", i, j.ID, err)
			}
			d.Time = t
		}
		if err := CheckDoc(d, limit); err != nil {
			return nil, out, badArg("upsert", "docs[%d] (id %q): %s; nothing was written, fix it and send the call again", i, j.ID, err)
		}
		docs = append(docs, d)
		out.IDs = append(out.IDs, d.ID)
	}
	w := &Writes{Upsert: docs}
	if add {
		w = &Writes{Add: docs}
	}
	a, err := s.eng.Write(ctx, w)
	if err != nil {
		switch {
		case errors.Is(err, index.ErrInvalidDoc):
			return nil, upsertOutput{}, badArg("upsert", "%s; nothing was written", strings.TrimPrefix(err.Error(), "index: "))
		case errors.Is(err, index.ErrExists):
			return nil, upsertOutput{}, &badRequest{code: "exists", err: err,
				msg: fmt.Sprintf("%s; nothing was written (PUT replaces documents)", err)}
		}
		s.log.Error("upsert failed", "docs", len(docs), "error", err)
		return nil, upsertOutput{}, fmt.Errorf("upsert failed, nothing was written: %w", err)
	}
	out.Warnings, out.Seq = a.Warnings, a.Seq
	text := fmt.Sprintf("Wrote %d document(s): %s", len(out.IDs), quoteAll(out.IDs))
	for _, w := range a.Warnings {
		text += "\nWarning: " + w
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

type removeInput struct {
	IDs []string `json:"ids" jsonschema:"IDs of the documents to remove; absent IDs are ignored"`
}

type removeOutput struct {
	Removed   int    `json:"removed" jsonschema:"documents that existed and were removed"`
	Requested int    `json:"requested" jsonschema:"IDs asked for"`
	Seq       uint64 `json:"seq,omitempty" jsonschema:"on a cluster: the write's sequence in the cluster's log; search with minSeq to read it"`
}

var removeArgs = map[string]arg{
	"ids": {minItems: count(1), maxItems: count(writeMaxDocs),
		fix: fmt.Sprintf("ids is a list of 1 to %d document IDs", writeMaxDocs)},
}

func (s *Service) addRemove() {
	addTool(s, &mcp.Tool{
		Name:  "remove",
		Title: "Remove documents",
		Description: "Remove documents by ID, all at once, and report how many existed. " +
			"A file removed this way comes back at the next index_path of its folder if it still exists on disk.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: boolPtr(true), IdempotentHint: true, OpenWorldHint: boolPtr(false)},
	}, removeArgs, s.remove)
}

func (s *Service) remove(ctx context.Context, _ *mcp.CallToolRequest, in removeInput) (*mcp.CallToolResult, removeOutput, error) {
	if len(in.IDs) == 0 {
		return nil, removeOutput{}, badArg("remove", "no ids: %s", removeArgs["ids"].fix)
	}
	a, err := s.eng.Write(ctx, &Writes{Remove: in.IDs})
	n := a.Removed
	if err != nil {
		s.log.Error("remove failed", "ids", len(in.IDs), "error", err)
		return nil, removeOutput{}, fmt.Errorf("remove failed, nothing was removed: %w", err)
	}
	out := removeOutput{Removed: n, Requested: len(in.IDs), Seq: a.Seq}
	text := fmt.Sprintf("Removed %d of %d.", n, len(in.IDs))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}
