package fusion_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twindex/twindex/fusion"
)

func TestPage(t *testing.T) {
	items := []int{0, 1, 2, 3, 4}
	next := func(n int) *int { return &n }
	tests := []struct {
		name          string
		items         []int
		offset, limit int
		want          []int
		next          *int
	}{
		{"first page", items, 0, 2, []int{0, 1}, next(2)},
		{"middle page", items, 2, 2, []int{2, 3}, next(4)},
		{"last partial page", items, 4, 2, []int{4}, nil},
		{"exact last page", items, 3, 2, []int{3, 4}, nil},
		{"limit covers all", items, 0, 5, items, nil},
		{"limit beyond end", items, 1, 100, []int{1, 2, 3, 4}, nil},
		{"offset at end", items, 5, 2, []int{}, nil},
		{"offset beyond end", items, 9, 2, []int{}, nil},
		{"negative offset", items, -3, 2, []int{0, 1}, next(2)},
		{"zero limit means rest", items, 1, 0, []int{1, 2, 3, 4}, nil},
		{"negative limit means rest", items, 3, -1, []int{3, 4}, nil},
		{"nil items", nil, 0, 10, []int{}, nil},
		{"huge limit", items, 2, int(^uint(0) >> 1), []int{2, 3, 4}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, nxt := fusion.Page(tt.items, tt.offset, tt.limit)
			if !slices.Equal(page, tt.want) {
				t.Errorf("page = %v, want %v", page, tt.want)
			}
			if fmt.Sprint(deref(nxt)) != fmt.Sprint(deref(tt.next)) {
				t.Errorf("next = %v, want %v", deref(nxt), deref(tt.next))
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestPageAppendDoesNotClobber(t *testing.T) {
	items := []int{0, 1, 2, 3}
	page, _ := fusion.Page(items, 0, 2)
	_ = append(page, 99)
	if items[2] != 2 {
		t.Errorf("append to page overwrote items: %v", items)
	}
}

// TestPageStable walks every page size over lists of every length and checks
// that the pages concatenate to the whole list with no gaps or repeats.
func TestPageStable(t *testing.T) {
	for n := range 12 {
		items := make([]int, n)
		for i := range items {
			items[i] = i
		}
		for limit := 1; limit <= n+2; limit++ {
			var all []int
			pages := 0
			for off := 0; ; {
				page, next := fusion.Page(items, off, limit)
				all = append(all, page...)
				pages++
				if next == nil {
					break
				}
				if *next <= off || len(page) != limit {
					t.Fatalf("n=%d limit=%d: next %d after offset %d, page %v", n, limit, *next, off, page)
				}
				off = *next
			}
			if !slices.Equal(all, items) {
				t.Fatalf("n=%d limit=%d: pages joined to %v", n, limit, all)
			}
			if want := max(1, (n+limit-1)/limit); pages != want {
				t.Fatalf("n=%d limit=%d: %d pages, want %d", n, limit, pages, want)
			}
		}
	}
}
