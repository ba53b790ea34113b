package compact_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/compact"
)

// Bad input and misuse: errors, never a panic.

func TestErrors(t *testing.T) {
	x := compact.New(nil)
	rd, _ := x.Reader()
	if _, err := rd.DocValueReader([]string{"body"}); !errors.Is(err, compact.ErrUnsupported) {
		t.Fatalf("DocValueReader: %v", err)
	}
	if _, err := rd.ExternalID(bleveindex.IndexInternalID{0, 0, 0, 0, 0, 0, 0, 9}); err == nil {
		t.Fatal("ExternalID of no document")
	}
	x.Close()
	if err := x.Delete("a"); !errors.Is(err, compact.ErrClosed) {
		t.Fatalf("write after Close: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := encodedRandom(5, 6, 20, false)
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"other version", []byte{2, 0, 0, 0, 0}},
		{"cut short", good[:len(good)-3]},
		{"trailing bytes", append(slices.Clone(good), 0)},
		{"count past the end", []byte{1, 0, 200}},
		{"duplicate IDs", []byte{1, 0, 2, 0, 1, 'a', 1, 0, 0, 0}},
		{"posting past the documents", []byte{1, 0, 1, 0, 1, 'a', 0, 1, 1, 'b', 0, 1, 0, 1, 't', 1, 5, 0}},
		{"terms out of order", []byte{1, 0, 1, 0, 1, 'a', 0, 1, 1, 'b', 0, 2, 0, 1, 't', 0, 1, 's', 1, 1, 0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := compact.Decode(tt.data, nil); !errors.Is(err, compact.ErrCorrupt) {
				t.Fatalf("Decode: %v, want ErrCorrupt", err)
			}
		})
	}
	// The same bytes with the last posting's fix: they decode.
	if _, err := compact.Decode([]byte{1, 0, 1, 0, 1, 'a', 0, 1, 1, 'b', 0, 1, 0, 1, 't', 1, 0, 0}, nil); err != nil {
		t.Fatal(err)
	}
}

// Decode never panics, and what it decodes encodes to bytes that decode
// to an index that encodes the same way.
func FuzzDecode(f *testing.F) {
	f.Add(encodedRandom(7, 8, 5, true))
	f.Add([]byte{1, 0, 1, 0, 1, 'a', 0, 1, 1, 'b', 0, 1, 0, 1, 't', 1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		y, err := compact.Decode(data, nil)
		if err != nil {
			return
		}
		var a bytes.Buffer
		if err := y.Snapshot().Encode(&a); err != nil {
			t.Fatal(err)
		}
		z, err := compact.Decode(a.Bytes(), nil)
		if err != nil {
			t.Fatalf("encoded again, it does not decode: %v", err)
		}
		var c bytes.Buffer
		z.Snapshot().Encode(&c)
		if !bytes.Equal(a.Bytes(), c.Bytes()) {
			t.Fatal("decoded twice, it encodes to other bytes")
		}
		rd, _ := z.Reader()
		d, _ := rd.FieldDict("t")
		for e, _ := d.Next(); e != nil; e, _ = d.Next() {
			tr, _ := rd.TermFieldReader(context.Background(), []byte(e.Term), "t", true, true, false)
			for p, _ := tr.Next(nil); p != nil; p, _ = tr.Next(nil) {
				rd.ExternalID(p.ID)
			}
		}
	})
}

// encodedRandom returns the encoding of a compact index of n random
// documents (randomDoc, seeded with a and b), with the internal key k
// set to v when internal is.
func encodedRandom(a, b uint64, n int, internal bool) []byte {
	x := compact.New(nil)
	r := rand.New(rand.NewPCG(a, b))
	batch := bleveindex.NewBatch()
	for i := range n {
		d, _ := randomDoc(r, fmt.Sprint("d", i))
		batch.Update(d)
	}
	if internal {
		batch.SetInternal([]byte("k"), []byte("v"))
	}
	x.Batch(batch)
	var enc bytes.Buffer
	x.Snapshot().Encode(&enc)
	return enc.Bytes()
}
