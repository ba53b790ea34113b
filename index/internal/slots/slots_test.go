package slots_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/twindex/twindex/index/internal/slots"
)

// docNumber is a scorch internal ID.
func docNumber(n uint64) string { return string(binary.BigEndian.AppendUint64(nil, n)) }

func TestTable(t *testing.T) {
	tests := []struct {
		name string
		new  func(hint int) *slots.Table
		ids  []string
	}{
		{"keys", slots.New, []string{"a", "bb", docNumber(7), ""}},
		{"doc numbers", slots.NewDocNumbers, []string{docNumber(5), docNumber(0), docNumber(3_000_000), docNumber(6)}},
		{"doc numbers and others", slots.NewDocNumbers, []string{
			docNumber(2), docNumber(1 << 24), "short", docNumber(1<<24 - 1), "", docNumber(1<<64 - 1),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Twice: the second table may reuse the first's pooled part,
			// which must come back empty.
			for round := range 2 {
				tab := tt.new(2)
				for k, id := range tt.ids {
					if _, ok := tab.Get([]byte(id)); ok {
						t.Fatalf("round %d: %q has a slot before it is added", round, id)
					}
					if got := tab.Add([]byte(id)); got != int32(k) {
						t.Fatalf("round %d: Add(%q) = %d, want %d", round, id, got, k)
					}
				}
				if tab.Len() != len(tt.ids) {
					t.Fatalf("round %d: Len() = %d, want %d", round, tab.Len(), len(tt.ids))
				}
				tab.Freeze()
				for k, id := range tt.ids {
					if got, ok := tab.Get([]byte(id)); !ok || got != int32(k) {
						t.Fatalf("round %d: Get(%q) = %d, %v, want %d", round, id, got, ok, k)
					}
					if got := tab.ID(int32(k)); got != id {
						t.Fatalf("round %d: ID(%d) = %q, want %q", round, k, got, id)
					}
				}
				if _, ok := tab.Get([]byte(docNumber(9))); ok {
					t.Fatalf("round %d: an ID never added has a slot", round)
				}
				tab.Release()
			}
		})
	}
}

func ExampleTable() {
	tab := slots.New(16)
	defer tab.Release()
	for _, id := range []string{"doc7", "doc3"} {
		if _, ok := tab.Get([]byte(id)); !ok {
			tab.Add([]byte(id))
		}
	}
	k, _ := tab.Get([]byte("doc3"))
	tab.Freeze()
	fmt.Println(tab.Len(), k, tab.ID(k))
	// Output: 2 1 doc3
}
