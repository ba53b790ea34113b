package index

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/storage"
)

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
// sizes); writes wait until it is done, searches do not.
func (ix *Index) Check(ctx context.Context) (_ *Report, err error) {
	defer ix.guard(&err)
	// No write may run between reading the store and the indexes.
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err = ix.ready(readsIndexes)
	ix.mu.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if err := ix.buildTrigrams(ctx, nil); err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	if err := ix.checkFiles(); err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	r := &Report{}
	want := map[string]string{}
	err = ix.store.View(func(tx storage.Tx) error {
		r.Seq = getUint(tx, metaSeq)
		return eachDoc(ctx, tx, true, func(d *Doc) error {
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
// store wait for writeMu; scorch may commit to its root.bolt meanwhile,
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
	err = backend.EachID(ctx, idx, func(rd bleveindex.IndexReader, id string) error {
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
