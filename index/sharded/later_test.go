//go:build !js && !wasip1

package sharded_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/index/sharded"
)

// A shard loaded from a snapshot with TrigramsLater builds its trigram
// index before it gathers statistics: the collection answers as one of
// shards loaded whole.
func TestShardTrigramsLater(t *testing.T) {
	words := []string{"reader", "writer", "closes", "file", "buffer", "NewReader", "ReadAll", "token", "json"}
	var parts [2][]byte
	for p := range parts {
		ix, err := index.OpenMemory(&index.Options{Backend: index.Compact})
		if err != nil {
			t.Fatal(err)
		}
		for i := p; i < 400; i += 2 {
			mustUpsert(t, ix, index.Doc{ID: fmt.Sprintf("d%03d", i), Title: words[i%len(words)],
				Body: words[(i*7)%len(words)] + " " + words[(i*5)%len(words)]})
		}
		var b bytes.Buffer
		if err := ix.WriteSnapshot(&b); err != nil {
			t.Fatal(err)
		}
		ix.Close()
		parts[p] = b.Bytes()
	}
	open := func(data []byte, later bool) *index.Index {
		ix, err := index.OpenSnapshot(bytes.NewReader(data), &index.Options{TrigramsLater: later})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	whole := localShards{open(parts[0], false), open(parts[1], false)}
	later := localShards{open(parts[0], true), open(parts[1], false)}
	for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
		for _, q := range []string{"reader", "eadAll", "js", "new reader"} {
			req := index.Request{Query: q, Mode: m}
			want, err := sharded.Search(ctx, whole, req, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := sharded.Search(ctx, later, req, nil)
			if err != nil {
				t.Fatalf("%s %q: %v", m, q, err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("%s %q: results differ:\n%+v\n%+v", m, q, want, got)
			}
		}
	}
}
