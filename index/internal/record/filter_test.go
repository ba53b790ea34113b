package record

import (
	"testing"
	"time"
)

func TestFilter(t *testing.T) {
	t0 := time.Date(2025, 1, 5, 0, 0, 0, 0, time.UTC)
	h := &Header{Kind: "go", Project: "net", Role: "user", Tags: []string{"a", "b"}, Time: t0}
	for _, tc := range []struct {
		name   string
		f      Filter
		active bool
		want   bool
	}{
		{"none", NewFilter(nil, nil, nil, "", time.Time{}, time.Time{}), false, true},
		{"kind", NewFilter([]string{"md", "go"}, nil, nil, "", time.Time{}, time.Time{}), true, true},
		{"other kind", NewFilter([]string{"md"}, nil, nil, "", time.Time{}, time.Time{}), true, false},
		{"project", NewFilter(nil, []string{"io"}, nil, "", time.Time{}, time.Time{}), true, false},
		{"role", NewFilter(nil, nil, nil, "assistant", time.Time{}, time.Time{}), true, false},
		{"one of the tags", NewFilter(nil, nil, []string{"z", "b"}, "", time.Time{}, time.Time{}), true, true},
		{"since, inclusive", NewFilter(nil, nil, nil, "", t0, time.Time{}), true, true},
		{"until, exclusive", NewFilter(nil, nil, nil, "", time.Time{}, t0), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.Active(); got != tc.active {
				t.Errorf("Active = %v, want %v", got, tc.active)
			}
			if got := tc.f.Match(h); got != tc.want {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
	timeless := NewFilter(nil, nil, nil, "", t0.Add(-time.Hour), time.Time{})
	if timeless.Match(&Header{}) {
		t.Error("a header without a time passes a time bound")
	}
}
