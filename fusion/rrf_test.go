package fusion_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/twindex/twindex/fusion"
)

// rrfScore is the score one leg contributes at rank r.
func rrfScore(w float64, k, r int) float64 { return w / float64(k+r) }

func TestRRF(t *testing.T) {
	tests := []struct {
		name  string
		lists []fusion.List
		opts  fusion.Options
		want  []fusion.Hit
	}{
		{
			name:  "no lists",
			lists: nil,
			want:  []fusion.Hit{},
		},
		{
			name:  "empty lists",
			lists: []fusion.List{{Leg: "text"}, {Leg: "trigram", IDs: []string{}}},
			want:  []fusion.Hit{},
		},
		{
			name:  "single list keeps order",
			lists: []fusion.List{{Leg: "text", IDs: []string{"c", "a", "b"}, Scores: []float64{3, 2, 1}}},
			want: []fusion.Hit{
				{ID: "c", Score: rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1, Score: 3}}},
				{ID: "a", Score: rrfScore(1, 60, 2), Legs: []fusion.LegRank{{Leg: "text", Rank: 2, Score: 2}}},
				{ID: "b", Score: rrfScore(1, 60, 3), Legs: []fusion.LegRank{{Leg: "text", Rank: 3, Score: 1}}},
			},
		},
		{
			name: "overlap sums and legs in list order",
			lists: []fusion.List{
				{Leg: "text", IDs: []string{"a", "b"}, Scores: []float64{9, 8}},
				{Leg: "trigram", IDs: []string{"b", "c"}},
			},
			want: []fusion.Hit{
				{ID: "b", Score: rrfScore(1, 60, 2) + rrfScore(1, 60, 1), Legs: []fusion.LegRank{
					{Leg: "text", Rank: 2, Score: 8}, {Leg: "trigram", Rank: 1}}},
				{ID: "a", Score: rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1, Score: 9}}},
				{ID: "c", Score: rrfScore(1, 60, 2), Legs: []fusion.LegRank{{Leg: "trigram", Rank: 2}}},
			},
		},
		{
			name: "legs follow list order even when first seen later",
			lists: []fusion.List{
				{Leg: "x", IDs: []string{"a"}},
				{Leg: "y", IDs: []string{"b"}},
				{Leg: "z", IDs: []string{"b", "a"}},
			},
			want: []fusion.Hit{
				{ID: "b", Score: rrfScore(1, 60, 1) + rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "y", Rank: 1}, {Leg: "z", Rank: 1}}},
				{ID: "a", Score: rrfScore(1, 60, 1) + rrfScore(1, 60, 2), Legs: []fusion.LegRank{{Leg: "x", Rank: 1}, {Leg: "z", Rank: 2}}},
			},
		},
		{
			name: "weights",
			lists: []fusion.List{
				{Leg: "text", IDs: []string{"a"}},
				{Leg: "trigram", IDs: []string{"b"}},
			},
			opts: fusion.Options{Weights: map[string]float64{"trigram": 2}},
			want: []fusion.Hit{
				{ID: "b", Score: rrfScore(2, 60, 1), Legs: []fusion.LegRank{{Leg: "trigram", Rank: 1}}},
				{ID: "a", Score: rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1}}},
			},
		},
		{
			name: "zero and non-finite weights",
			lists: []fusion.List{
				{Leg: "zero", IDs: []string{"z"}},
				{Leg: "nan", IDs: []string{"n"}},
				{Leg: "inf", IDs: []string{"i"}},
				{Leg: "one", IDs: []string{"o"}},
			},
			opts: fusion.Options{Weights: map[string]float64{"zero": 0, "nan": math.NaN(), "inf": math.Inf(1)}},
			want: []fusion.Hit{
				{ID: "o", Score: rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "one", Rank: 1}}},
				{ID: "i", Score: 0, Legs: []fusion.LegRank{{Leg: "inf", Rank: 1}}},
				{ID: "n", Score: 0, Legs: []fusion.LegRank{{Leg: "nan", Rank: 1}}},
				{ID: "z", Score: 0, Legs: []fusion.LegRank{{Leg: "zero", Rank: 1}}},
			},
		},
		{
			name: "ties broken by ID bytes",
			lists: []fusion.List{
				{Leg: "text", IDs: []string{"b", "a"}},
				{Leg: "trigram", IDs: []string{"a", "b", "Z", "é"}},
			},
			want: []fusion.Hit{
				{ID: "a", Score: rrfScore(1, 60, 2) + rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 2}, {Leg: "trigram", Rank: 1}}},
				{ID: "b", Score: rrfScore(1, 60, 1) + rrfScore(1, 60, 2), Legs: []fusion.LegRank{{Leg: "text", Rank: 1}, {Leg: "trigram", Rank: 2}}},
				{ID: "Z", Score: rrfScore(1, 60, 3), Legs: []fusion.LegRank{{Leg: "trigram", Rank: 3}}},
				{ID: "é", Score: rrfScore(1, 60, 4), Legs: []fusion.LegRank{{Leg: "trigram", Rank: 4}}},
			},
		},
		{
			name:  "custom K",
			lists: []fusion.List{{Leg: "text", IDs: []string{"a"}}},
			opts:  fusion.Options{K: 1},
			want:  []fusion.Hit{{ID: "a", Score: 0.5, Legs: []fusion.LegRank{{Leg: "text", Rank: 1}}}},
		},
		{
			name:  "negative K means default",
			lists: []fusion.List{{Leg: "text", IDs: []string{"a"}}},
			opts:  fusion.Options{K: -5},
			want:  []fusion.Hit{{ID: "a", Score: rrfScore(1, fusion.DefaultK, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1}}}},
		},
		{
			name:  "duplicate ID counts at best rank once",
			lists: []fusion.List{{Leg: "text", IDs: []string{"a", "b", "a"}, Scores: []float64{5, 4, 3}}},
			want: []fusion.Hit{
				{ID: "a", Score: rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1, Score: 5}}},
				{ID: "b", Score: rrfScore(1, 60, 2), Legs: []fusion.LegRank{{Leg: "text", Rank: 2, Score: 4}}},
			},
		},
		{
			name: "same leg name twice counts twice",
			lists: []fusion.List{
				{Leg: "text", IDs: []string{"a"}},
				{Leg: "text", IDs: []string{"a"}},
			},
			want: []fusion.Hit{{ID: "a", Score: 2 * rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1}, {Leg: "text", Rank: 1}}}},
		},
		{
			name:  "short scores",
			lists: []fusion.List{{Leg: "text", IDs: []string{"a", "b"}, Scores: []float64{7}}},
			want: []fusion.Hit{
				{ID: "a", Score: rrfScore(1, 60, 1), Legs: []fusion.LegRank{{Leg: "text", Rank: 1, Score: 7}}},
				{ID: "b", Score: rrfScore(1, 60, 2), Legs: []fusion.LegRank{{Leg: "text", Rank: 2}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fusion.RRF(tt.lists, tt.opts)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("RRF =\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

func TestRRFDoesNotModifyInput(t *testing.T) {
	lists := []fusion.List{{Leg: "a", IDs: []string{"x", "y", "x"}, Scores: []float64{1, 2, 3}}}
	fusion.RRF(lists, fusion.Options{})
	if !slices.Equal(lists[0].IDs, []string{"x", "y", "x"}) || !slices.Equal(lists[0].Scores, []float64{1, 2, 3}) {
		t.Errorf("input modified: %v", lists)
	}
}

// TestRRFProperties checks on random inputs that the output is a permutation
// of the union of input IDs, sorted by score then ID, with consistent legs.
func TestRRFProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 500 {
		nLists := rng.IntN(4)
		lists := make([]fusion.List, nLists)
		union := map[string]bool{}
		for i := range lists {
			lists[i].Leg = "leg" + strconv.Itoa(i)
			for range rng.IntN(30) {
				id := strconv.Itoa(rng.IntN(40))
				lists[i].IDs = append(lists[i].IDs, id)
				union[id] = true
			}
		}
		opts := fusion.Options{K: rng.IntN(5), Weights: map[string]float64{"leg0": rng.Float64() * 3}}
		hits := fusion.RRF(lists, opts)

		if len(hits) != len(union) {
			t.Fatalf("iter %d: %d hits for %d distinct IDs", iter, len(hits), len(union))
		}
		seen := map[string]bool{}
		for i, h := range hits {
			if !union[h.ID] || seen[h.ID] {
				t.Fatalf("iter %d: hit %q unknown or repeated", iter, h.ID)
			}
			seen[h.ID] = true
			if i > 0 {
				p := hits[i-1]
				if p.Score < h.Score || (p.Score == h.Score && p.ID >= h.ID) {
					t.Fatalf("iter %d: hits %d and %d out of order: %v, %v", iter, i-1, i, p, h)
				}
			}
			for j, lr := range h.Legs {
				li, _ := strconv.Atoi(lr.Leg[3:])
				if lists[li].IDs[lr.Rank-1] != h.ID || slices.Index(lists[li].IDs, h.ID) != lr.Rank-1 {
					t.Fatalf("iter %d: hit %q leg %v is not its first rank", iter, h.ID, lr)
				}
				if j > 0 && h.Legs[j-1].Leg >= lr.Leg {
					t.Fatalf("iter %d: hit %q legs out of list order: %v", iter, h.ID, h.Legs)
				}
			}
		}
	}
}

func BenchmarkRRF(b *testing.B) {
	const n = 10_000
	text := fusion.List{Leg: "text", IDs: make([]string, n), Scores: make([]float64, n)}
	tri := fusion.List{Leg: "trigram", IDs: make([]string, n), Scores: make([]float64, n)}
	for i := range n {
		text.IDs[i] = "doc" + strconv.Itoa(i)
		text.Scores[i] = float64(n - i)
		tri.IDs[i] = "doc" + strconv.Itoa(i*7%(2*n)) // about half overlap, shuffled
		tri.Scores[i] = float64(n - i)
	}
	lists := []fusion.List{text, tri}
	b.ReportAllocs()
	for b.Loop() {
		fusion.RRF(lists, fusion.Options{})
	}
}

func TestRRFLegsAreIndependent(t *testing.T) {
	hits := fusion.RRF([]fusion.List{
		{Leg: "a", IDs: []string{"x", "y"}},
		{Leg: "b", IDs: []string{"x"}},
	}, fusion.Options{})
	before := fmt.Sprint(hits[1].Legs)
	hits[0].Legs = append(hits[0].Legs, fusion.LegRank{Leg: "extra"})
	if after := fmt.Sprint(hits[1].Legs); after != before {
		t.Errorf("appending to one hit's Legs changed another: %s -> %s", before, after)
	}
}

func TestRRFTiesShareRank(t *testing.T) {
	lists := []fusion.List{
		{Leg: "a", IDs: []string{"x", "y", "z", "w"}, Scores: []float64{3, 2, 2, 1}},
		{Leg: "b", IDs: []string{"w"}, Scores: []float64{9}},
	}
	got := fusion.RRF(lists, fusion.Options{TiesShareRank: true})
	want := map[string]float64{"x": 1.0 / 61, "y": 1.0 / 62, "z": 1.0 / 62, "w": 1.0/64 + 1.0/61}
	for _, h := range got {
		if math.Abs(h.Score-want[h.ID]) > 1e-12 {
			t.Errorf("%s: score %v, want %v", h.ID, h.Score, want[h.ID])
		}
	}
	var order []string
	for _, h := range got {
		order = append(order, h.ID)
	}
	if fmt.Sprint(order) != "[w x y z]" {
		t.Errorf("order %v, want [w x y z]", order)
	}
	if got[3].Legs[0].Rank != 2 {
		t.Errorf("z's rank %d, want 2 (tied with y)", got[3].Legs[0].Rank)
	}
}

func TestRanks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []float64
		want   []int
	}{
		{"empty", nil, []int{}},
		{"distinct", []float64{3, 2, 1}, []int{1, 2, 3}},
		{"ties share the first rank", []float64{5, 4, 4, 4, 1}, []int{1, 2, 2, 2, 5}},
		{"all tied", []float64{1, 1}, []int{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fusion.Ranks(tc.scores); !slices.Equal(got, tc.want) {
				t.Errorf("Ranks(%v) = %v, want %v", tc.scores, got, tc.want)
			}
		})
	}
}
