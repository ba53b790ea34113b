package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
)

// Meta keys of documents made from files and folders. A document with
// metaSHA is a file, one with metaDir a folder; syncing touches only
// these, never documents ingested from JSONL.
const (
	metaSize  = "size"
	metaMtime = "mtime"
	metaSHA   = "sha256"
	metaDir   = "dir"
	kindDir   = "dir"
)

// syncOptions configure a folder sync.
type syncOptions struct {
	root     string // absolute index root; IDs are relative to it
	scope    string // absolute folder or file to bring up to date
	indexDir string
	maxSize  int64
	quiet    bool
	always   bool // report skips even when nothing changed (the index command)
	// progress, if set, is called as files are indexed with the number
	// done and the number to do (the MCP server's progress notifications).
	progress func(done, total int)
}

// syncReport says what a sync did.
type syncReport struct {
	written, removed, unchanged, binary int
	invalid                             int // files the engine refused
	elapsed                             time.Duration
	skips                               walkResult // oversize and badNames only
}

// known is the state of an indexed file or folder, from its Meta.
type known struct {
	size, mtime int64
	sha         string
	dir         bool
}

// syncFolder brings the index up to date with the files under scope: new
// and changed files (size or mtime differ, then the content hash) are
// indexed, files that vanished or are now ignored are removed. Each folder
// is a document too (kind "dir", no text), so that the engine's --under
// filter, which follows Parent links, reaches every file below a folder.
func syncFolder(ctx context.Context, e *env, ix *index.Index, o syncOptions) (syncReport, error) {
	start := time.Now()
	var rep syncReport
	scopeID, ok := relID(o.root, o.scope)
	if !ok {
		return rep, usageErr("pass --index to use another index", "%s is outside the index root %s", o.scope, o.root)
	}
	inScope := func(id string) bool {
		return scopeID == "" || id == scopeID || strings.HasPrefix(id, scopeID+"/")
	}

	// What the index holds under scope (metadata only: no text is read).
	have := map[string]known{}
	err := ix.WalkMeta(ctx, func(d *index.Doc) error {
		if !inScope(d.ID) {
			return nil
		}
		if d.Meta[metaDir] != "" {
			have[d.ID] = known{dir: true}
		} else if sha := d.Meta[metaSHA]; sha != "" {
			size, _ := strconv.ParseInt(d.Meta[metaSize], 10, 64)
			mtime, _ := strconv.ParseInt(d.Meta[metaMtime], 10, 64)
			have[d.ID] = known{size: size, mtime: mtime, sha: sha}
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("read index: %w", err)
	}

	w := &walker{root: o.root, indexDir: o.indexDir, maxSize: o.maxSize}
	if err := w.walk(o.scope); err != nil {
		return rep, usageErr("", "walk %s: %w", o.scope, err)
	}
	seen := map[string]bool{}
	bt := &batcher{ix: ix, invalid: func(label string, err error) {
		fmt.Fprintf(e.stderr, "twindex: skipped %s: %s\n", label, err)
	}, warn: func(msg string) { fmt.Fprintf(e.stderr, "twindex: warning: %s\n", msg) }}

	// Folder documents: every walked folder, plus the folders from the
	// root down to scope so the Parent chain is unbroken.
	dirs := w.res.dirs
	if scopeID != "" {
		parts := strings.Split(scopeID, "/")
		for i := 1; i <= len(parts); i++ {
			id := strings.Join(parts[:i], "/")
			if i < len(parts) || isDirPath(o.scope) {
				dirs = append([]string{id}, dirs...)
			}
		}
	}
	for _, id := range dirs {
		seen[id] = true
		if k, ok := have[id]; ok && k.dir {
			continue
		}
		if !inScope(id) {
			if _, err := ix.Get(id); err == nil {
				continue
			}
		}
		if err := bt.upsert(ctx, dirDoc(id), id); err != nil {
			return rep, err
		}
	}

	var todo []fileEntry
	for _, f := range w.res.files {
		if k, ok := have[f.id]; ok && !k.dir && k.size == f.size && k.mtime == f.mtime {
			seen[f.id] = true
			rep.unchanged++
			continue
		}
		todo = append(todo, f)
	}
	prog := newProgress(e, o.quiet, "indexing", len(todo))
	defer prog.done()
	cur := 0
	update := func(done int) {
		prog.update(done)
		if o.progress != nil {
			o.progress(done, len(todo))
		}
	}
	bt.onFlush = func() { update(cur) } // reading is fast; the wait is in the flush
	for i, f := range todo {
		cur = i
		update(i)
		data, err := os.ReadFile(f.abs)
		if err != nil {
			continue // vanished or unreadable: treated as gone
		}
		if isBinary(data) {
			rep.binary++
			continue
		}
		sum := sha256.Sum256(data)
		sha := hex.EncodeToString(sum[:])
		seen[f.id] = true
		if k, ok := have[f.id]; ok && k.sha == sha {
			rep.unchanged++ // touched, same content: no re-index
			continue
		}
		if err := bt.upsert(ctx, fileDoc(f, data, sha), f.id); err != nil {
			return rep, err
		}
	}
	for id := range have {
		if !seen[id] {
			if err := bt.remove(ctx, id); err != nil {
				return rep, err
			}
		}
	}
	if err := bt.flush(ctx); err != nil {
		return rep, err
	}
	prog.done()
	if o.progress != nil {
		o.progress(len(todo), len(todo))
	}
	rep.written, rep.removed, rep.invalid, rep.elapsed = bt.written, bt.removed, bt.failed, time.Since(start)
	rep.skips = walkResult{oversize: w.res.oversize, badNames: w.res.badNames}

	changed := rep.written+rep.removed > 0
	if changed && !o.quiet {
		fmt.Fprintf(e.stderr, "twindex: indexed %d, removed %d, unchanged %d in %s (%s)\n",
			rep.written, rep.removed, rep.unchanged, rep.elapsed.Round(time.Millisecond), o.root)
	}
	if changed || o.always {
		reportSkips(e, w.res, o.maxSize)
	}
	return rep, nil
}

func reportSkips(e *env, res walkResult, maxSize int64) {
	if n := len(res.oversize); n > 0 {
		fmt.Fprintf(e.stderr, "twindex: skipped %d file(s) over %s (raise --max-size to index them): %s\n",
			n, formatBytes(maxSize), listSome(res.oversize, 5))
	}
	if n := len(res.badNames); n > 0 {
		fmt.Fprintf(e.stderr, "twindex: skipped %d file(s) whose names are not valid UTF-8: %s\n", n, listSome(res.badNames, 5))
	}
}

func listSome(l []string, max int) string {
	if len(l) <= max {
		return strings.Join(l, ", ")
	}
	return strings.Join(l[:max], ", ") + fmt.Sprintf(", and %d more", len(l)-max)
}

func isDirPath(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func parentOf(id string) string {
	if d := path.Dir(id); d != "." {
		return d
	}
	return ""
}

// dirDoc is a folder's document: no text (so no query matches it, not even
// its name), only a link in the Parent chain.
func dirDoc(id string) index.Doc {
	return index.Doc{ID: id, Kind: kindDir, Parent: parentOf(id), Source: id, Meta: map[string]string{metaDir: "1"}}
}

func fileDoc(f fileEntry, data []byte, sha string) index.Doc {
	return index.Doc{
		ID:     f.id,
		Kind:   kindOf(f.id),
		Title:  path.Base(f.id),
		Body:   strings.ToValidUTF8(string(data), "\uFFFD"),
		Parent: parentOf(f.id),
		Source: f.id,
		Time:   time.Unix(0, f.mtime).UTC(),
		Meta: map[string]string{
			metaSize:  strconv.FormatInt(f.size, 10),
			metaMtime: strconv.FormatInt(f.mtime, 10),
			metaSHA:   sha,
		},
	}
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
