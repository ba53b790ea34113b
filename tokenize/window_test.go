package tokenize_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/tokenize"
)

// TestTermPrefix checks that every English word, folded, starts with
// TermPrefix of its term: the words of the golden corpus, and words made
// of stems and each suffix that a Porter2 rule rewrites, with the
// exceptions the rules list (dying, skies, generously). The other
// languages cannot tell.
func TestTermPrefix(t *testing.T) {
	text := tokenize.NewText()
	roots := strings.Fields("possi abil respons relat organ happ gener commun arsen d l t sk cr hop fil read us ag ev sens nat cond activ vari cap tri fl b x oper form hope run")
	suffixes := strings.Fields("s es ies ied ied' 's ed ing ingly edly eed eedly ly y ational tional ization ation ator alism aliti ality iveness fulness ousness ousli ously bility bly ably abli enci ency anci ancy ogy ogi fully fulli lessly lessli entli ently alli ally izer ement ment ent ism ate iti ous ive ize ion sion tion ical icate iciti icity ative alize ness ful er ic able ible ant ance ence al e ll")
	words := strings.Fields("dying lying tying skis skies idly gently ugly early only singly news howe atlas cosmos bias andes inning outing canning herring earring proceed exceed succeed generously communication arsenal possibility possible possibly abilities")
	for _, r := range roots {
		words = append(words, r)
		for _, s := range suffixes {
			words = append(words, r+s, r+s+"s", r+s+"ed", r+s+"ly")
		}
	}
	f, err := os.Open("../testdata/golden/docs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var d struct{ Title, Body string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		words = append(words, strings.FieldsFunc(d.Title+" "+d.Body, func(r rune) bool { return r < 'A' || r > 'z' || r > 'Z' && r < 'a' })...)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, w := range words {
		for _, tok := range text.Analyze([]byte(w)) {
			prefix, ok := text.TermPrefix(string(tok.Term))
			if !ok {
				t.Fatalf("TermPrefix(%q): English cannot tell", tok.Term)
			}
			if word := tokenize.Fold(w[tok.Start:tok.End]); !strings.HasPrefix(word, prefix) {
				t.Errorf("%q: term %q, TermPrefix %q", word, tok.Term, prefix)
			}
			checked++
		}
	}
	if checked < 5000 {
		t.Fatalf("checked %d words", checked)
	}
	for _, lang := range tokenize.Langs() {
		if lang == tokenize.English {
			continue
		}
		other, _ := tokenize.NewTextLang(lang)
		if _, ok := other.TermPrefix("possibl"); ok {
			t.Errorf("%s: TermPrefix tells", lang)
		}
	}
}

// TestRunWindow pins windows: whole runs, counted before and after, a
// run with no letter or digit not counted, connectors inside runs.
func TestRunWindow(t *testing.T) {
	const text = "func (t *T) os.ReadFile -- x_y, z"
	for _, tc := range []struct {
		at, before, after int
		want              string
	}{
		{strings.Index(text, "ReadFile"), 0, 0, "os.ReadFile"},
		{strings.Index(text, "File"), 0, 0, "os.ReadFile"},
		{strings.Index(text, "ReadFile"), 1, 0, "T) os.ReadFile"},
		{strings.Index(text, "ReadFile"), 0, 1, "os.ReadFile -- x_y"},
		{strings.Index(text, "ReadFile"), 3, 2, "func (t *T) os.ReadFile -- x_y, z"},
		{0, 5, 0, "func"},
		{len(text) - 1, 0, 5, "z"},
	} {
		lo, hi := tokenize.RunWindow(text, tc.at, tc.before, tc.after)
		if got := text[lo:hi]; got != tc.want {
			t.Errorf("RunWindow(%d, %d, %d) = %q, want %q", tc.at, tc.before, tc.after, got, tc.want)
		}
	}
}

// TestPositionsIn checks that spans are read each on its own and apart.
func TestPositionsIn(t *testing.T) {
	text := tokenize.NewText()
	in := "read file now. read the file"
	got := text.PositionsIn(in, [][2]int{{0, 9}, {15, 28}}, []string{"read", "file"})
	want := [][]int{{1, tokenize.SpanGap + 1}, {2, tokenize.SpanGap + 3}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("PositionsIn = %v, want %v", got, want)
	}
}

// Stops are the words Analyze drops, where it drops them, and Positions
// finds them there: the phrase "of the file" holds its stop words.
func TestStops(t *testing.T) {
	text := tokenize.NewText()
	in := "Of THE file: to be or not to be, the_file"
	var got []string
	for _, tok := range text.Stops([]byte(in)) {
		got = append(got, fmt.Sprintf("%s@%d:%s", tok.Term, tok.Position, in[tok.Start:tok.End]))
	}
	// "the_file" is kept whole as a compound; its part "the" is dropped.
	want := []string{"of@1:Of", "the@2:THE", "to@4:to", "be@5:be", "or@6:or", "to@8:to", "be@9:be", "the@10:the"}
	if !slices.Equal(got, want) {
		t.Fatalf("Stops = %q, want %q", got, want)
	}
	pos := text.Positions([]byte(in), []string{"the", "file", "not"})
	if wantPos := [][]int{{2, 10}, {3, 11}, {7}}; !slices.EqualFunc(pos, wantPos, slices.Equal) {
		t.Fatalf("Positions = %v, want %v", pos, wantPos)
	}
	fr, ok := tokenize.NewTextLang("fr")
	if !ok {
		t.Fatal("no French analyzer")
	}
	var fgot []string
	for _, tok := range fr.Stops([]byte("Le chat à la maison")) {
		fgot = append(fgot, fmt.Sprintf("%s@%d", tok.Term, tok.Position))
	}
	if fwant := []string{"le@1", "a@3", "la@4"}; !slices.Equal(fgot, fwant) {
		t.Fatalf("French Stops = %q, want %q", fgot, fwant)
	}
}
