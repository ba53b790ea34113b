package plan_test

import (
	"errors"
	"testing"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/query"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		q      string
		raw    bool
		typing bool
		check  func(t *testing.T, p *plan.Plan)
	}{
		{"simple words", "Read File", false, false, func(t *testing.T, p *plan.Plan) {
			if len(p.Leaves) != 2 || p.Leaves[0].Folded != "read" || p.Strict || p.Quoted {
				t.Errorf("leaves %+v, strict %v, quoted %v", p.Leaves, p.Strict, p.Quoted)
			}
		}},
		{"quoted phrase", `"func main" x`, false, false, func(t *testing.T, p *plan.Plan) {
			if !p.Quoted || !p.Leaves[0].Quoted || !p.Leaves[0].Phrase || p.Leaves[1].Quoted {
				t.Errorf("quoted %v, leaves %+v %+v", p.Quoted, *p.Leaves[0], *p.Leaves[1])
			}
		}},
		{"raw tree", "read* NOT title:write", true, false, func(t *testing.T, p *plan.Plan) {
			r, w := p.Leaves[0], p.Leaves[1]
			if !p.Strict || !r.Prefix || r.Negated || !w.Negated || w.Fields != plan.InTitle {
				t.Errorf("strict %v, read* %+v, write %+v", p.Strict, *r, *w)
			}
			if got := len(p.Positive()); got != 1 {
				t.Errorf("%d positive leaves, want 1", got)
			}
		}},
		{"typing the last word", "bufio scann", false, true, func(t *testing.T, p *plan.Plan) {
			if p.Leaves[0].Typing || !p.Leaves[1].Typing {
				t.Errorf("typing %v %v, want false true", p.Leaves[0].Typing, p.Leaves[1].Typing)
			}
		}},
		{"typing done at a space", "bufio scann ", false, true, func(t *testing.T, p *plan.Plan) {
			if p.Leaves[1].Typing {
				t.Error("a word followed by a space is still being typed")
			}
		}},
		{"typing too short", "io x", false, true, func(t *testing.T, p *plan.Plan) {
			if p.Leaves[1].Typing {
				t.Errorf("a word under %d runes is typed as a prefix", plan.MinTypingRunes)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan.Parse(tc.q, tc.raw, tc.typing)
			if err != nil {
				t.Fatal(err)
			}
			for n, l := range p.ByNode {
				if p.ByNode[n] != l {
					t.Fatal("ByNode is not a map of the leaves")
				}
			}
			tc.check(t, p)
		})
	}
	if _, err := plan.Parse("  ", false, false); !errors.Is(err, query.ErrEmpty) {
		t.Errorf("empty query: %v, want query.ErrEmpty", err)
	}
}

func TestEval(t *testing.T) {
	p, err := plan.Parse("(a OR b) NOT c", true, false)
	if err != nil {
		t.Fatal(err)
	}
	judge := func(has map[string]plan.Verdict) plan.Verdict {
		return p.Eval(p.Root, func(l *plan.Leaf) plan.Verdict {
			if v, ok := has[l.Text]; ok {
				return v
			}
			return plan.No
		}, nil)
	}
	for _, tc := range []struct {
		name string
		has  map[string]plan.Verdict
		want plan.Verdict
	}{
		{"a alone", map[string]plan.Verdict{"a": plan.Yes}, plan.Yes},
		{"a and c", map[string]plan.Verdict{"a": plan.Yes, "c": plan.Yes}, plan.No},
		{"none", nil, plan.No},
		{"b abstains, a holds", map[string]plan.Verdict{"a": plan.Yes, "b": plan.Abstain}, plan.Yes},
	} {
		if got := judge(tc.has); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNearWithin(t *testing.T) {
	for _, tc := range []struct {
		name string
		occ  [][][2]int
		dist int
		want bool
	}{
		{"adjacent", [][][2]int{{{1, 1}}, {{2, 2}}}, 0, true},
		{"one word between", [][][2]int{{{1, 1}}, {{3, 3}}}, 0, false},
		{"within two", [][][2]int{{{1, 1}}, {{3, 3}}}, 2, true},
		{"either order", [][][2]int{{{9, 9}}, {{7, 7}}}, 1, true},
		{"a group absent", [][][2]int{{{1, 1}}, nil}, 10, false},
		{"a phrase's end counts", [][][2]int{{{1, 3}}, {{5, 5}}}, 1, true},
	} {
		if got := plan.NearWithin(tc.occ, tc.dist); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
