//go:build !js

package cluster

import (
	"fmt"
	"slices"
	"testing"
)

// TestPlace: every shard on min(copies, nodes) distinct nodes, the same
// placement whatever the order of the nodes, shards spread evenly, and a
// fourth node moves only the shards it wins.
func TestPlace(t *testing.T) {
	for _, tc := range []struct {
		name           string
		nodes          []string
		shards, copies int
	}{
		{"one node", []string{"a"}, 12, 2},
		{"three nodes", []string{"a", "b", "c"}, 12, 2},
		{"ten nodes", []string{"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"}, 64, 2},
		{"three copies", []string{"a", "b", "c", "d"}, 16, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := place(tc.nodes, tc.shards, tc.copies)
			rev := slices.Clone(tc.nodes)
			slices.Reverse(rev)
			if q := place(rev, tc.shards, tc.copies); fmt.Sprint(q.Shards) != fmt.Sprint(p.Shards) {
				t.Errorf("order of nodes changed the placement:\n%v\n%v", p.Shards, q.Shards)
			}
			want := min(tc.copies, len(tc.nodes))
			load := map[string]int{}
			for s, nodes := range p.Shards {
				if len(nodes) != want || len(slices.Compact(slices.Sorted(slices.Values(nodes)))) != want {
					t.Errorf("shard %d on %v, want %d distinct nodes", s, nodes, want)
				}
				for _, n := range nodes {
					load[n]++
				}
			}
			mean := float64(tc.shards*want) / float64(len(tc.nodes))
			for n, l := range load {
				if float64(l) > 2.5*mean {
					t.Errorf("node %s holds %d shards, mean %.1f", n, l, mean)
				}
			}
		})
	}
	before := place([]string{"a", "b", "c"}, 48, 2)
	after := place([]string{"a", "b", "c", "d"}, 48, 2)
	for s := range before.Shards {
		for _, n := range after.Shards[s] {
			if n != "d" && !slices.Contains(before.Shards[s], n) {
				t.Errorf("shard %d moved to %s, which was there before the new node", s, n)
			}
		}
	}
	if len(after.of("d")) == 0 {
		t.Error("the new node got no shard")
	}
}
