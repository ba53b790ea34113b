package record

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang/snappy"
)

// raw returns rec with its text stored raw, as stores written before
// Encode stored text lowered hold it.
func raw(t testing.TB, rec []byte) []byte {
	t.Helper()
	end, err := scanHeader(rec, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	title, body, err := DecodeText(end.rest)
	if err != nil {
		t.Fatal(err)
	}
	out := append(rec[:len(rec)-len(end.rest):len(rec)-len(end.rest)], textRaw)
	return appendString(appendString(out, string(title)), string(body))
}

// compressed returns rec with its text compressed, as stores written
// before Encode stored text raw hold it.
func compressed(t testing.TB, rec []byte) []byte {
	t.Helper()
	rec = raw(t, rec)
	end, _ := scanHeader(rec, nil, nil)
	out := append(rec[:len(rec)-len(end.rest):len(rec)-len(end.rest)], textSnappy)
	return append(out, snappy.Encode(nil, end.rest[1:])...)
}

// TestHeaderRoundTrip checks that a header and text read back as written,
// and that Seq and Raw agree with the full decoders.
func TestHeaderRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name        string
		h           Header
		vector      []float32
		title, body string
		enc         byte // the text encoding Encode writes
	}{
		{name: "empty", enc: textLower},
		{
			name:  "all fields",
			h:     Header{Seq: 42, Kind: "k", Parent: "p", Role: "r", Project: "pr", Source: "s", Time: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Tags: []string{"x", "y"}, Meta: map[string]string{"m": "1", "n": ""}, Session: "s1", Links: []Link{{To: "x", Type: "imports"}, {To: "y"}}, TitleTokens: 3, BodyTokens: 4, Pairs: []byte{0x81, 0}},
			title: "t", body: "b", vector: []float32{0.5, -1, 3e-7}, enc: textLower,
		},
		{name: "compressed", h: Header{Seq: 7, Pairs: []byte{3}}, title: "title", body: strings.Repeat("compressible text ", 200), enc: textLower},
		{name: "raw", h: Header{Seq: 8}, title: "Title", body: "Body", enc: textLower},
		{name: "lowered", h: Header{Seq: 9}, title: "getUserByID", body: strings.Repeat("Mixed CASE and 日本語 over words of 64 bytes. ", 9), enc: textLower},
		{name: "title lowered", h: Header{Seq: 10}, title: "Title", body: "Ünïcode", enc: textLower},
		{name: "body lowered", h: Header{Seq: 11}, title: "Café", body: "Body", enc: textLower},
		{name: "neither lowered", h: Header{Seq: 12}, title: "Café", body: "naïve", enc: textRaw},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := Encode(&tc.h, tc.vector, tc.title, tc.body)
			if end, err := scanHeader(rec, nil, nil); err != nil || end.rest[0] != tc.enc {
				t.Fatalf("Encode wrote text encoding %d, %v; want %d", end.rest[0], err, tc.enc)
			}
			switch tc.name {
			case "compressed":
				rec = compressed(t, rec)
			case "raw":
				rec = raw(t, rec)
			}
			h, rest, err := DecodeHeader(rec)
			if err != nil {
				t.Fatal(err)
			}
			if got := h.Vector(); !reflect.DeepEqual(got, tc.vector) {
				t.Errorf("vector %v, want %v", got, tc.vector)
			}
			h.vector = nil
			if !reflect.DeepEqual(h, tc.h) {
				t.Errorf("header\n got %+v\nwant %+v", h, tc.h)
			}
			title, body, err := DecodeText(rest)
			if err != nil || string(title) != tc.title || string(body) != tc.body {
				t.Errorf("text %q %q %v, want %q %q", title, body, err, tc.title, tc.body)
			}
			if ts, bs, err := DecodeRecordStrings(rec); err != nil || ts != tc.title || bs != tc.body {
				t.Errorf("strings %q %q %v, want %q %q", ts, bs, err, tc.title, tc.body)
			}
			if p, err := Pairs(rec); err != nil || !bytes.Equal(p, tc.h.Pairs) {
				t.Errorf("Pairs = %v, %v, want %v", p, err, tc.h.Pairs)
			}
			if seq, err := Seq(rec); err != nil || seq != tc.h.Seq {
				t.Errorf("Seq = %d, %v, want %d", seq, err, tc.h.Seq)
			}
			raw, err := Raw(rec)
			if err != nil {
				t.Fatal(err)
			}
			h2, rest2, err := DecodeHeader(raw)
			if err != nil || rest2[0] != textRaw || !reflect.DeepEqual(h2.Links, tc.h.Links) || h2.Pairs != nil {
				t.Fatalf("Raw: %v, text encoding %d", err, rest2[0])
			}
			if title2, body2, _ := DecodeText(rest2); !bytes.Equal(title2, title) || !bytes.Equal(body2, body) {
				t.Errorf("Raw changed the text to %q %q", title2, body2)
			}
		})
	}
}

// FuzzDecode feeds arbitrary bytes to every decoder, as a damaged store
// would: each must return an error or a value, never panic.
func FuzzDecode(f *testing.F) {
	f.Add(Encode(&Header{Seq: 1, Tags: []string{"x"}, TitleTokens: 1, BodyTokens: 1}, nil, "t", "b"))
	f.Add(Encode(&Header{Seq: 2}, nil, "", strings.Repeat("zip ", 300)))
	f.Add(Encode(&Header{Seq: 3, Links: []Link{{To: "x", Type: "t"}}}, []float32{1, 2}, "", ""))
	f.Add(Encode(&Header{Seq: 4, Pairs: []byte{1, 2, 3}}, nil, "t", strings.Repeat("zip ", 300)))
	f.Add(compressed(f, Encode(&Header{Seq: 5, Pairs: []byte{1}}, nil, "t", strings.Repeat("zip ", 300))))
	f.Add([]byte{version, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, rec []byte) {
		if h, rest, err := DecodeHeader(rec); err == nil {
			DecodeText(rest)
			if p, err := Pairs(rec); err != nil || !bytes.Equal(p, h.Pairs) {
				t.Fatalf("Pairs(%q) = %v, %v; DecodeHeader read %v", rec, p, err, h.Pairs)
			}
		}
		DecodeRecordStrings(rec)
		DecodeRecordTextTo(rec, make([]byte, 16))
		Seq(rec)
		Pairs(rec)
		if raw, err := Raw(rec); err == nil {
			if p, err := Pairs(raw); err != nil || p != nil {
				t.Fatalf("Raw(%q) = %q, whose pairs are %v, %v", rec, raw, p, err)
			}
		}
	})
}

// DecodeRecordTextTo gives DecodeRecordText's title and body, through one
// buffer passed from record to record (growing, then reused for smaller
// texts), compressed and raw alike, and decompresses into the buffer it
// is given when that is large enough.
func TestDecodeRecordTextTo(t *testing.T) {
	var recs [][]byte
	for _, n := range []int{1, 300, 5, 2000, 40, 0, 700} {
		rec := Encode(&Header{Seq: uint64(n)}, nil, fmt.Sprint("title ", n), strings.Repeat("zip zap ", n))
		recs = append(recs, rec, compressed(t, rec))
	}
	recs = append(recs, Encode(&Header{Seq: 9}, nil, "short", "no"))
	var buf []byte
	for i, rec := range recs {
		wantT, wantB, err := DecodeRecordText(rec)
		if err != nil {
			t.Fatal(err)
		}
		title, body, used, err := DecodeRecordTextTo(rec, buf)
		if err != nil || string(title) != string(wantT) || string(body) != string(wantB) {
			t.Fatalf("record %d: %q %q %v, want %q %q", i, title, body, err, wantT, wantB)
		}
		buf = used
	}
	// A compressed text decompresses into a buffer that holds it, with
	// no allocation.
	rec := compressed(t, Encode(&Header{Seq: 1}, nil, "t", strings.Repeat("zip zap ", 500)))
	big := make([]byte, 0, 8000)
	if n := testing.AllocsPerRun(20, func() { DecodeRecordTextTo(rec, big) }); n != 0 {
		t.Errorf("%v allocations decompressing into a buffer large enough", n)
	}
}

// TestVersion2 holds that a record of version 2, which has no pairs
// field, reads as one of version 3 without pairs.
func TestVersion2(t *testing.T) {
	h := Header{Seq: 5, Kind: "k", Tags: []string{"x"}, TitleTokens: 2, BodyTokens: 9}
	v3 := raw(t, Encode(&h, nil, "title", "the body"))
	end, err := scanHeader(v3, nil, nil)
	if err != nil || end.pairsEnd != end.pairsAt+1 || v3[end.pairsAt] != 0 {
		t.Fatalf("%v; the pairs' field %q", err, v3[end.pairsAt:end.pairsEnd])
	}
	v2 := append([]byte{2}, v3[1:end.pairsAt]...)
	v2 = append(v2, v3[end.pairsEnd:]...)
	got, rest, err := DecodeHeader(v2)
	if err != nil || !reflect.DeepEqual(got, h) {
		t.Fatalf("version 2: %+v, %v; want %+v", got, err, h)
	}
	if title, body, err := DecodeText(rest); err != nil || string(title) != "title" || string(body) != "the body" {
		t.Fatalf("version 2 text: %q %q %v", title, body, err)
	}
	if raw, err := Raw(v2); err != nil || !bytes.Equal(raw, v2) {
		t.Fatalf("Raw of a raw version 2 record: %q, %v", raw, err)
	}
}
