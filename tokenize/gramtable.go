//go:build !js

package tokenize

// gramTable maps ASCII trigrams, by their 21 bits, to their index in a
// gramCounter: a table indexed by all 2^21 trigrams, 8 MiB, which the
// pool keeps. Indexing it directly is 25-50% less CPU time than hashing
// into a table sized to the document (gramtable_js.go), which the
// browser build uses to save the memory.
type gramTable struct {
	slot *[1 << 21]int32 // index+1, 0 for none
}

// size readies the table for n windows.
func (t *gramTable) size(int) {
	if t.slot == nil {
		t.slot = new([1 << 21]int32)
	}
}

func (t *gramTable) find(key uint32) (int32, bool) {
	k := t.slot[key]
	return k - 1, k != 0
}

func (t *gramTable) insert(key uint32, i int32) { t.slot[key] = i + 1 }

// empty removes the counter's trigrams.
func (t *gramTable) empty(grams []uint32) {
	for _, g := range grams {
		if g&gramKinds == trigram {
			t.slot[g&gramPayload] = 0
		}
	}
}
