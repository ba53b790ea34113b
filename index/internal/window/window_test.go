package window_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index/internal/window"
	"github.com/twindex/twindex/tokenize"
)

// TestFind pins the windows of a phrase: the word with the longest
// prefixes is looked for, only where a token can start, with as many
// words around it as the phrase has; overlapping windows join.
func TestFind(t *testing.T) {
	text := tokenize.NewText()
	// "for range v": the prefixes of "rang" (ran) are the longest.
	st := window.New(text, []window.Word{{0, []string{"for"}}, {1, []string{"rang"}}, {2, []string{"v"}}})
	if st == nil {
		t.Fatal("no starts")
	}
	// Padded: windows that hold half the text are not worth finding.
	s := strings.Repeat("q ", 40) + "x for range v y; errant w forRange z; for ranges a b c d for range"
	folded, offsets := tokenize.FoldMap(s)
	got, ok := st.Find(s, folded, offsets)
	// "errant" holds "ran" where no token starts.
	want := [][2]int{{82, 93}, {104, 116}, {118, 130}, {137, 146}} // "for range v", "w forRange z", "for ranges a", "d for range"
	if !ok || !slices.Equal(got, want) {
		t.Fatalf("Find = %v %v, want %v", got, ok, want)
	}
	folded, _, upper := tokenize.FoldCase([]byte(s))
	if plain, ok := st.FindPlain(folded, upper); !ok || !slices.Equal(plain, want) {
		t.Fatalf("FindPlain = %v %v, want %v", plain, ok, want)
	}
	dense := strings.Repeat("for range v x y z ", 40)
	if _, ok := st.Find(dense, dense, nil); ok {
		t.Error("Find found windows that hold most of the text")
	}
	dense = strings.Repeat("Range ", 40)
	if _, ok := st.Find(dense, strings.ToLower(dense), nil); ok {
		t.Error("Find found windows where the prefix starts every six bytes")
	}
	if st := window.New(text, []window.Word{{0, []string{"t"}}, {1, []string{"x"}}}); st != nil {
		t.Error("starts for words of one letter")
	}
	fr, _ := tokenize.NewTextLang("fr")
	if st := window.New(fr, []window.Word{{0, []string{"maison"}}, {1, []string{"blanch"}}}); st != nil {
		t.Error("starts in a language whose prefixes it cannot tell")
	}
}

func TestMerge(t *testing.T) {
	got := window.Merge([][2]int{{10, 20}, {0, 5}, {5, 8}, {15, 30}, {40, 41}})
	if want := [][2]int{{0, 8}, {10, 30}, {40, 41}}; !slices.Equal(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
}
