package record

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/golang/snappy"

	"github.com/twindex/twindex/internal/goroot"
)

// checkHead compares DecodeTextHead's title and body start with the whole
// text DecodeRecordText gives: the same title, lengths and body, or a
// prefix of at least n bytes less a cut rune, ending at a rune start.
func checkHead(t *testing.T, rec []byte, n int) {
	t.Helper()
	title, body, fullErr := DecodeRecordText(rec)
	h, _, err := DecodeTextHead(rec, nil, n)
	if err != nil {
		if fullErr == nil {
			t.Fatalf("n %d: head %v, the whole text decodes", n, err)
		}
		return
	}
	if fullErr != nil {
		return // damage after the head is not read
	}
	hTitle, hBody, _, err := h.restore(nil)
	if err != nil {
		t.Fatalf("n %d: the head restores with %v", n, err)
	}
	if !bytes.Equal(hTitle, title) || h.TitleLen != len(title) || h.BodyLen != len(body) || !bytes.HasPrefix(body, hBody) {
		t.Fatalf("n %d: head %q %q (%d, %d), whole %q %q", n, hTitle, hBody, h.TitleLen, h.BodyLen, title, body)
	}
	if h.Whole != (len(hBody) == len(body)) {
		t.Fatalf("n %d: Whole %v with %d of %d bytes", n, h.Whole, len(hBody), len(body))
	}
	if !h.Whole && (len(hBody) < n-utf8.UTFMax || cutsRune(body, len(hBody))) {
		t.Fatalf("n %d: a head of %d bytes of %d", n, len(hBody), len(body))
	}
}

// cutsRune reports whether b[:n] ends inside a valid rune of b (a
// byte that is not UTF-8 is a rune of its own).
func cutsRune(b []byte, n int) bool {
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			r, size := utf8.DecodeRune(b[i:])
			return (r != utf8.RuneError || size > 1) && i+size > n
		}
	}
	return false
}

// TestDecodeTextHead checks heads of raw and compressed texts, ASCII and
// not, long titles, and a body cut inside a rune, against the whole text.
func TestDecodeTextHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"func", "return", "err", "naïve", "Ünïcode", "→", "😀", "\n", "x", strings.Repeat("ab", 40)}
	for i := range 300 {
		var title, body strings.Builder
		for range rng.IntN(3) * rng.IntN(200) {
			title.WriteString(words[rng.IntN(len(words))] + " ")
		}
		for range rng.IntN(2000) {
			body.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(3) > 0 {
				body.WriteByte(' ')
			}
		}
		rec := Encode(&Header{Seq: uint64(i)}, nil, title.String(), body.String())
		for _, n := range []int{0, 1, 7, 64, 1024, 4096, 1 << 20} {
			checkHead(t, rec, n)
			checkHead(t, raw(t, rec), n)
			checkHead(t, compressed(t, rec), n)
		}
	}
	// A compressed body of a thousand bytes, its head of 100: not whole.
	rec := compressed(t, Encode(&Header{Seq: 1}, nil, "t", strings.Repeat("zip zap ", 125)))
	if h, _, err := DecodeTextHead(rec, nil, 100); err != nil || h.Whole || len(h.body) < 100 || len(h.body) >= 1000 {
		t.Fatalf("head of 100 of a 1,000-byte body: %d bytes, whole %v, %v", len(h.body), h.Whole, err)
	}
}

// TestDecodeTextHeadCopies decodes blocks made by hand with each kind of
// copy: golang/snappy's encoder works in 64 KB blocks and never writes a
// 32-bit offset, which another encoder (or damage) may.
func TestDecodeTextHeadCopies(t *testing.T) {
	empty := raw(t, Encode(&Header{Seq: 1}, nil, "", ""))
	prefix := empty[:len(empty)-3] // the header, without the raw kind and two empty lengths
	// The text: title length 0, body length 8, then "abcd" and a copy of it.
	lit := []byte{10, 5 << 2, 0, 8, 'a', 'b', 'c', 'd'}
	for name, copyOp := range map[string][]byte{
		"1-byte offset": {(4-4)<<2 | 1, 4},
		"16-bit offset": {(4-1)<<2 | 2, 4, 0},
		"32-bit offset": {(4-1)<<2 | 3, 4, 0, 0, 0},
		"overlapping":   {(4-1)<<2 | 2, 2, 0},
	} {
		rec := append(append(append(slices.Clone(prefix), textSnappy), lit...), copyOp...)
		_, wantBody, err := DecodeRecordText(rec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h, _, err := DecodeTextHead(rec, nil, 4)
		if err != nil || !h.Whole || string(h.body) != string(wantBody) || len(wantBody) != 8 {
			t.Errorf("%s: head %q %v %v, whole text %q", name, h.body, h.Whole, err, wantBody)
		}
	}
}

// TestDecodeTextHeadReusesBuffer checks that a buffer large enough for the
// whole text is used with no allocation.
func TestDecodeTextHeadReusesBuffer(t *testing.T) {
	rec := compressed(t, Encode(&Header{Seq: 1}, nil, "t", strings.Repeat("zip zap ", 500)))
	big := make([]byte, 0, 8000)
	if n := testing.AllocsPerRun(20, func() { DecodeTextHead(rec, big, 512) }); n != 0 {
		t.Errorf("%v allocations decoding into a buffer large enough", n)
	}
}

// FuzzDecodeTextHead decodes heads of arbitrary records, as a damaged
// store would give, and of texts encoded from arbitrary strings: never a
// panic, and on a record whose whole text decodes, its title and a prefix
// of its body.
func FuzzDecodeTextHead(f *testing.F) {
	f.Add([]byte(nil), "t", "b", 10)
	f.Add([]byte(nil), "", strings.Repeat("zip ", 300), 100)
	f.Add(Encode(&Header{Seq: 2}, nil, "", strings.Repeat("zip ", 300)), "", "", 5)
	f.Add(compressed(f, Encode(&Header{Seq: 2}, nil, "", strings.Repeat("zip ", 300))), "", "", 5)
	f.Add([]byte{version, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0x7f, 0}, "", "", 3)
	f.Fuzz(func(t *testing.T, rec []byte, title, body string, n int) {
		n = int(uint(n) % 5000)
		if rec == nil {
			rec = Encode(&Header{Seq: 1}, nil, title, body)
		}
		checkHead(t, rec, n)
		if len(rec) > 20 {
			bad := bytes.Clone(rec)
			bad[len(bad)/2+n%(len(bad)/2)] ^= byte(n) | 1
			checkHead(t, bad, n)
		}
	})
}

func ExampleDecodeTextHead() {
	rec := Encode(&Header{Seq: 1}, nil, "LICENSE", "Copyright 2009 The Go Authors. All rights reserved.\n"+strings.Repeat("More text. ", 1000))
	h, _, err := DecodeTextHead(rec, nil, 64)
	fmt.Println(h.Whole, h.TitleLen, h.BodyLen, err)
	f, _, err := FoldHeadInto(&Folded{}, nil, h, false)
	fmt.Println(f.Title, strings.Contains(f.Body, "all rights"), err)
	// Output:
	// false 7 11052 <nil>
	// license true <nil>
}

// BenchmarkSnappyPrefix decodes the Go tree's net/http sources whole with
// snappyPrefix, which decodes the heads of texts, and with the snappy
// package's decoder (assembly on amd64) for a yardstick; MB/s of text.
func BenchmarkSnappyPrefix(b *testing.B) {
	dir, err := goroot.Dir()
	if err != nil {
		b.Skip(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "src", "net", "http", "*.go"))
	var blocks [][]byte
	var sizes []int
	total := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		blocks, sizes, total = append(blocks, snappy.Encode(nil, text)), append(sizes, len(text)), total+len(text)
	}
	if total == 0 {
		b.Skip("no source to decode")
	}
	var buf []byte
	b.Run("snappyPrefix", func(b *testing.B) {
		b.SetBytes(int64(total))
		for range b.N {
			for i, z := range blocks {
				_, k := binary.Uvarint(z)
				if buf, err = snappyPrefix(buf[:0], z[k:], sizes[i], sizes[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("snappy.Decode", func(b *testing.B) {
		b.SetBytes(int64(total))
		for range b.N {
			for _, z := range blocks {
				if buf, err = snappy.Decode(buf[:cap(buf)], z); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
