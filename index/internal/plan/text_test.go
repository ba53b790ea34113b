package plan_test

import (
	"testing"

	"github.com/twindex/twindex/index/internal/plan"
)

// readFile is the text leg's view of the phrase "read file": the words
// read and file at adjacent positions, or the compound readfile, which
// covers both.
func readFile(t *testing.T, q string) (*plan.Plan, *plan.Text) {
	t.Helper()
	p, err := plan.Parse(q, true, false)
	if err != nil {
		t.Fatal(err)
	}
	tl := &plan.TextLeaf{Leaf: p.Leaves[0],
		Groups: []plan.Group{{Rel: 0, Terms: []int{0}}, {Rel: 1, Terms: []int{1}}},
		Covers: []plan.Cover{{Term: 2, Groups: []int{0, 1}}}}
	tl.Unite()
	tp := &plan.Text{
		Terms:  []plan.Term{{Dict: []string{"read"}}, {Dict: []string{"file"}}, {Dict: []string{"readfile"}}},
		Leaves: []*plan.TextLeaf{tl}, ByLeaf: map[*plan.Leaf]*plan.TextLeaf{p.Leaves[0]: tl},
	}
	return p, tp
}

func TestTextLeaf(t *testing.T) {
	_, tp := readFile(t, `"read file"`)
	tl := tp.Leaves[0]
	for _, tc := range []struct {
		name              string
		bits              uint64
		present, compound bool
	}{
		{"both words", 0b011, true, false},
		{"one word", 0b001, false, false},
		{"the compound", 0b100, true, true},
	} {
		if got := tl.Present([]uint64{tc.bits}); got != tc.present {
			t.Errorf("%s: Present = %v, want %v", tc.name, got, tc.present)
		}
		if got := tl.Compound([]uint64{tc.bits}); got != tc.compound {
			t.Errorf("%s: Compound = %v, want %v", tc.name, got, tc.compound)
		}
	}
	if !tl.NeedsPositions() || !tp.Positional() {
		t.Error("a phrase of two words does not need positions")
	}
	occ := tl.Occurrences(tp, map[string][]int{"read": {1, 7}, "file": {2, 9}})
	if len(occ) != 1 || occ[0] != [2]int{1, 2} {
		t.Errorf("Occurrences = %v, want [[1 2]]", occ)
	}
}

func TestJudge(t *testing.T) {
	p, tp := readFile(t, `"read file"`)
	for _, tc := range []struct {
		name string
		bits uint64
		pos  map[string][]int
		want plan.Verdict
	}{
		{"adjacent", 0b011, map[string][]int{"read": {3}, "file": {4}}, plan.Yes},
		{"apart", 0b011, map[string][]int{"read": {3}, "file": {5}}, plan.No},
		{"the compound, no positions needed", 0b100, nil, plan.Yes},
		{"absent", 0, nil, plan.No},
	} {
		runs := func(tl *plan.TextLeaf, _ int) (bool, error) { return len(tl.Occurrences(tp, tc.pos)) > 0, nil }
		v, err := tp.Judge(p, func(int) []uint64 { return []uint64{tc.bits} }, runs, func(int) (map[string][]int, error) { return tc.pos, nil })
		if err != nil || v != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, v, err, tc.want)
		}
	}
}

// In the simple syntax, a word of parts asks for each unit: a part, or
// any part of a hyphenated word (low and dose of read/low-dose).
func TestUnits(t *testing.T) {
	p, err := plan.Parse("read/low-dose", false, false)
	if err != nil {
		t.Fatal(err)
	}
	tl := &plan.TextLeaf{Leaf: p.Leaves[0], Groups: []plan.Group{
		{Rel: 0, Terms: []int{0}}, {Rel: 1, Terms: []int{1}, Prose: 1}, {Rel: 2, Terms: []int{2}, Prose: 1}}}
	tl.Unite()
	if !tl.Conjunctive() || len(tl.Units) != 2 {
		t.Fatalf("units %v, want [[0] [1 2]]", tl.Units)
	}
	for _, tc := range []struct {
		bits uint64
		want bool
	}{{0b011, true}, {0b101, true}, {0b110, false}, {0b001, false}, {0b111, true}} {
		if got := tl.Holds([]uint64{tc.bits}); got != tc.want {
			t.Errorf("Holds(%03b) = %v, want %v", tc.bits, got, tc.want)
		}
		if got := tl.Present([]uint64{tc.bits}); got != (tc.bits == 0b111) {
			t.Errorf("Present(%03b) = %v: the raw syntax asks for every group", tc.bits, got)
		}
	}
	tl.Groups = tl.Groups[1:]
	tl.Unite()
	if tl.Conjunctive() {
		t.Errorf("low-dose alone: units %v, want one", tl.Units)
	}
}
