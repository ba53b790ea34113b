package index

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/index/internal/record"
)

func TestRecordRoundTrip(t *testing.T) {
	for name, d := range map[string]Doc{
		"empty":      {ID: "e"},
		"all fields": {ID: "a", Kind: "k", Title: "t", Body: "b", Parent: "p", Tags: []string{"x", "y"}, Role: "r", Project: "pr", Source: "s", Time: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Meta: map[string]string{"m": "1", "n": ""}},
		"long":       {ID: "c", Title: "title", Body: strings.Repeat("compressible text ", 200)},
		"random":     {ID: "r", Body: "\x00\xff\xfe invalid \xc3 utf8"},
		"graph":      {ID: "g", Body: "b", Session: "s1", Links: []Link{{To: "x", Type: "imports"}, {To: "y"}}, Vector: []float32{0.5, -1, 3e-7}},
	} {
		rec := encodeDoc(&d, 42, 3, 4, []byte{1, 2})
		got, h, err := decodeDoc(d.ID, rec, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(*got, d) || h.Seq != 42 || h.TitleTokens != 3 || h.BodyTokens != 4 || string(h.Pairs) != "\x01\x02" {
			t.Errorf("%s: round trip\n got %+v %+v\nwant %+v", name, *got, h, d)
		}
		sameMeta(t, name, rec, got.Meta)
	}
}

// A version 1 record, written before sessions, links and vectors, reads
// as the same document.
func TestRecordVersion1(t *testing.T) {
	// Version 1 layout: kind, parent, role, project, source, time, tags,
	// meta, token counts, text.
	v1 := []byte{1, 7, 1, 'k', 0, 0, 0, 0, 0, 1, 1, 'x', 0, 2, 3, 0 /* raw text */, 1, 't', 1, 'b'}
	d, h, err := decodeDoc("a", v1, true)
	if err != nil {
		t.Fatal(err)
	}
	want := Doc{ID: "a", Kind: "k", Title: "t", Body: "b", Tags: []string{"x"}}
	if !reflect.DeepEqual(*d, want) || h.Seq != 7 || h.TitleTokens != 2 || h.BodyTokens != 3 {
		t.Errorf("got %+v %+v, want %+v", *d, h, want)
	}
	sameMeta(t, "version 1", v1, nil)
}

// sameMeta checks that record.MetaValues reads from rec the values meta
// holds, and nil for a key it does not hold.
func sameMeta(t *testing.T, name string, rec []byte, meta map[string]string) {
	t.Helper()
	keys := append(slices.Sorted(maps.Keys(meta)), "absent")
	vals := make([][]byte, len(keys))
	vals[len(keys)-1] = []byte("left from before")
	if err := record.MetaValues(rec, keys, vals); err != nil {
		t.Errorf("%s: MetaValues: %v", name, err)
		return
	}
	for i, k := range keys {
		if v, ok := meta[k]; string(vals[i]) != v || (vals[i] == nil) == ok {
			t.Errorf("%s: MetaValues %q = %q, want %q (held: %v)", name, k, vals[i], v, ok)
		}
	}
}

// FuzzDecodeRecord feeds arbitrary bytes to the record decoder, as a
// damaged store would: it must return an error or a document, never panic.
func FuzzDecodeRecord(f *testing.F) {
	f.Add(encodeDoc(&Doc{ID: "a", Title: "t", Body: "b", Tags: []string{"x"}}, 1, 1, 1, nil))
	f.Add(encodeDoc(&Doc{ID: "c", Body: strings.Repeat("zip ", 300)}, 2, 0, 300, []byte{7}))
	f.Add([]byte{2 /* version */, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add([]byte{})
	f.Add(encodeDoc(&Doc{ID: "g", Links: []Link{{To: "x", Type: "t"}}, Vector: []float32{1, 2}}, 3, 0, 0, nil))
	f.Fuzz(func(t *testing.T, rec []byte) {
		d, _, err := decodeDoc("id", rec, true)
		if err == nil && d == nil {
			t.Fatal("nil document without an error")
		}
		// MetaValues reads the header, not the text: it fails on no
		// record that decodes, and reads what a whole decoding reads.
		vals := make([][]byte, 2)
		merr := record.MetaValues(rec, []string{"m", ""}, vals)
		if merr != nil && (err == nil || !errors.Is(merr, record.ErrCorrupt)) {
			t.Fatalf("MetaValues: %v (decoding: %v)", merr, err)
		}
		if err == nil {
			sameMeta(t, "fuzz", rec, d.Meta)
		}
	})
}
