package fusion_test

import (
	"math"
	"testing"

	"github.com/twindex/twindex/fusion"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		hits []fusion.Hit
		want string
	}{
		{"no hits", nil, ""},
		{
			name: "raw RRF scores: best becomes 1",
			hits: fusion.RRF([]fusion.List{
				{Leg: "text", IDs: []string{"a", "b"}},
				{Leg: "trigram", IDs: []string{"b", "c"}},
			}, fusion.Options{}),
			want: "b 1, a 0.5041, c 0.4959",
		},
		{"unsorted input keeps its order", hits("b=2", "a=8", "c=4"), "b 0.25, a 1, c 0.5"},
		{"a single hit", hits("a=0.016"), "a 1"},
		{"all zero", hits("a=0", "b=0"), "a 0, b 0"},
		{"negative and NaN become 0", hits("a=2", "b=-1", "c=NaN"), "a 1, b 0, c 0"},
		{"only negative", hits("a=-1", "b=-2"), "a 0, b 0"},
		{"+Inf becomes 1, beside the best finite score", hits("a=+Inf", "b=4", "c=1"), "a 1, b 1, c 0.25"},
		{"-Inf becomes 0", hits("a=1", "b=-Inf"), "a 1, b 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fusion.Normalize(tt.hits)
			if r := render(got); r != tt.want {
				t.Errorf("Normalize = %s, want %s", r, tt.want)
			}
			for _, h := range got {
				if !(h.Score >= 0 && h.Score <= 1) {
					t.Errorf("%s: score %v out of [0, 1]", h.ID, h.Score)
				}
			}
		})
	}
}

func TestNormalizeDoesNotModifyInput(t *testing.T) {
	in := hits("a=0.02", "b=0.01")
	fusion.Normalize(in)
	if in[0].Score != 0.02 || in[1].Score != 0.01 {
		t.Errorf("input modified: %v", in)
	}
}

// TestNormalizeThenExpand checks the pipeline the package doc recommends:
// on the normalized scale, expanded scores stay in [0, 1].
func TestNormalizeThenExpand(t *testing.T) {
	fused := fusion.RRF([]fusion.List{{Leg: "text", IDs: []string{"a", "b"}}}, fusion.Options{})
	got, err := fusion.Expand(fusion.Normalize(fused), edges("a>c", "b>d").neighbors(nil, false), fusion.ExpandOptions{MinScore: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if r, want := render(got), "a 1, b 0.9839, c 0.8 <a a - 1>, d 0.7871 <b b - 1>"; r != want {
		t.Errorf("got %s, want %s", r, want)
	}
	for _, h := range got {
		if h.Score < 0 || h.Score > 1 || math.IsNaN(h.Score) {
			t.Errorf("%s: score %v out of [0, 1]", h.ID, h.Score)
		}
	}
}
