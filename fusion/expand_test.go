package fusion_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twindex/twindex/fusion"
)

// graph is a list of edges that answers fusion.Neighbors.
type graph []fusion.Edge

// e builds an edge from "from>to" or "from>to:type".
func e(s string) fusion.Edge {
	ends, typ, _ := strings.Cut(s, ":")
	from, to, _ := strings.Cut(ends, ">")
	return fusion.Edge{From: from, To: to, Type: typ}
}

func edges(specs ...string) graph {
	g := make(graph, len(specs))
	for i, s := range specs {
		g[i] = e(s)
	}
	return g
}

// neighbors answers from g, appending each asked ID to calls when not nil.
// With reverse, it lists links in reverse order, to check that the order
// of links does not matter.
func (g graph) neighbors(calls *[]string, reverse bool) fusion.Neighbors {
	return func(id string) (out, in []fusion.Edge, err error) {
		if calls != nil {
			*calls = append(*calls, id)
		}
		for _, e := range g {
			if e.From == id {
				out = append(out, e)
			}
			if e.To == id {
				in = append(in, e)
			}
		}
		if reverse {
			slices.Reverse(out)
			slices.Reverse(in)
		}
		return out, in, nil
	}
}

// hits builds hits from "id=score" pairs, in the given order.
func hits(specs ...string) []fusion.Hit {
	out := make([]fusion.Hit, len(specs))
	for i, s := range specs {
		id, sc, _ := strings.Cut(s, "=")
		f, err := strconv.ParseFloat(sc, 64)
		if err != nil {
			panic(err)
		}
		out[i] = fusion.Hit{ID: id, Score: f}
	}
	return out
}

// render shows hits as "id score" with " <seed from type [in] hops>" for
// a Via, scores to 4 significant digits.
func render(hits []fusion.Hit) string {
	var b strings.Builder
	for i, h := range hits {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.4g", h.ID, h.Score)
		if v := h.Via; v != nil {
			typ := cmpOr(v.Type, "-")
			if v.Incoming {
				typ += " in"
			}
			fmt.Fprintf(&b, " <%s %s %s %d>", v.Seed, v.From, typ, v.Hops)
		}
	}
	return b.String()
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func TestExpand(t *testing.T) {
	tests := []struct {
		name  string
		hits  []fusion.Hit
		graph graph
		opts  fusion.ExpandOptions
		want  string
		calls string // the IDs neighbors was asked for, sorted; checked when set
	}{
		{
			name:  "negative depth: seeds only",
			hits:  hits("b=0.5", "a=1"),
			graph: edges("a>c"),
			opts:  fusion.ExpandOptions{Depth: -1},
			want:  "a 1, b 0.5",
			calls: "[]",
		},
		{
			name:  "zero depth means one hop",
			hits:  hits("a=1", "b=0.5"),
			graph: edges("a>c", "c>d"),
			want:  "a 1, c 0.8 <a a - 1>, b 0.5",
			calls: "[a b]",
		},
		{
			name:  "two hops",
			hits:  hits("a=1"),
			graph: edges("a>c", "c>d"),
			opts:  fusion.ExpandOptions{Depth: 2},
			want:  "a 1, c 0.8 <a a - 1>, d 0.64 <a c - 2>",
		},
		{
			name:  "incoming links walked backwards",
			hits:  hits("a=1"),
			graph: edges("x>a:mentions"),
			want:  "a 1, x 0.8 <a a mentions in 1>",
		},
		{
			name:  "skip incoming by type",
			hits:  hits("a=1"),
			graph: edges("x>a:imports", "a>y:imports", "z>a:contains"),
			opts:  fusion.ExpandOptions{SkipIncoming: []string{"imports"}},
			want:  "a 1, y 0.8 <a a imports 1>, z 0.8 <a a contains in 1>",
		},
		{
			name:  "decay per edge type",
			hits:  hits("a=1"),
			graph: edges("a>c:contains", "a>d:imports", "a>e:mentions", "a>f"),
			opts:  fusion.ExpandOptions{Decay: 0.5, EdgeDecay: map[string]float64{"contains": 0.95, "imports": 0.7}},
			want:  "a 1, c 0.95 <a a contains 1>, d 0.7 <a a imports 1>, e 0.5 <a a mentions 1>, f 0.5 <a a - 1>",
		},
		{
			name:  "decay compounds per hop",
			hits:  hits("a=1"),
			graph: edges("a>b:contains", "b>c:imports"),
			opts:  fusion.ExpandOptions{Depth: 2, EdgeDecay: map[string]float64{"contains": 0.9, "imports": 0.5}},
			want:  "a 1, b 0.9 <a a contains 1>, c 0.45 <a b imports 2>",
		},
		{
			name:  "zero edge decay: type not walked",
			hits:  hits("a=1"),
			graph: edges("a>c:mentions", "a>d"),
			opts:  fusion.ExpandOptions{EdgeDecay: map[string]float64{"mentions": 0}},
			want:  "a 1, d 0.8 <a a - 1>",
		},
		{
			name:  "negative decay: only listed types walked",
			hits:  hits("a=1"),
			graph: edges("a>c:mentions", "a>d:contains"),
			opts:  fusion.ExpandOptions{Decay: -1, EdgeDecay: map[string]float64{"contains": 0.9}},
			want:  "a 1, d 0.9 <a a contains 1>",
		},
		{
			name:  "decay above one counts as one",
			hits:  hits("a=0.5"),
			graph: edges("a>c"),
			opts:  fusion.ExpandOptions{Decay: 3},
			want:  "a 0.5, c 0.5 <a a - 1>",
		},
		{
			name:  "best score kept: two seeds reach a document",
			hits:  hits("a=1", "b=0.5"),
			graph: edges("b>c", "a>c"),
			want:  "a 1, c 0.8 <a a - 1>, b 0.5",
		},
		{
			name:  "best score kept: longer path beats shorter",
			hits:  hits("a=1"),
			graph: edges("a>c:imports", "a>x:contains", "x>c:contains"),
			opts:  fusion.ExpandOptions{Depth: 2, EdgeDecay: map[string]float64{"contains": 0.95, "imports": 0.5}},
			want:  "a 1, x 0.95 <a a contains 1>, c 0.9025 <a x contains 2>",
		},
		{
			name: "shorter path still reaches on when a longer one overtakes it",
			hits: hits("a=1"),
			// c's best is a>x>c (2 hops), but d is only reachable
			// within 2 hops by a>c>d.
			graph: edges("a>c:imports", "a>x:contains", "x>c:contains", "c>d:contains"),
			opts:  fusion.ExpandOptions{Depth: 2, EdgeDecay: map[string]float64{"contains": 0.95, "imports": 0.5}},
			want:  "a 1, x 0.95 <a a contains 1>, c 0.9025 <a x contains 2>, d 0.475 <a c contains 2>",
		},
		{
			name:  "equal scores: fewer hops win",
			hits:  hits("a=1"),
			graph: edges("a>x", "x>c", "a>c:strong"),
			opts:  fusion.ExpandOptions{Depth: 2, Decay: 1, EdgeDecay: map[string]float64{"strong": 1}},
			want:  "a 1, c 1 <a a strong 1>, x 1 <a a - 1>",
		},
		{
			name:  "input hit keeps its own score when higher",
			hits:  hits("a=1", "b=0.9"),
			graph: edges("a>b"),
			want:  "a 1, b 0.9",
		},
		{
			name:  "input hit lifted when a path scores more",
			hits:  hits("a=1", "n=0.7", "b=0.1"),
			graph: edges("a>b"),
			opts:  fusion.ExpandOptions{TopK: 1},
			want:  "a 1, b 0.8 <a a - 1>, n 0.7",
		},
		{
			name:  "seed lifted by another seed passes the better score on",
			hits:  hits("a=1", "b=0.5"),
			graph: edges("a>b", "b>c"),
			opts:  fusion.ExpandOptions{Depth: 2},
			want:  "a 1, b 0.8 <a a - 1>, c 0.64 <a b - 2>",
		},
		{
			name:  "non-seed hits pass on what they inherit, not their own score",
			hits:  hits("a=1", "b=0.9", "c=0.1"),
			graph: edges("a>c", "c>d", "b>e"),
			opts:  fusion.ExpandOptions{Depth: 2, TopK: 1},
			want:  "a 1, b 0.9, c 0.8 <a a - 1>, d 0.64 <a c - 2>",
		},
		{
			name:  "TopK limits the seeds",
			hits:  hits("a=1", "b=0.9", "c=0.8"),
			graph: edges("a>x", "b>y", "c>z"),
			opts:  fusion.ExpandOptions{TopK: 2},
			want:  "a 1, b 0.9, c 0.8, x 0.8 <a a - 1>, y 0.72 <b b - 1>",
			calls: "[a b]",
		},
		{
			name:  "MinScore drops paths and skips hopeless lookups",
			hits:  hits("a=1", "b=0.5"),
			graph: edges("a>c", "c>d", "b>e"),
			opts:  fusion.ExpandOptions{Depth: 2, MinScore: 0.7},
			want:  "a 1, c 0.8 <a a - 1>, b 0.5",
			calls: "[a]", // c (0.8·0.8) and b (0.5·0.8) cannot reach 0.7
		},
		{
			name:  "MinScore keeps a path exactly at it",
			hits:  hits("a=1"),
			graph: edges("a>c"),
			opts:  fusion.ExpandOptions{Decay: 0.5, MinScore: 0.5},
			want:  "a 1, c 0.5 <a a - 1>",
		},
		{
			name:  "MinScore is relative to the best raw RRF score",
			hits:  []fusion.Hit{{ID: "a", Score: 2.0 / 61}, {ID: "b", Score: 1.0 / 62}},
			graph: edges("a>c", "b>d"),
			opts:  fusion.ExpandOptions{MinScore: 0.5},
			want:  "a 0.03279, c 0.02623 <a a - 1>, b 0.01613",
		},
		{
			name:  "MinScore does not drop input hits",
			hits:  hits("a=1", "b=0.1"),
			opts:  fusion.ExpandOptions{MinScore: 0.9},
			graph: edges("a>c"),
			want:  "a 1, b 0.1",
		},
		{
			name:  "MaxResults keeps the best new documents",
			hits:  hits("a=1", "b=0.1"),
			graph: edges("a>c:weak", "a>d:strong", "a>e", "a>b"),
			opts:  fusion.ExpandOptions{MaxResults: 2, EdgeDecay: map[string]float64{"weak": 0.1, "strong": 0.9}},
			want:  "a 1, d 0.9 <a a strong 1>, b 0.8 <a a - 1>, e 0.8 <a a - 1>",
		},
		{
			name:  "cycle",
			hits:  hits("a=1"),
			graph: edges("a>b", "b>c", "c>a", "b>a"),
			opts:  fusion.ExpandOptions{Depth: 6, Decay: 1, SkipIncoming: []string{""}},
			want:  "a 1, b 1 <a a - 1>, c 1 <a b - 2>",
		},
		{
			name:  "cycle walked both ways",
			hits:  hits("a=1"),
			graph: edges("a>b", "b>c", "c>a"),
			opts:  fusion.ExpandOptions{Depth: 6, Decay: 1},
			want:  "a 1, b 1 <a a - 1>, c 1 <a a - in 1>",
		},
		{
			name:  "self loop",
			hits:  hits("a=1"),
			graph: edges("a>a", "a>b"),
			opts:  fusion.ExpandOptions{Depth: 3},
			want:  "a 1, b 0.8 <a a - 1>",
		},
		{
			name:  "ties: least seed wins, equal new documents by ID",
			hits:  hits("b=1", "a=1"),
			graph: edges("b>c", "a>c", "a>e", "a>d"),
			want:  "a 1, b 1, c 0.8 <a a - 1>, d 0.8 <a a - 1>, e 0.8 <a a - 1>",
		},
		{
			name:  "ties: outgoing before incoming, then least type",
			hits:  hits("a=1"),
			graph: edges("c>a:x", "a>c:y", "a>d:z", "a>d:w"),
			want:  "a 1, c 0.8 <a a y 1>, d 0.8 <a a w 1>",
		},
		{
			name:  "seeds that score nothing start nothing",
			hits:  hits("a=0", "b=-1", "c=NaN"),
			graph: edges("a>x", "b>y", "c>z"),
			want:  "a 0, b -1, c NaN",
			calls: "[]",
		},
		{
			name:  "no hits",
			graph: edges("a>x"),
			want:  "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, reverse := range []bool{false, true} {
				var calls []string
				got, err := fusion.Expand(tt.hits, tt.graph.neighbors(&calls, reverse), tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				if r := render(got); r != tt.want {
					t.Errorf("reverse %v: Expand =\n%s\nwant\n%s", reverse, r, tt.want)
				}
				slices.Sort(calls)
				if tt.calls != "" && fmt.Sprint(calls) != tt.calls {
					t.Errorf("reverse %v: neighbors called for %v, want %s", reverse, calls, tt.calls)
				}
				if c := slices.Compact(slices.Clone(calls)); len(c) != len(calls) {
					t.Errorf("neighbors called more than once for a document: %v", calls)
				}
			}
		})
	}
}

func TestExpandAdmit(t *testing.T) {
	g := edges("a>x", "x>y", "a>z", "a>w")
	var asked []string
	admit := func(id string) (bool, error) {
		asked = append(asked, id)
		return id != "x", nil
	}
	got, err := fusion.Expand(hits("a=1"), g.neighbors(nil, false), fusion.ExpandOptions{Depth: 2, MaxResults: 2, Admit: admit})
	if err != nil {
		t.Fatal(err)
	}
	// x is rejected but walked through; y is not asked for once two are in.
	if r, want := render(got), "a 1, w 0.8 <a a - 1>, z 0.8 <a a - 1>"; r != want {
		t.Errorf("Expand = %s, want %s", r, want)
	}
	if fmt.Sprint(asked) != "[w x z]" {
		t.Errorf("Admit asked for %v, want [w x z]", asked)
	}

	got, err = fusion.Expand(hits("a=1"), g.neighbors(nil, false), fusion.ExpandOptions{Depth: 2, Admit: admit})
	if err != nil {
		t.Fatal(err)
	}
	if r, want := render(got), "a 1, w 0.8 <a a - 1>, z 0.8 <a a - 1>, y 0.64 <a x - 2>"; r != want {
		t.Errorf("Expand = %s, want %s", r, want)
	}
}

func TestExpandErrors(t *testing.T) {
	boom := errors.New("boom")
	failing := func(id string) (out, in []fusion.Edge, err error) {
		if id == "c" {
			return nil, nil, boom
		}
		return edges("a>c").neighbors(nil, false)(id)
	}
	if _, err := fusion.Expand(hits("a=1"), failing, fusion.ExpandOptions{Depth: 2}); !errors.Is(err, boom) || !strings.Contains(err.Error(), `"c"`) {
		t.Errorf("neighbors error: got %v", err)
	}
	admit := func(string) (bool, error) { return false, boom }
	if _, err := fusion.Expand(hits("a=1"), edges("a>c").neighbors(nil, false), fusion.ExpandOptions{Admit: admit}); !errors.Is(err, boom) {
		t.Errorf("Admit error: got %v", err)
	}
}

func TestExpandDoesNotModifyInput(t *testing.T) {
	in := hits("b=0.1", "a=1")
	in[0].Legs = []fusion.LegRank{{Leg: "text", Rank: 2}}
	before := fmt.Sprint(in)
	got, err := fusion.Expand(in, edges("a>b", "a>c").neighbors(nil, false), fusion.ExpandOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after := fmt.Sprint(in); after != before {
		t.Errorf("input modified: %s -> %s", before, after)
	}
	if r, want := render(got), "a 1, b 0.8 <a a - 1>, c 0.8 <a a - 1>"; r != want {
		t.Errorf("Expand = %s, want %s", r, want)
	}
	if got[1].Legs == nil {
		t.Errorf("lifted hit lost its legs")
	}
}
