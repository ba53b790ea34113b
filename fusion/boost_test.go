package fusion_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/fusion"
)

func TestApplyBoost(t *testing.T) {
	now := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	docs := map[string]fusion.Attrs{
		"web":     {Project: "web", Time: now.Add(-30 * day)},
		"cli":     {Project: "cli", Session: "s1", Time: now},
		"both":    {Project: "web", Session: "s1", Time: now.Add(-7 * day)},
		"none":    {},
		"future":  {Project: "cli", Time: now.Add(day)},
		"session": {Session: "s1", Time: now.Add(-7 * day)},
	}
	in := hits("none=1", "cli=0.9", "session=0.8", "web=0.7", "both=0.55", "future=0.5")
	tests := []struct {
		name  string
		boost fusion.Boost
		want  string // "id score [project session recency]", factors when not all 1
		asks  bool   // whether attrs is called
	}{
		{
			name: "none",
			want: "none 1, cli 0.9, session 0.8, web 0.7, both 0.55, future 0.5",
		},
		{
			name:  "factors alone boost nothing",
			boost: fusion.Boost{ProjectFactor: 3, SessionFactor: 3, RecencyFactor: 3},
			want:  "none 1, cli 0.9, session 0.8, web 0.7, both 0.55, future 0.5",
		},
		{
			name:  "project",
			boost: fusion.Boost{Project: "web"},
			want:  "web 1.05 [1.5 1 1], none 1, cli 0.9, both 0.825 [1.5 1 1], session 0.8, future 0.5",
			asks:  true,
		},
		{
			name:  "session",
			boost: fusion.Boost{Session: "s1"},
			want:  "cli 1.08 [1 1.2 1], none 1, session 0.96 [1 1.2 1], web 0.7, both 0.66 [1 1.2 1], future 0.5",
			asks:  true,
		},
		{
			name:  "project and session",
			boost: fusion.Boost{Project: "web", Session: "s1"},
			want:  "cli 1.08 [1 1.2 1], web 1.05 [1.5 1 1], none 1, both 0.99 [1.5 1.2 1], session 0.96 [1 1.2 1], future 0.5",
			asks:  true,
		},
		{
			name:  "custom factors",
			boost: fusion.Boost{Project: "cli", ProjectFactor: 2, Session: "s1", SessionFactor: 0.5},
			want:  "future 1 [2 1 1], none 1, cli 0.9 [2 0.5 1], web 0.7, session 0.4 [1 0.5 1], both 0.275 [1 0.5 1]",
			asks:  true,
		},
		{
			name:  "invalid factors mean defaults",
			boost: fusion.Boost{Project: "web", ProjectFactor: -1, Session: "s1", SessionFactor: math.NaN()},
			want:  "cli 1.08 [1 1.2 1], web 1.05 [1.5 1 1], none 1, both 0.99 [1.5 1.2 1], session 0.96 [1 1.2 1], future 0.5",
			asks:  true,
		},
		{
			name:  "unknown project and session match nothing",
			boost: fusion.Boost{Project: "nope", Session: "nope"},
			want:  "none 1, cli 0.9, session 0.8, web 0.7, both 0.55, future 0.5",
			asks:  true,
		},
		{
			name: "recency",
			// A week is one half-life: half of the default 0.2 boost.
			boost: fusion.Boost{HalfLife: 7 * day, Now: now},
			want:  "cli 1.08 [1 1 1.2], none 1, session 0.88 [1 1 1.1], web 0.7072 [1 1 1.01], both 0.605 [1 1 1.1], future 0.6 [1 1 1.2]",
			asks:  true,
		},
		{
			name:  "recency with a factor",
			boost: fusion.Boost{HalfLife: 7 * day, Now: now, RecencyFactor: 2},
			want:  "cli 1.8 [1 1 2], session 1.2 [1 1 1.5], future 1 [1 1 2], none 1, both 0.825 [1 1 1.5], web 0.7359 [1 1 1.051]",
			asks:  true,
		},
		{
			name:  "recency off without Now",
			boost: fusion.Boost{HalfLife: 7 * day},
			want:  "none 1, cli 0.9, session 0.8, web 0.7, both 0.55, future 0.5",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked := 0
			attrs := func(id string) (fusion.Attrs, error) {
				asked++
				return docs[id], nil
			}
			got, err := fusion.ApplyBoost(in, tt.boost, attrs)
			if err != nil {
				t.Fatal(err)
			}
			if r := renderBoost(got); r != tt.want {
				t.Errorf("ApplyBoost =\n%s\nwant\n%s", r, tt.want)
			}
			if tt.asks != (asked > 0) || asked > 0 && asked != len(in) {
				t.Errorf("attrs called %d times for %d hits", asked, len(in))
			}
			for _, h := range got {
				if b := h.Boosted; b == nil || b.Base*b.Factor() != h.Score {
					t.Errorf("%s: Boosted %+v does not explain score %v", h.ID, b, h.Score)
				}
			}
		})
	}
}

// renderBoost shows hits as "id score" with " [project session recency]"
// when a factor is not 1, to 4 significant digits.
func renderBoost(hits []fusion.Hit) string {
	var b strings.Builder
	for i, h := range hits {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.4g", h.ID, h.Score)
		if f := h.Boosted; f != nil && (f.Project != 1 || f.Session != 1 || f.Recency != 1) {
			fmt.Fprintf(&b, " [%.4g %.4g %.4g]", f.Project, f.Session, f.Recency)
		}
	}
	return b.String()
}

func TestApplyBoostTiesByID(t *testing.T) {
	attrs := func(id string) (fusion.Attrs, error) { return fusion.Attrs{Project: id[:1]}, nil }
	got, err := fusion.ApplyBoost(hits("b1=1.5", "a2=1", "a1=1"), fusion.Boost{Project: "a"}, attrs)
	if err != nil {
		t.Fatal(err)
	}
	if r, want := renderBoost(got), "a1 1.5 [1.5 1 1], a2 1.5 [1.5 1 1], b1 1.5"; r != want {
		t.Errorf("ApplyBoost = %s, want %s", r, want)
	}
}

func TestApplyBoostError(t *testing.T) {
	boom := errors.New("boom")
	attrs := func(string) (fusion.Attrs, error) { return fusion.Attrs{}, boom }
	if _, err := fusion.ApplyBoost(hits("a=1"), fusion.Boost{Project: "p"}, attrs); !errors.Is(err, boom) {
		t.Errorf("got %v, want %v", err, boom)
	}
}

func TestApplyBoostDoesNotModifyInput(t *testing.T) {
	in := hits("a=1", "b=0.9")
	attrs := func(id string) (fusion.Attrs, error) { return fusion.Attrs{Project: id}, nil }
	got, err := fusion.ApplyBoost(in, fusion.Boost{Project: "b"}, attrs)
	if err != nil {
		t.Fatal(err)
	}
	if in[0].Score != 1 || in[1].Score != 0.9 || in[0].Boosted != nil {
		t.Errorf("input modified: %v", in)
	}
	if got[0].ID != "b" {
		t.Errorf("boosted b not first: %s", renderBoost(got))
	}
}
