package index

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// TestTrigramSeqsAreRecords holds that the trigram index built from the
// store (OpenSnapshot, BuildTrigrams; on disk, replay and Rebuild) gives
// each document the sequence number of the write that stored its record,
// as a write does:
// the fold cache's entries are checked against it, and a higher number
// misses them on every search.
func TestTrigramSeqsAreRecords(t *testing.T) {
	ctx := context.Background()
	t.Run("write", func(t *testing.T) {
		ix, err := OpenMemory(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		fillSeqs(t, ix)
		checkSeqs(t, ix)
	})
	var snap bytes.Buffer
	t.Run("snapshot", func(t *testing.T) {
		src, err := OpenMemory(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		fillSeqs(t, src)
		if err := src.WriteSnapshot(&snap); err != nil {
			t.Fatal(err)
		}
		ix, err := OpenSnapshot(bytes.NewReader(snap.Bytes()), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		checkSeqs(t, ix)
	})
	t.Run("trigrams later", func(t *testing.T) {
		ix, err := OpenSnapshot(bytes.NewReader(snap.Bytes()), &Options{TrigramsLater: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if err := ix.BuildTrigrams(ctx, nil); err != nil {
			t.Fatal(err)
		}
		checkSeqs(t, ix)
	})
}

// fillSeqs writes 60 documents in three writes, and one of the first
// written again in a fourth.
func fillSeqs(t *testing.T, ix *Index) {
	ctx := context.Background()
	for b := range 3 {
		var docs []Doc
		for i := range 20 {
			docs = append(docs, Doc{ID: fmt.Sprintf("d%d-%d", b, i), Body: fmt.Sprintf("reading batch %d item %d", b, i)})
		}
		if err := ix.Upsert(ctx, docs...); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Upsert(ctx, Doc{ID: "d0-3", Body: "written again"}); err != nil {
		t.Fatal(err)
	}
}

// checkSeqs checks that each document of the trigram index has the
// number of the write that stored its record.
func checkSeqs(t *testing.T, ix *Index) {
	t.Helper()
	want := map[string]uint64{}
	err := ix.store.View(func(tx storage.Tx) error {
		return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
			seq, err := record.Seq(v)
			want[string(k)] = seq
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 60 || want["d0-0"] == want["d2-0"] || want["d0-0"] == want["d0-3"] {
		t.Fatalf("the records' writes: %v, want 60 documents of four writes", want)
	}
	r, err := ix.tri.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(context.Background(), []byte(lengthTerm), fieldLength, true, true, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tfr.Close()
	got := map[string]uint64{}
	for {
		d, err := tfr.Next(nil)
		if err != nil {
			t.Fatal(err)
		}
		if d == nil {
			break
		}
		id, err := r.ExternalID(d.ID)
		if err != nil {
			t.Fatal(err)
		}
		got[id] = d.Freq
	}
	for id, seq := range want {
		if got[id] != seq {
			t.Errorf("%s: the trigram index has write %d, its record %d", id, got[id], seq)
		}
	}
}
