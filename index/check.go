package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/storage"
)

// Stats describes an index.
type Stats struct {
	Docs  int            `json:"docs"`
	Kinds map[string]int `json:"kinds"` // documents per Kind ("" for none)
	// Sizes in bytes: the store file and each bleve index directory (for a
	// memory index, the store's keys and values only).
	StoreBytes   int64 `json:"storeBytes"`
	TextBytes    int64 `json:"textBytes"`
	TrigramBytes int64 `json:"trigramBytes"`
	// Segments of each bleve index (scorch; 0 for upsidedown): many of
	// them slow searches down, and Optimize merges them into one.
	TextSegments    int       `json:"textSegments"`
	TrigramSegments int       `json:"trigramSegments"`
	Updated         time.Time `json:"updated,omitzero"` // last write
	Seq             uint64    `json:"seq"`              // writes so far
}

// Stats counts documents per kind (a scan of the store) and measures sizes.
func (ix *Index) Stats() (*Stats, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, ErrClosed
	}
	st := &Stats{Kinds: map[string]int{}}
	err := ix.store.View(func(tx storage.Tx) error {
		st.Seq = getUint(tx, metaSeq)
		if ns := getUint(tx, metaUpdated); ns != 0 {
			st.Updated = time.Unix(0, int64(ns)).UTC()
		}
		return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			h, _, err := decodeHeader(v)
			if err != nil {
				return fmt.Errorf("document %q: %w", k, err)
			}
			st.Docs++
			st.Kinds[h.Kind]++
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	if st.StoreBytes, err = ix.store.Size(); err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	st.TextBytes, st.TrigramBytes = dirSize(ix.subdir(textDir)), dirSize(ix.subdir(trigramDir))
	st.TextSegments, st.TrigramSegments = segments(ix.text), segments(ix.tri)
	return st, nil
}

// segments is the number of segments of a scorch index, 0 for upsidedown.
func segments(idx bleveindex.Index) int {
	m := idx.StatsMap()
	n := 0
	for _, k := range []string{"num_root_filesegments", "num_root_memorysegments"} {
		if v, ok := m[k].(uint64); ok {
			n += int(v)
		}
	}
	return n
}

func dirSize(dir string) int64 {
	if dir == "" {
		return 0
	}
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// Report is what Check found. The index is in step when OK is true.
type Report struct {
	Docs    int       `json:"docs"` // in the store
	Seq     uint64    `json:"seq"`  // the store's last write
	Text    LegReport `json:"text"`
	Trigram LegReport `json:"trigram"`
}

// LegReport is Check's finding for one bleve index. Lists are sorted and
// capped at 100 IDs each.
type LegReport struct {
	Docs    int      `json:"docs"`
	Seq     uint64   `json:"seq"`     // last write applied
	Missing []string `json:"missing"` // in the store, not in the index
	Extra   []string `json:"extra"`   // in the index, not in the store
	Changed []string `json:"changed"` // indexed text differs from the store's
	// Counts of the above, uncapped.
	MissingN, ExtraN, ChangedN int `json:"-"`
}

// OK reports whether both indexes agree with the store.
func (r *Report) OK() bool { return r.Text.ok(r) && r.Trigram.ok(r) }

func (l *LegReport) ok(r *Report) bool {
	return l.MissingN == 0 && l.ExtraN == 0 && l.ChangedN == 0 && l.Docs == r.Docs && l.Seq == r.Seq
}

// String describes the drift in a few lines, or says all is well.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "store: %d documents, %d writes\n", r.Docs, r.Seq)
	for _, l := range []struct {
		name string
		r    *LegReport
	}{{"text", &r.Text}, {"trigram", &r.Trigram}} {
		state := "in step"
		if !l.r.ok(r) {
			state = "DRIFT"
		}
		fmt.Fprintf(&b, "%s index: %d documents, %d writes applied: %s\n", l.name, l.r.Docs, l.r.Seq, state)
		for _, x := range []struct {
			what string
			n    int
			ids  []string
		}{{"missing", l.r.MissingN, l.r.Missing}, {"extra", l.r.ExtraN, l.r.Extra}, {"changed", l.r.ChangedN, l.r.Changed}} {
			if x.n > 0 {
				fmt.Fprintf(&b, "  %d %s: %s\n", x.n, x.what, strings.Join(x.ids, ", "))
			}
		}
	}
	return b.String()
}

// Check verifies that both bleve indexes hold exactly the store's
// documents with the store's text (per-document content hashes) and have
// applied every write. First it walks the pages of every bbolt file of an
// on-disk index (storage.CheckFile), the store and each bleve index's
// root.bolt, and returns a *CorruptError naming a damaged one: Open skips
// the store's walk while the file is unchanged since the last one, so
// damage that changed neither its size, modification time nor last
// transaction shows here first. It reads everything: O(documents + file
// sizes).
func (ix *Index) Check(ctx context.Context) (_ *Report, err error) {
	defer guard(ix.dir, &err)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.closed {
		return nil, ErrClosed
	}
	if err := ix.checkFiles(); err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	r := &Report{}
	want := map[string]string{}
	err = ix.store.View(func(tx storage.Tx) error {
		r.Seq = getUint(tx, metaSeq)
		return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			d, _, err := decodeDoc(string(k), v)
			if err != nil {
				return err
			}
			want[d.ID] = contentHash(d.Title, d.Body)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	r.Docs = len(want)
	if err := checkLeg(ctx, ix.text, want, &r.Text); err != nil {
		return nil, fmt.Errorf("check text index: %w", err)
	}
	if err := checkLeg(ctx, ix.tri, want, &r.Trigram); err != nil {
		return nil, fmt.Errorf("check trigram index: %w", err)
	}
	return r, nil
}

// checkFiles walks every bbolt file of an on-disk index. Writes to the
// store wait for ix.mu; scorch may commit to its root.bolt meanwhile,
// which CheckFile notices and walks again.
func (ix *Index) checkFiles() error {
	if ix.dir == "" {
		return nil
	}
	store := filepath.Join(ix.dir, storeFile)
	if err := storage.CheckFile(store); err != nil {
		return &CorruptError{Path: store, Err: err}
	}
	for _, leg := range []string{textDir, trigramDir} {
		if err := storage.CheckFile(filepath.Join(ix.subdir(leg), "root.bolt")); err != nil {
			return &CorruptError{Path: ix.subdir(leg), Err: err}
		}
	}
	return nil
}

func checkLeg(ctx context.Context, idx bleveindex.Index, want map[string]string, l *LegReport) error {
	var err error
	if l.Seq, err = appliedSeq(idx); err != nil {
		return err
	}
	seen := map[string]bool{}
	err = eachID(ctx, idx, func(rd bleveindex.IndexReader, id string) error {
		seen[id] = true
		l.Docs++
		h, ok := want[id]
		if !ok {
			l.Extra = append(l.Extra, id)
			return nil
		}
		doc, err := rd.Document(id)
		if err != nil {
			return err
		}
		got := ""
		if doc != nil {
			doc.VisitFields(func(f bleveindex.Field) {
				if f.Name() == fieldHash {
					got = string(f.Value())
				}
			})
		}
		if got != h {
			l.Changed = append(l.Changed, id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for id := range want {
		if !seen[id] {
			l.Missing = append(l.Missing, id)
		}
	}
	for _, ids := range []*[]string{&l.Missing, &l.Extra, &l.Changed} {
		slices.Sort(*ids)
	}
	l.MissingN, l.ExtraN, l.ChangedN = len(l.Missing), len(l.Extra), len(l.Changed)
	for _, ids := range []*[]string{&l.Missing, &l.Extra, &l.Changed} {
		if len(*ids) > 100 {
			*ids = (*ids)[:100]
		}
	}
	return nil
}

// Optimize merges each bleve index of an on-disk index down to one
// segment and compacts the store file; for a memory index it does nothing.
// Searches wait until it is done.
func (ix *Index) Optimize(ctx context.Context) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return ErrClosed
	}
	// scorch's ForceMerge never returns for an in-memory index (its merger
	// waits for a persister that memory indexes do not run), and memory
	// indexes have no files to shrink.
	if ix.dir == "" {
		return nil
	}
	// scorch merges only segments it has persisted.
	if err := ix.flush(); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	// The three files are independent: merged and compacted at once.
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i, idx := range []bleveindex.Index{ix.text, ix.tri} {
		wg.Go(func() { errs[i] = forceMerge(ctx, idx) })
	}
	if c, ok := ix.store.(interface{ Compact() error }); ok {
		wg.Go(func() { errs[2] = c.Compact() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("optimize: %w", err)
	}
	return nil
}

// Dir is the index's directory, "" for a memory index.
func (ix *Index) Dir() string { return ix.dir }
