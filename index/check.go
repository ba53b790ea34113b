package index

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/backend"
	"github.com/twindex/twindex/index/internal/bloom"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// Report is what Check found. The index is in step when OK is true.
type Report struct {
	Docs    int       `json:"docs"` // in the store
	Seq     uint64    `json:"seq"`  // the store's last write
	Text    LegReport `json:"text"`
	Trigram LegReport `json:"trigram"`
	// BadPairs are the documents whose records' filters of adjacent term
	// pairs (record.Header.Pairs) lack a pair their text makes, which a
	// quoted phrase search may then miss (Rebuild writes them anew): sorted,
	// capped at 100; BadPairsN counts them all.
	BadPairs  []string `json:"badPairs,omitempty"`
	BadPairsN int      `json:"-"`
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

// OK reports whether both indexes agree with the store, and the store's
// records with their text.
func (r *Report) OK() bool { return r.Text.ok(r) && r.Trigram.ok(r) && r.BadPairsN == 0 }

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
	if r.BadPairsN > 0 {
		fmt.Fprintf(&b, "records: %d with a pairs filter that lacks pairs of their text: %s\n", r.BadPairsN, strings.Join(r.BadPairs, ", "))
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
		return ix.eachBadPairs(ctx, tx, func(d *Doc) {
			want[d.ID] = contentHash(d.Title, d.Body)
		}, func(d *Doc, _ *record.Header, _ []byte) {
			r.BadPairsN++
			r.BadPairs = append(r.BadPairs, d.ID)
		})
	})
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	slices.Sort(r.BadPairs)
	r.BadPairs = r.BadPairs[:min(len(r.BadPairs), 100)]
	r.Docs = len(want)
	if err := checkLeg(ctx, ix.text, want, &r.Text); err != nil {
		return nil, fmt.Errorf("check text index: %w", err)
	}
	if err := checkLeg(ctx, ix.tri, want, &r.Trigram); err != nil {
		return nil, fmt.Errorf("check trigram index: %w", err)
	}
	return r, nil
}

// pairsChunk is how many documents eachBadPairs holds while their
// filters are made on the workers.
const pairsChunk = 256

// eachBadPairs calls each with every document of tx, in ID order, and
// bad, after it, with those whose records' filters of adjacent term
// pairs are asked and lack a pair of their text (pairsOf), h their header and p
// their text's filter. Both run on the caller's goroutine; the filters are
// made on Options.Workers goroutines. Cost: an analysis of every
// document's text.
func (ix *Index) eachBadPairs(ctx context.Context, tx storage.Tx, each func(d *Doc), bad func(d *Doc, h *record.Header, p []byte)) error {
	since := getUint(tx, metaPairsSince)
	type item struct {
		d    *Doc
		h    record.Header
		p    []byte
		diff bool
	}
	chunk := make([]item, 0, pairsChunk)
	// The scan checks ctx for each record, flush does not again.
	flush := func() error {
		err := inParts(context.Background(), len(chunk), ix.workersFor(len(chunk), 1), func(_, i int) error {
			chunk[i].p, chunk[i].diff = ix.pairsOf(chunk[i].d, &chunk[i].h, since)
			return nil
		})
		if err != nil {
			return err
		}
		for i := range chunk {
			if chunk[i].diff {
				bad(chunk[i].d, &chunk[i].h, chunk[i].p)
			}
		}
		chunk = chunk[:0]
		return nil
	}
	err := tx.Scan(bucketDocs, nil, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, h, err := decodeDoc(string(k), v, true)
		if err != nil {
			return err
		}
		each(d)
		if chunk = append(chunk, item{d: d, h: h}); len(chunk) == pairsChunk {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// pairsOf returns the filter of adjacent term pairs that d's text makes,
// and whether the record's, h.Pairs, lacks one of those pairs and is
// asked (written by this analysis: at or after write since,
// metaPairsSince). A filter that holds them all is sound whatever its
// size (one a build with another pairBits wrote). A record without a
// filter is never asked. Cost: an analysis of d's text.
func (ix *Index) pairsOf(d *Doc, h *record.Header, since uint64) ([]byte, bool) {
	if h.Pairs == nil || h.Seq < since || ix.opts.noPairs {
		return nil, false
	}
	p := ix.prepare(d, true)
	for _, x := range p.pairHashes {
		if !bloom.MayHold(h.Pairs, x) {
			return p.pairs, true
		}
	}
	return p.pairs, false
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
