package snapfile_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"reflect"
	"testing"

	"github.com/twindex/twindex/index/internal/snapfile"
)

// testdata/v2.snap was written by index.WriteSnapshot from a memory
// index of three documents (one then removed), with a parent, tags, meta,
// a session, a link, a vector and Cyrillic text. It guards the format: it
// must decode and write back to the same bytes. It is not regenerated; a
// new version of the format gets a new magic and a file of its own.
func TestGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/v2.snap")
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
	if len(f.Text) == 0 {
		t.Fatal("no text index")
	}
	var again bytes.Buffer
	if err := snapfile.Write(&again, f.Buckets, f.Text); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), data) {
		t.Fatalf("written back as %d bytes, not the %d decoded", again.Len(), len(data))
	}
}

// Version 1 snapshots, which held upsidedown rows, are refused.
func TestVersion1(t *testing.T) {
	if _, err := snapfile.Decode(withCRC([]byte("TWXSNAP\x01\x00\x00\x00"))); err == nil {
		t.Fatal("decoded")
	}
}

// contents is a decoded snapshot in a comparable form.
type contents struct {
	Buckets []snapfile.Bucket
	Text    string
}

func contentsOf(f *snapfile.File) contents {
	return contents{f.Buckets, string(f.Text)}
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
	golden, err := os.ReadFile("testdata/v2.snap")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(golden[:len(golden)-4])
	f.Add([]byte("TWXSNAP\x02\x00\x00"))
	f.Add([]byte("TWXSNAP\x02\x01\x01b\x02\x00\x01a\x01x\x00\x01b\x00\x01t"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, withCRC(data)} {
			dec, err := snapfile.Decode(in)
			if err != nil {
				continue
			}
			var out bytes.Buffer
			if err := snapfile.Write(&out, dec.Buckets, dec.Text); err != nil {
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
	buckets := []snapfile.Bucket{{Name: []byte("docs"), Keys: [][]byte{[]byte("doc1")}, Vals: [][]byte{[]byte("record")}}}
	var buf bytes.Buffer
	if err := snapfile.Write(&buf, buckets, []byte("text index")); err != nil {
		fmt.Println(err)
		return
	}
	f, err := snapfile.Decode(buf.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d bytes, bucket %s: %s=%s, text index %q\n", buf.Len(), f.Buckets[0].Name,
		f.Buckets[0].Keys[0], f.Buckets[0].Vals[0], f.Text)
	// Output: 43 bytes, bucket docs: doc1=record, text index "text index"
}
