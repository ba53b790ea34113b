package folder

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twindex/twindex/extract"
	"github.com/twindex/twindex/index"
)

// DefaultMaxSize is the size over which a file is skipped when Options
// say nothing.
const DefaultMaxSize = 1 << 20

// Meta keys of documents made from files and folders. A document with
// metaSHA is a file, one with metaDir a folder; syncing touches only
// these, never documents written otherwise (JSONL, upserts).
const (
	metaSize  = "size"
	metaMtime = "mtime"
	metaSHA   = "sha256"
	metaDir   = "dir"
	kindDir   = "dir"
)

// Options configure a sync.
type Options struct {
	Root     string // absolute index root; IDs are relative to it
	IndexDir string // absolute; never walked
	MaxSize  int64  // files over this many bytes are skipped; 0 means DefaultMaxSize
	// Progress, if set, is called as files are indexed with the number
	// done and the number to do.
	Progress func(done, total int)
	// Walk, if set, is what a sync that could not write found
	// (ReadOnlyError): a sync of the same root, scopes and size limit
	// takes it instead of walking the folder again.
	Walk *Walk
}

// Walk is what a sync's walk of its scopes found (ReadOnlyError).
type Walk struct {
	root    string
	scopes  []string
	maxSize int64
	res     walkResult
}

// of returns the walk's result when it is of root's scopes under the
// size limit maxSize, as a sync would find it: a copy, which the sync may
// add to.
func (w *Walk) of(root string, scopes []string, maxSize int64) (walkResult, bool) {
	if w == nil || w.root != root || w.maxSize != maxSize || !slices.Equal(w.scopes, scopes) {
		return walkResult{}, false
	}
	res := w.res
	res.oversize = slices.Clone(res.oversize)
	return res, true
}

// Report says what a sync did.
type Report struct {
	Written   int `json:"written"`   // files and folders added or changed
	Removed   int `json:"removed"`   // documents of files gone or now ignored
	Unchanged int `json:"unchanged"` // files as indexed
	Binary    int `json:"binary"`    // binary files skipped
	// Invalid are the files the index refused, or that could not be
	// read as what their name says (a bad .gz), in the order met.
	Invalid  []Refusal     `json:"invalid,omitempty"`
	Warnings []string      `json:"warnings,omitempty"` // writes done in a lesser form
	Oversize []string      `json:"oversize,omitempty"` // IDs of files over MaxSize (a .gz file: its text)
	BadNames []string      `json:"badNames,omitempty"` // paths whose names are not valid UTF-8
	Elapsed  time.Duration `json:"elapsed"`
}

// Refusal is a file the index refused, and why.
type Refusal struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// IsFile reports whether a document with this Meta is a file's, as Sync
// writes them.
func IsFile(meta map[string]string) bool { return meta[metaSHA] != "" }

// metaKeys are the values of an indexed file's or folder's Meta that a
// sync compares, in the order known is made of.
var metaKeys = []string{metaDir, metaSHA, metaSize, metaMtime}

// known is the state of an indexed file or folder, from its Meta.
type known struct {
	size, mtime int64
	sha         string
	dir         bool
}

// Sync brings the index up to date with the files under each scope, an
// absolute folder or file under the root (the root itself when none is
// given): new and changed files (size or mtime differ, then the content
// hash; a scope that is a file is always hashed) are indexed, a file
// whose mtime alone changed is written again to store it, files that
// vanished or are now ignored are removed, and so are the documents under
// a scope that no longer exists. Each folder is a document too (kind
// "dir", no text), so that the engine's Under filter, which follows
// Parent links, reaches every file below a folder. It returns
// ErrOutsideRoot (wrapped) for a scope outside the root, or under it but
// reached through a symbolic link that leads out of it, and a *WalkError
// when a scope cannot be read; the report holds what was done before an
// error.
//
// Cost: a walk of each scope with a stat of every file (on GOMAXPROCS
// goroutines), beside a metadata scan of the index (none for a sync of
// the whole folder while the store is at the write the last one recorded:
// syncedFile), and a read and hash of each file whose size or mtime
// changed; binary files are read once per size and mtime (binaryFile).
func Sync(ctx context.Context, ix *index.Index, o *Options, scopes ...string) (*Report, error) {
	start := time.Now()
	rep := &Report{}
	maxSize := o.MaxSize
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	if len(scopes) == 0 {
		scopes = []string{o.Root}
	}
	scopes = outermost(scopes)
	ids := make([]string, len(scopes))
	for i, scope := range scopes {
		id, ok := RelID(o.Root, scope)
		if !ok || leadsOutside(o.Root, scope) {
			return rep, fmt.Errorf("%s is %w %s", scope, ErrOutsideRoot, o.Root)
		}
		ids[i] = id
	}
	inScope := func(id string) bool {
		for _, s := range ids {
			if s == "" || id == s || strings.HasPrefix(id, s+"/") {
				return true
			}
		}
		return false
	}

	// What the index holds under the scopes (four values of each record's
	// metadata), read while the scopes are walked: neither waits for the
	// other. A sync of the whole folder takes it from the record of the
	// last one instead while the store is at the write that record names
	// (synced). The write is read first: one made after it, while the
	// index's side is read or the sync writes, leaves the record out of
	// date, never the other way round.
	seq0, at0, err := ix.LastWrite()
	if err != nil {
		return rep, fmt.Errorf("read index: %w", err)
	}
	whole := len(ids) == 1 && ids[0] == "" && o.IndexDir != ""
	var last *synced
	if whole {
		if last = loadSynced(o.IndexDir); last != nil && !last.current(seq0, at0) {
			last = nil
		}
	}
	var have map[string]known
	var haveErr error
	var wg sync.WaitGroup
	if last == nil {
		wg.Go(func() { have, haveErr = scanMeta(ctx, ix, inScope) })
	}
	w := &walker{root: o.Root, indexDir: o.IndexDir, maxSize: maxSize}
	var walkErr error
	walked, ok := o.Walk.of(o.Root, scopes, maxSize)
	if ok {
		w.res = walked
	} else {
		for _, scope := range scopes {
			if err := w.walk(scope); err != nil {
				walkErr = &WalkError{Path: scope, Err: err}
				break
			}
		}
		if walkErr == nil {
			walked = w.res
			walked.oversize = slices.Clone(walked.oversize)
		}
	}
	wg.Wait()
	if haveErr != nil {
		return rep, haveErr
	}
	if walkErr != nil {
		return rep, walkErr
	}

	s := &syncer{o: o, maxSize: maxSize, rep: rep, res: &w.res, seen: map[string]bool{}}
	apply := Apply(ix)
	s.bt = &Writer{
		Write: func(ctx context.Context, upserts []index.Doc, removes []string) (index.Applied, error) {
			a, err := apply(ctx, upserts, removes)
			if err == nil {
				s.commits++ // a batch, never empty, that the store took as one write
			}
			return a, err
		},
		Invalid: func(label string, err error) {
			rep.Invalid = append(rep.Invalid, Refusal{ID: label, Reason: err.Error()})
		},
		Warn: func(msg string) { rep.Warnings = append(rep.Warnings, msg) }}
	defer func() {
		rep.Written, rep.Removed, rep.Elapsed = s.bt.Written, s.bt.Removed, time.Since(start)
		rep.Oversize, rep.BadNames = w.res.oversize, w.res.badNames
	}()

	// Binary files noted under the scopes are noted again as they are
	// met; those outside stay noted.
	oldBins := loadBinaries(o.IndexDir)
	s.bins = maps.Clone(oldBins)
	maps.DeleteFunc(s.bins, func(id string, _ [2]int64) bool { return inScope(id) })
	defer func() { s.bins.save(o.IndexDir, oldBins) }()

	// While the store is at the last sync's write, the record stands for
	// the index's side: merged with the walk, both in the walk's order,
	// it gives what to look at again (new files, changed ones, those the
	// index does not hold) and what to remove, with no lookup by ID.
	// same: nothing changed since.
	var a alignment
	aligned := false
	if last != nil {
		if a, aligned = last.align(&w.res); !aligned {
			// A record of another order than this walk's (another
			// version's): the store is scanned instead.
			if have, err = scanMeta(ctx, ix, inScope); err != nil {
				return rep, err
			}
		}
	}
	same := aligned && a.changes == 0
	if aligned {
		s.kinds = a.kinds
		for _, d := range a.dirs {
			s.seen[d] = true // not to be removed as a file gone by that name
			if err := s.bt.Upsert(ctx, dirDoc(d), d); err != nil {
				return rep, refused(err, o, scopes, maxSize, walked)
			}
		}
	} else {
		s.have = have
		s.kinds = bytes.Repeat([]byte{fileNot}, len(w.res.files))
		if err := s.dirs(ctx, ix, ids, scopes, inScope); err != nil {
			return rep, refused(err, o, scopes, maxSize, walked)
		}
	}
	var todo []int // files to read, by position in res.files
	for i, f := range w.res.files {
		if k, ok := have[f.id]; ok && !k.dir && !f.named && k.size == f.size && k.mtime == f.mtime {
			s.seen[f.id] = true
			s.kinds[i] = fileKept
		}
		if s.kinds[i] == fileKept {
			rep.Unchanged++
			continue
		}
		if b, ok := oldBins[f.id]; ok && !f.named && b == [2]int64{f.size, f.mtime} {
			s.bins[f.id] = b
			rep.Binary++
			continue
		}
		todo = append(todo, i)
	}
	if err := s.read(ctx, todo); err != nil {
		return rep, refused(err, o, scopes, maxSize, walked)
	}
	gone := slices.Concat(a.gone, a.goneDir)
	for _, i := range a.held {
		if s.kinds[i] != fileKept { // gone, unreadable, binary, refused
			gone = append(gone, w.res.files[i].id)
		}
	}
	for _, id := range gone {
		if s.seen[id] {
			continue // a file or folder of that name was written instead
		}
		if err := s.bt.Remove(ctx, id); err != nil {
			return rep, refused(err, o, scopes, maxSize, walked)
		}
	}
	for id := range s.have {
		if !s.seen[id] {
			if err := s.bt.Remove(ctx, id); err != nil {
				return rep, refused(err, o, scopes, maxSize, walked)
			}
		}
	}
	if err := s.bt.Flush(ctx); err != nil {
		return rep, refused(err, o, scopes, maxSize, walked)
	}
	if o.Progress != nil {
		o.Progress(len(todo), len(todo))
	}
	if whole && (!same || s.changed) {
		s.record(ix, seq0)
	}
	return rep, nil
}

// refused returns err, or for a write refused as the index is
// read-only a *ReadOnlyError holding the walk.
func refused(err error, o *Options, scopes []string, maxSize int64, walked walkResult) error {
	if !errors.Is(err, index.ErrReadOnly) {
		return err
	}
	return &ReadOnlyError{Walk: &Walk{root: o.Root, scopes: scopes, maxSize: maxSize, res: walked}, Err: err}
}

// scanMeta returns what the index holds under the scopes, from four
// values of each stored record's metadata.
func scanMeta(ctx context.Context, ix *index.Index, inScope func(string) bool) (map[string]known, error) {
	n, err := ix.Count()
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	have := make(map[string]known, n) // grown, it was a sixth of a sync's CPU time
	err = ix.WalkMeta(ctx, metaKeys, func(id []byte, vals [][]byte) error {
		switch {
		case !inScope(string(id)):
		case len(vals[0]) > 0:
			have[string(id)] = known{dir: true}
		case len(vals[1]) > 0:
			// No string is made to parse a number: strconv copies its
			// input only into an error.
			size, _ := strconv.ParseInt(string(vals[2]), 10, 64)
			mtime, _ := strconv.ParseInt(string(vals[3]), 10, 64)
			have[string(id)] = known{size: size, mtime: mtime, sha: string(vals[1])}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	return have, nil
}

// syncer is one sync's state past the walk.
type syncer struct {
	o       *Options
	maxSize int64
	rep     *Report
	bt      *Writer
	res     *walkResult
	have    map[string]known // what the index holds under the scopes
	seen    map[string]bool  // what of have the walk found, and the names the sync wrote
	bins    binaries
	kinds   []byte // whether the index holds each file of res as found (fileKept, fileNot)
	changed bool   // a file the last sync did not keep is kept
	commits int    // writes the store took from this sync
}

// dirs writes a document for every walked folder, and for the folders
// from the root down to each scope so the Parent chain is unbroken,
// that the index does not hold as a folder.
func (s *syncer) dirs(ctx context.Context, ix *index.Index, ids, scopes []string, inScope func(string) bool) error {
	var dirs []string
	for i, scopeID := range ids {
		if scopeID == "" {
			continue
		}
		parts := strings.Split(scopeID, "/")
		for j := 1; j < len(parts); j++ {
			id := strings.Join(parts[:j], "/")
			if isDirPath(filepath.Join(s.o.Root, filepath.FromSlash(id))) {
				dirs = append(dirs, id)
			}
		}
		if isDirPath(scopes[i]) {
			dirs = append(dirs, scopeID)
		}
	}
	for _, id := range append(dirs, s.res.dirs...) {
		if s.seen[id] {
			continue
		}
		s.seen[id] = true
		if k, ok := s.have[id]; ok && k.dir {
			continue
		}
		if !inScope(id) {
			if _, err := ix.Get(id); err == nil {
				continue
			}
		}
		if err := s.bt.Upsert(ctx, dirDoc(id), id); err != nil {
			return err
		}
	}
	return nil
}

// read reads the files of res at the positions todo and writes those
// that are text and not in the index as read into it.
func (s *syncer) read(ctx context.Context, todo []int) error {
	cur := 0
	update := func(done int) {
		if s.o.Progress != nil {
			s.o.Progress(done, len(todo))
		}
	}
	s.bt.OnFlush = func() { update(cur) } // reading is fast; the wait is in the flush
	for i, fi := range todo {
		cur = i
		update(i)
		f := s.res.files[fi]
		// A .gz file's bytes are not its text: it is sniffed once
		// decompressed.
		data, binary, err := readText(filepath.Join(s.o.Root, filepath.FromSlash(f.id)), !extract.Compressed(f.id))
		if err != nil {
			continue // vanished or unreadable: treated as gone
		}
		var x extract.File
		if !binary {
			x, err = extract.Read(f.id, data, int(s.maxSize))
			switch {
			case errors.Is(err, extract.ErrTooLarge):
				s.res.oversize = append(s.res.oversize, f.id)
				continue
			case err != nil:
				s.rep.Invalid = append(s.rep.Invalid, Refusal{ID: f.id, Reason: err.Error()})
				continue
			}
			binary = isBinary(x.Text)
		}
		if binary {
			s.bins[f.id] = [2]int64{f.size, f.mtime}
			s.rep.Binary++
			continue
		}
		sum := sha256.Sum256(data)
		sha := hex.EncodeToString(sum[:])
		s.seen[f.id] = true
		s.kinds[fi], s.changed = fileKept, true
		if k, ok := s.have[f.id]; ok && k.sha == sha && k.size == f.size && k.mtime == f.mtime {
			s.rep.Unchanged++ // a scope named by itself: always hashed
			continue
		}
		// A touched file is written again with its new mtime (its Time,
		// which --since filters on, changes too), else it would be read
		// and hashed at every sync from then on.
		if err := s.bt.Upsert(ctx, fileDoc(f, x, sha), f.id); err != nil {
			return err
		}
	}
	return nil
}

// record saves the record of this sync of the whole folder, which began
// with the store at write seq0, when the store holds what it found: its
// writes were all taken and no one else's came between.
func (s *syncer) record(ix *index.Index, seq0 uint64) {
	seq, at, err := ix.LastWrite()
	switch {
	case err != nil:
	case s.bt.Failed > 0 || seq != seq0+uint64(s.commits):
		if seq != seq0 {
			removeSynced(s.o.IndexDir) // out of date
		}
	default:
		saveSynced(s.o.IndexDir, encodeSynced(seq, at, s.res, s.kinds))
	}
}

// outermost drops the scopes under another one and repeats.
func outermost(scopes []string) []string {
	cleaned := make([]string, len(scopes))
	for i, s := range scopes {
		cleaned[i] = filepath.Clean(s)
	}
	slices.Sort(cleaned)
	cleaned = slices.Compact(cleaned)
	var out []string
next:
	for _, s := range cleaned {
		for _, o := range out {
			if _, under := RelID(o, s); under {
				continue next
			}
		}
		out = append(out, s)
	}
	return out
}

// leadsOutside reports whether scope, a path under root, is in fact
// outside it: a folder on the way is a symbolic link that leads out. The
// walk never follows a link, but the path to the scope would.
func leadsOutside(root, scope string) bool {
	real, err := filepath.EvalSymlinks(scope)
	if err != nil {
		return false // nothing there to read
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return true
	}
	_, ok := RelID(realRoot, real)
	return !ok
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

// fileDoc is a file's document: its text as extract reads it (a .gz
// file's decompressed text, an HTML page's text), its kind from its name
// less .gz, and its title the page's own or the file's name.
func fileDoc(f fileEntry, x extract.File, sha string) index.Doc {
	title := x.Title
	if title == "" {
		title = path.Base(f.id)
	}
	return index.Doc{
		ID:     f.id,
		Kind:   kindOf(x.Name),
		Title:  title,
		Body:   strings.ToValidUTF8(string(x.Text), "\uFFFD"),
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

// DocLimit is the engine's Options.MaxDocBytes for files up to maxSize
// bytes, with room for the title.
func DocLimit(maxSize int64) int {
	return int(max(maxSize+4096, DefaultMaxSize))
}
