//go:build !js && !wasip1

package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index/internal/bloom"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// TestOldSchemaRebuildsGrams checks that Open rebuilds the trigram index
// of an index written before the short grams (schema 2), and only then
// records this build's schema, and that it leaves the trigram index of a
// current one (and of schema 3) alone.
func TestOldSchemaRebuildsGrams(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	marker := filepath.Join(dir, trigramDir, "marker")
	reopen := func(schema uint64) *Index {
		t.Helper()
		ix, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if schema != 0 {
			err := ix.store.Update(func(tx storage.Tx) error {
				return tx.Put(bucketMeta, metaSchema, binary.AppendUvarint(nil, schema))
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return ix
	}
	ix := reopen(0)
	if err := ix.Upsert(ctx, Doc{ID: "a", Body: "fd io x"}, Doc{ID: "b", Body: "no short"}); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	for _, tc := range []struct {
		schema  uint64
		rebuilt bool
	}{{SchemaVersion, false}, {3, false}, {2, true}} {
		ix := reopen(tc.schema)
		ix.Close()
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		ix = reopen(0)
		_, err := os.Stat(marker)
		if gone := os.IsNotExist(err); gone != tc.rebuilt {
			t.Errorf("schema %d: trigram index rebuilt %v, want %v", tc.schema, gone, tc.rebuilt)
		}
		if had, err := ix.checkSchema(); err != nil || had != SchemaVersion {
			t.Errorf("schema %d: reopened as %d, %v", tc.schema, had, err)
		}
		r, err := ix.Search(ctx, Request{Query: "fd", Mode: ModeSubstring})
		if err != nil || r.Total != 1 {
			t.Errorf("schema %d: fd: %v, %v", tc.schema, r, err)
		}
		ix.Close()
	}
}

// hidePairs gives the record of document id a pairs filter that holds no
// pair, as if every pair of its text were of terms the analysis no
// longer makes, and returns the record as it was.
func hidePairs(t *testing.T, ix *Index, id string) (before []byte) {
	t.Helper()
	err := ix.store.Update(func(tx storage.Tx) error {
		before = bytes.Clone(tx.Get(bucketDocs, []byte(id)))
		h, rest, err := record.DecodeHeader(before)
		if err != nil {
			return err
		}
		if h.Pairs == nil {
			return errors.New("the write stored no pairs filter")
		}
		title, body, err := record.DecodeText(rest)
		if err != nil {
			return err
		}
		h.Pairs = []byte{0}
		return tx.Put(bucketDocs, []byte(id), record.Encode(&h, h.Vector(), string(title), string(body)))
	})
	if err != nil {
		t.Fatal(err)
	}
	return before
}

// TestRebuildSetsPairsAside holds that the pairs filters of records
// written before a rebuild of the bleve indexes (an analysis a later
// build changed) are not asked, and those written after are. A filter
// that holds no pair stands for one of terms the analysis no longer
// makes: before the rebuild it hides the phrase (the filter decides);
// after it, the phrase is found.
func TestRebuildSetsPairsAside(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Upsert(ctx, Doc{ID: "a", Body: "alpha beta gamma"}); err != nil {
		t.Fatal(err)
	}
	hidePairs(t, ix, "a")
	phrase := func(ix *Index) int {
		t.Helper()
		r, err := ix.Search(ctx, Request{Query: `"alpha beta"`, Mode: ModeText})
		if err != nil {
			t.Fatal(err)
		}
		return r.Total
	}
	if n := phrase(ix); n != 0 {
		t.Fatalf("a filter of no pairs: %d hits, want 0", n)
	}
	err = ix.store.Update(func(tx storage.Tx) error {
		return tx.Put(bucketMeta, metaSchema, binary.AppendUvarint(nil, rebuildBelow-1))
	})
	if err := errors.Join(err, ix.Close()); err != nil {
		t.Fatal(err)
	}
	if ix, err = Open(dir, nil); err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if n := phrase(ix); n != 1 {
		t.Fatalf("after the rebuild: %d hits, want 1", n)
	}
	if err := ix.Upsert(ctx, Doc{ID: "b", Body: "alpha gamma beta"}); err != nil {
		t.Fatal(err)
	}
	err = ix.store.View(func(tx storage.Tx) error {
		if p, err := record.Pairs(tx.Get(bucketDocs, []byte("b"))); err != nil || len(p) == 0 {
			return fmt.Errorf("a write after the rebuild stored pairs %v, %v", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := phrase(ix); n != 1 {
		t.Fatalf("after a write: %d hits, want 1", n)
	}
}

// openMemoryOr opens a memory index when dir is "", else the index in
// dir, closed when the test ends.
func openMemoryOr(t *testing.T, dir string) *Index {
	t.Helper()
	var ix *Index
	var err error
	if dir == "" {
		ix, err = OpenMemory(nil)
	} else {
		ix, err = Open(dir, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestCheckFindsBadPairs holds that Check reports a record whose pairs
// filter lacks a pair of its text (here one that hides a phrase it holds),
// and that Rebuild writes the filter anew, on disk and in memory.
func TestCheckFindsBadPairs(t *testing.T) {
	ctx := context.Background()
	for _, dir := range []string{"", t.TempDir()} {
		ix := openMemoryOr(t, dir)
		docs := []Doc{{ID: "a", Body: "alpha beta gamma"}, {ID: "b", Title: "Beta", Body: "gamma alpha, beta", Vector: []float32{1, 2}},
			{ID: "c.go", Kind: "code", Body: "// Copyright 2020 The Authors.\n\npackage c\n\nfunc AlphaBeta() {}\n"}}
		if err := ix.Upsert(ctx, docs...); err != nil {
			t.Fatal(err)
		}
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Fatalf("%q: check of a sound index: %v\n%v", dir, err, rep)
		}
		phrase := func() int {
			r, err := ix.Search(ctx, Request{Query: `"alpha beta"`, Mode: ModeText})
			if err != nil {
				t.Fatal(err)
			}
			return r.Total
		}
		whole := phrase()
		before := hidePairs(t, ix, "a")
		if n := phrase(); n != whole-1 {
			t.Fatalf("%q: with the damaged filter the phrase has %d hits, not %d", dir, n, whole-1)
		}
		rep, err := ix.Check(ctx)
		if err != nil || rep.OK() || rep.BadPairsN != 1 || !slices.Equal(rep.BadPairs, []string{"a"}) || !strings.Contains(rep.String(), "pairs filter") {
			t.Fatalf("%q: check of a damaged filter: %v\n%+v", dir, err, rep)
		}
		if err := ix.Rebuild(ctx); err != nil {
			t.Fatal(err)
		}
		if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
			t.Fatalf("%q: check after Rebuild: %v\n%v", dir, err, rep)
		}
		if n := phrase(); n != whole {
			t.Fatalf("%q: after Rebuild the phrase has %d hits, not %d", dir, n, whole)
		}
		err = ix.store.View(func(tx storage.Tx) error {
			if after := tx.Get(bucketDocs, []byte("a")); !bytes.Equal(after, before) {
				return fmt.Errorf("the record written anew differs from the one the write stored")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestCheckTakesOtherFilterSizes holds that a pairs filter of another
// size than pairBits makes (one an earlier build wrote) that holds its
// text's pairs is sound: Check passes it, a phrase search finds what it
// finds with the filter a write makes now, and Rebuild leaves the record
// as it is. One of those sizes that lacks a pair is still reported.
func TestCheckTakesOtherFilterSizes(t *testing.T) {
	ctx := context.Background()
	docs := []Doc{{ID: "a", Body: "alpha beta gamma, and the beta alpha delta"}, {ID: "b", Title: "Beta", Body: "gamma alpha, beta"},
		{ID: "c", Body: "delta alpha beta epsilon"}}
	for _, dir := range []string{"", t.TempDir()} {
		ix := openMemoryOr(t, dir)
		if err := ix.Upsert(ctx, docs...); err != nil {
			t.Fatal(err)
		}
		phrase := func(q string) int {
			r, err := ix.Search(ctx, Request{Query: q, Mode: ModeText})
			if err != nil {
				t.Fatal(err)
			}
			return r.Total
		}
		queries := []string{`"alpha beta"`, `"beta alpha"`, `"alpha delta"`, `"beta gamma"`}
		var want []int
		for _, q := range queries {
			want = append(want, phrase(q))
		}
		for _, bits := range []int{1, 3, pairBits + 4} {
			var rec []byte
			err := ix.store.Update(func(tx storage.Tx) error {
				d, h, err := decodeDoc("a", tx.Get(bucketDocs, []byte("a")), true)
				if err != nil {
					return err
				}
				p := ix.prepare(d, true)
				if len(p.pairHashes) == 0 {
					return errors.New("the text makes no pairs")
				}
				if h.Pairs = bloom.New(p.pairHashes, bits); bytes.Equal(h.Pairs, p.pairs) {
					return fmt.Errorf("a filter of %d bits a pair is the one of %d", bits, pairBits)
				}
				rec = record.Encode(&h, h.Vector(), d.Title, d.Body)
				return tx.Put(bucketDocs, []byte("a"), rec)
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
				t.Fatalf("%q, %d bits: check of a sound filter: %v\n%v", dir, bits, err, rep)
			}
			for i, q := range queries {
				if n := phrase(q); n != want[i] {
					t.Errorf("%q, %d bits: %s has %d hits, want %d", dir, bits, q, n, want[i])
				}
			}
			if err := ix.Rebuild(ctx); err != nil {
				t.Fatal(err)
			}
			err = ix.store.View(func(tx storage.Tx) error {
				if !bytes.Equal(tx.Get(bucketDocs, []byte("a")), rec) {
					return errors.New("Rebuild wrote a sound record anew")
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%q, %d bits: %v", dir, bits, err)
			}
		}
		hidePairs(t, ix, "a")
		if rep, err := ix.Check(ctx); err != nil || rep.BadPairsN != 1 {
			t.Fatalf("%q: check of a filter that holds no pair: %v\n%v", dir, err, rep)
		}
	}
}
