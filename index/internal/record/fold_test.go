package record

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/twindex/twindex/index/internal/find"
	"github.com/twindex/twindex/tokenize"
)

func TestCaseMask(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		restorable bool
	}{
		{"empty", "", true},
		{"lower", "func main() {}", true},
		{"camel", "getUserByID(XMLParser)", true},
		{"long", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 across a word boundary of 64 bytes and more", true},
		{"unchanged non-ASCII", "naïve → ok", false},
		{"upper non-ASCII", "Ünïcode", false},
		{"Kelvin sign", "\u212a", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			folded, _, m, changed := tokenize.FoldCase([]byte(tc.text))
			if got := changed == nil; got != tc.restorable {
				t.Fatalf("FoldCase(%q) restorable = %v, want %v", tc.text, got, tc.restorable)
			}
			if changed == nil {
				if got := restoreCase(folded, m); got != tc.text {
					t.Fatalf("restoreCase = %q, want %q", got, tc.text)
				}
			}
		})
	}
}

// FuzzCaseMask checks that a text restored from its folded form and case
// mask is the text itself: snippets are rendered from the restored text.
func FuzzCaseMask(f *testing.F) {
	for _, s := range []string{"", "Hello, World", "getUserByID", "naïve Ünïcode", "\u212a\u0130ſ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if folded, _, m, changed := tokenize.FoldCase([]byte(text)); changed == nil {
			if got := restoreCase(folded, m); got != text {
				t.Fatalf("restoreCase(Fold(%q)) = %q", text, got)
			}
		}
	})
}

// TestFoldCacheKeepsNoMaps checks that the cache keeps an entry without
// the maps folding needed, counts it without them, and that WithMaps
// gives back what folding the record gives.
func TestFoldCacheKeepsNoMaps(t *testing.T) {
	title, body := []byte("Café"), []byte("naïve Ångström, and ASCII")
	c := NewFoldCache(1 << 20)
	loads := 0
	load := func() (Text, error) { loads++; return NewText(title, body), nil }
	first, err := c.Get("d", 7, load)
	if err != nil {
		t.Fatal(err)
	}
	if first.mapless || first.TitleMap == nil || first.BodyMap == nil {
		t.Fatalf("the loading caller's entry lacks its maps: %+v", first)
	}
	again, err := c.Get("d", 7, load)
	if err != nil {
		t.Fatal(err)
	}
	if loads != 1 || !again.mapless || again.TitleMap != nil || again.BodyMap != nil {
		t.Fatalf("cached entry: %d loads, %+v", loads, again)
	}
	if c.bytes != again.size() || again.size() >= first.size() {
		t.Errorf("cache counts %d bytes, the entry is %d, with maps %d", c.bytes, again.size(), first.size())
	}
	restored := again.WithMaps(string(title), string(body))
	if !reflect.DeepEqual(restored, first) {
		t.Errorf("WithMaps gives %+v, want %+v", restored, first)
	}
	if plain, _ := c.Get("p", 1, func() (Text, error) { return NewText([]byte("ASCII"), []byte("only")), nil }); plain.mapless {
		t.Error("an entry that needs no maps is marked mapless")
	}
}

// Room tells whether a text's fold fits beside the entries held, none
// evicted, so that a full cache's callers fold elsewhere.
func TestFoldCacheRoom(t *testing.T) {
	text := []byte(strings.Repeat("ASCII text ", 30)) // 330 bytes
	c := NewFoldCache(1000)
	if !c.Room(len(text)) || c.Room(1000) {
		t.Fatalf("empty cache of 1000 bytes: room for %d %v, for 1000 %v", len(text), c.Room(len(text)), c.Room(1000))
	}
	c.Get("a", 1, func() (Text, error) { return NewText(nil, text), nil })
	if !c.Room(len(text)) {
		t.Fatalf("%d of 1000 bytes held: no room for another %d", c.bytes, len(text))
	}
	c.Get("b", 1, func() (Text, error) { return NewText(nil, text), nil })
	if c.Room(len(text)) {
		t.Fatalf("%d of 1000 bytes held: room for another %d", c.bytes, len(text))
	}
	if NewFoldCache(-1).Room(0) {
		t.Error("a cache that keeps nothing has room")
	}
}

// Keep caches a fold only where it fits without evicting an entry, and
// never over a newer record's; Get evicts to make room.
func TestFoldCacheKeep(t *testing.T) {
	text := []byte(strings.Repeat("ASCII text ", 30)) // 330 bytes
	c := NewFoldCache(1000)
	keep := func(c *FoldCache, id string, seq uint64) bool {
		kept, err := c.Keep(id, seq, NewText(nil, text))
		if err != nil {
			t.Fatal(err)
		}
		return kept
	}
	if !keep(c, "a", 1) || !keep(c, "b", 1) || c.Peek("a", 1) == nil || c.Peek("b", 1) == nil {
		t.Fatal("Keep of two texts that fit")
	}
	if !keep(c, "a", 1) {
		t.Error("Keep of a text cached already")
	}
	if keep(c, "c", 1) || c.Peek("c", 1) != nil || c.Peek("a", 1) == nil || c.Peek("b", 1) == nil {
		t.Errorf("Keep of a third text into %d of 1000 bytes: evicted or kept", c.bytes)
	}
	if keep(c, "a", 0) || c.Peek("a", 1) == nil {
		t.Error("Keep of an older record replaced the cached one")
	}
	if !keep(c, "a", 2) || c.Peek("a", 2) == nil {
		t.Error("Keep of a newer record in the room of the old one")
	}
	c.Get("c", 1, func() (Text, error) { return NewText(nil, text), nil })
	if c.Peek("c", 1) == nil || c.bytes > 1000 {
		t.Errorf("Get of a third text: not cached, or %d bytes held", c.bytes)
	}
	if keep(NewFoldCache(-1), "a", 1) {
		t.Error("a cache that keeps nothing kept a text")
	}
}

func TestHasRun(t *testing.T) {
	for _, tc := range []struct {
		name, body, written string
		want                bool
	}{
		{"as written", "all rights reserved", "all rights", true},
		{"up to case", "All Rights Reserved", "all rights", true},
		{"upper words", "ALL RIGHTS", "All Rights", true},
		{"inside a word", "overall rightsholder", "all rights", false},
		{"camelCase splits differently", "allRights here", "allrights", false},
		{"query with an inner capital", "read file", "readFile", false},
		{"a later occurrence", "xall rights, then all rights here", "all rights", true},
		{"a dot joins names", "then all rights.", "all rights", false},
		{"punctuation at the ends", "(source code)", "source code", true},
		{"not at a separator", "source code_gen", "source code", false},
		{"absent", "nothing here", "all rights", false},
		{"an accent elsewhere", "café: All Rights Reserved", "all rights", true},
		{"an accent after", "all rights, naïve", "All Rights", true},
		{"an accent against it", "éall rights", "all rights", false},
		{"folding makes it", "café au lait", "cafe au", false},
		{"a dropped mark in it", "e\u0301 all rights", "e all", false},
		{"lowered Cyrillic elsewhere", "ДОМ all rights", "all rights", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// With case masks (an index's cache) and with the text kept
			// in their place (a fold no later search reads), from the
			// text as written and as a record stores it.
			// And, for a body stored lowered, without masks (a search's
			// check in a process with no cache), which reads its case from
			// its stored mask.
			stored := storedText(t, "", tc.body)
			folds := []*Folded{mustFold(t, fold, nil, []byte(tc.body)), mustFold(t, foldKeeping, nil, []byte(tc.body)),
				mustFoldText(t, fold, stored), mustFoldText(t, foldKeeping, stored)}
			if stored.lowered&2 != 0 {
				bare, _, err := FoldInto(&Folded{}, nil, stored, false)
				if err != nil {
					t.Fatal(err)
				}
				folds = append(folds, bare)
			}
			for _, fd := range folds {
				if got := fd.HasRun(true, tc.written, find.New(tokenize.Fold(tc.written))); got != tc.want {
					t.Errorf("HasRun(%q in %q), text kept %v: %v, want %v", tc.written, tc.body, fd.texts != 0, got, tc.want)
				}
			}
		})
	}
}

// TestFoldKeeping checks that a fold that keeps an ASCII field's text in
// place of its masks folds as fold does, gives the same originals and
// plain verdicts, and keeps the text of ASCII fields only.
func TestFoldKeeping(t *testing.T) {
	for _, tc := range []struct{ title, body string }{
		{"", ""},
		{"Title", "ASCII body, with Upper and lower case: getUserByID(XMLParser)"},
		{"Café", "ASCII body"},
		{"ASCII title", "naïve Ångström"},
		{"\u212a", "Kelvin \u212a sign"},
		{strings.Repeat("Long ASCII ", 20), strings.Repeat("ÄÖü ", 30)},
		{"Title", strings.Repeat("ASCII First ", 5) + "then naïve"},
	} {
		title, body := []byte(tc.title), []byte(tc.body)
		want, got := mustFold(t, fold, title, body), mustFold(t, foldKeeping, title, body)
		if got.Title != want.Title || got.Body != want.Body || !reflect.DeepEqual(got.TitleMap, want.TitleMap) || !reflect.DeepEqual(got.BodyMap, want.BodyMap) {
			t.Errorf("%q %q: foldKeeping %+v, fold %+v", tc.title, tc.body, got, want)
		}
		for k, field := range []string{tc.title, tc.body} {
			stored, kept := got.Stored(k == 1)
			if ascii := isASCII([]byte(field)); kept != ascii || kept && stored != field {
				t.Errorf("%q: kept %v (%q), ASCII %v", field, kept, stored, ascii)
			}
			_, _, wantOK := want.Plain(k == 1)
			if _, _, ok := got.Plain(k == 1); ok != wantOK {
				t.Errorf("%q: Plain %v, with masks %v", field, ok, wantOK)
			}
		}
		gt, gb, gok := got.Original()
		wt, wb, wok := want.Original()
		if gok != wok || gt != wt || gb != wb {
			t.Errorf("%q %q: Original %q %q %v, with masks %q %q %v", tc.title, tc.body, gt, gb, gok, wt, wb, wok)
		}
		if gok && (gt != tc.title || gb != tc.body) {
			t.Errorf("Original %q %q, stored %q %q", gt, gb, tc.title, tc.body)
		}
		// Without masks, a field that is not ASCII has its folded text
		// alone: neither restorable nor plain.
		bare, _, _ := FoldInto(&Folded{}, nil, NewText(title, body), false)
		if bare.Title != want.Title || bare.Body != want.Body {
			t.Errorf("%q %q: FoldInto without masks folds to %q %q", tc.title, tc.body, bare.Title, bare.Body)
		}
		ascii := isASCII(title) && isASCII(body)
		if bt, bb, ok := bare.Original(); ok != ascii || ok && (bt != tc.title || bb != tc.body) {
			t.Errorf("%q %q without masks: Original %q %q %v", tc.title, tc.body, bt, bb, ok)
		}
		for k, field := range []string{tc.title, tc.body} {
			if _, _, ok := bare.Plain(k == 1); ok != isASCII([]byte(field)) {
				t.Errorf("%q without masks: Plain %v", field, ok)
			}
		}
	}
}

// TestHasRunInHead checks that the fold of a text's head finds a run that
// ends before the head does, but not one the head's end cuts: the body
// may go on with more of the word ("all rightsholder").
func TestHasRunInHead(t *testing.T) {
	for _, tc := range []struct {
		body  string
		whole bool
		want  bool
	}{
		{"x all rights", true, true},
		{"x all rights", false, false},
		{"x all rights, and", false, true},
		{"All Rights reserved", false, true},
	} {
		for _, masks := range []bool{true, false} {
			fd, _, _ := FoldHeadInto(&Folded{}, nil, TextHead{Text: NewText(nil, []byte(tc.body)), Whole: tc.whole, BodyLen: 100}, masks)
			if got := fd.HasRun(true, "all rights", find.New("all rights")); got != tc.want {
				t.Errorf("%q, whole %v, masks %v: HasRun %v, want %v", tc.body, tc.whole, masks, got, tc.want)
			}
			if _, _, ok := fd.Plain(true); ok == !tc.whole {
				t.Errorf("%q, whole %v: the head's body is plain", tc.body, tc.whole)
			}
		}
	}
}

// TestHasRunDamagedMask checks that a lowered field's stored mask that
// marks a byte other than a lower-case letter finds no run where it
// marks one, folded without masks (HasRun reads the mask there only), and
// is ErrCorrupt folded with them.
func TestHasRunDamagedMask(t *testing.T) {
	stored := storedText(t, "", "x all rights")
	if stored.lowered&2 == 0 {
		t.Fatal("an ASCII body is not stored lowered")
	}
	for _, tc := range []struct {
		at   int // the byte whose bit is set
		want bool
	}{{0, true}, {2, true}, {5, false}, {12, true}} {
		damaged := stored
		damaged.masks[1] = make([]byte, 8)
		damaged.masks[1][tc.at/8] |= 1 << (tc.at % 8)
		bare, _, err := FoldInto(&Folded{}, nil, damaged, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := bare.HasRun(true, "all rights", find.New("all rights")); got != tc.want {
			t.Errorf("the bit of byte %d set: HasRun %v, want %v", tc.at, got, tc.want)
		}
		if _, _, err := FoldInto(&Folded{}, nil, damaged, true); tc.at == 5 && !errors.Is(err, ErrCorrupt) {
			t.Errorf("the bit of byte %d set: FoldInto with masks: %v, want ErrCorrupt", tc.at, err)
		}
	}
}

// HasRun on a fold with case masks allocates nothing: it runs on every
// document a phrase's words are in.
func TestHasRunAllocates(t *testing.T) {
	fd := mustFold(t, fold, nil, []byte("// Copyright 2009 The Go Authors. All Rights reserved.\npackage main"))
	f := find.New("all rights")
	if !fd.HasRun(true, "all rights", f) {
		t.Fatal("no run")
	}
	if n := testing.AllocsPerRun(50, func() { fd.HasRun(true, "all rights", f) }); n > 0 {
		t.Errorf("%v allocations", n)
	}
}

// mustFold folds a title and body as written with fold or foldKeeping.
func mustFold(t testing.TB, fold func(uint64, Text) (*Folded, error), title, body []byte) *Folded {
	t.Helper()
	return mustFoldText(t, fold, NewText(title, body))
}

// mustFoldText folds a text with fold or foldKeeping.
func mustFoldText(t testing.TB, fold func(uint64, Text) (*Folded, error), text Text) *Folded {
	t.Helper()
	f, err := fold(1, text)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// storedText returns the text of a record of title and body as the
// record stores it.
func storedText(t testing.TB, title, body string) Text {
	t.Helper()
	text, _, err := DecodeRecordStored(Encode(&Header{Seq: 1}, nil, title, body), nil)
	if err != nil {
		t.Fatal(err)
	}
	return text
}
