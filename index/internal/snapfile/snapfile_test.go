package snapfile_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"reflect"
	"testing"

	"github.com/twindex/twindex/index/internal/memkv"
	"github.com/twindex/twindex/index/internal/snapfile"
)

// testdata/v1.snap was written by index.WriteSnapshot at commit 7ba2022,
// before this package existed, from a memory index of three documents
// (one then removed), with a parent, tags, meta, a session, a link, a
// vector and Cyrillic text. It guards the format: it must decode and
// write back to the same bytes. It is not regenerated; a new version of
// the format gets a new magic and a file of its own.
func TestGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/v1.snap")
	if err != nil {
		t.Fatal(err)
	}
	f, err := snapfile.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range f.Buckets {
		names = append(names, string(b.Name))
	}
	if want := []string{"meta", "docs", "children", "links"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("buckets %q, want %q", names, want)
	}
	if docs := f.Buckets[1].Keys; len(docs) != 2 || string(docs[0]) != "a" || string(docs[1]) != "b" {
		t.Fatalf("documents %q, want a and b", docs)
	}
	text, tri := f.Text.Snapshot(), f.Trigram.Snapshot()
	if text.Len() == 0 || tri.Len() == 0 {
		t.Fatalf("%d text rows, %d trigram rows", text.Len(), tri.Len())
	}
	var again bytes.Buffer
	if err := snapfile.Write(&again, f.Buckets, text, tri); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), data) {
		t.Fatalf("written back as %d bytes, not the %d decoded", again.Len(), len(data))
	}
}

// contents is a decoded snapshot in a comparable form.
type contents struct {
	Buckets       []snapfile.Bucket
	Text, Trigram [][2]string
}

func contentsOf(f *snapfile.File) contents {
	rows := func(s *memkv.Store) (r [][2]string) {
		s.Snapshot().Walk(func(k, v []byte) { r = append(r, [2]string{string(k), string(v)}) })
		return r
	}
	return contents{f.Buckets, rows(f.Text), rows(f.Trigram)}
}

// withCRC appends the checksum a snapshot ends with.
func withCRC(body []byte) []byte {
	return binary.BigEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// Decode never panics, and what it decodes writes back to bytes that
// decode to the same contents. (Not always to the same bytes: a number
// may be written in more bytes than it needs.) Each input is tried as it
// is and with a valid checksum appended, so that the fuzzer reaches the
// decoder behind the checksum.
func FuzzDecode(f *testing.F) {
	golden, err := os.ReadFile("testdata/v1.snap")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(golden[:len(golden)-4])
	f.Add([]byte("TWXSNAP\x01\x00\x00\x00"))
	f.Add([]byte("TWXSNAP\x01\x01\x01b\x02\x00\x01a\x01x\x00\x01b\x00\x01\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, withCRC(data)} {
			dec, err := snapfile.Decode(in)
			if err != nil {
				continue
			}
			var out bytes.Buffer
			if err := snapfile.Write(&out, dec.Buckets, dec.Text.Snapshot(), dec.Trigram.Snapshot()); err != nil {
				t.Fatal(err)
			}
			again, err := snapfile.Decode(out.Bytes())
			if err != nil {
				t.Fatalf("written back, it does not decode: %v", err)
			}
			if a, b := contentsOf(dec), contentsOf(again); !reflect.DeepEqual(a, b) {
				t.Fatalf("written back, it decodes to\n%+v, not\n%+v", b, a)
			}
		}
	})
}

func Example() {
	var text, tri memkv.Builder
	text.Add([]byte("row1"), []byte("a"))
	text.Add([]byte("row2"), []byte("b"))
	tri.Add([]byte("abc"), nil)
	buckets := []snapfile.Bucket{{Name: []byte("docs"), Keys: [][]byte{[]byte("doc1")}, Vals: [][]byte{[]byte("record")}}}

	var buf bytes.Buffer
	if err := snapfile.Write(&buf, buckets, text.Store().Snapshot(), tri.Store().Snapshot()); err != nil {
		fmt.Println(err)
		return
	}
	f, err := snapfile.Decode(buf.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d bytes, bucket %s: %s=%s, %d text rows, %d trigram row\n", buf.Len(), f.Buckets[0].Name,
		f.Buckets[0].Keys[0], f.Buckets[0].Vals[0], f.Text.Snapshot().Len(), f.Trigram.Snapshot().Len())
	// Output: 53 bytes, bucket docs: doc1=record, 2 text rows, 1 trigram row
}
