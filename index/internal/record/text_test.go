package record

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/twindex/twindex/tokenize"
)

// loweredTexts are titles and bodies of each kind: ASCII of every case,
// across a mask's 64-byte words; non-ASCII that folding only lowers
// around (stored lowered) and that it changes (stored raw).
var loweredTexts = [][2]string{
	{"", ""},
	{"Title", "Body"},
	{"getUserByID", strings.Repeat("XMLParser reads HTTP Headers; ", 20)},
	{"lower", "only lower-case text, with no capital: no mask words"},
	{"日本語 Title", "CJK 日本語 and ASCII Upper"},
	{"Café", "ASCII Body"},
	{"ASCII Title", "naïve Ångström"},
	{"\u212a", "Kelvin \u212a"},
	{strings.Repeat("A", 64), strings.Repeat("b", 63) + "C"},
}

// A text stored lowered restores to the text written, folds as the text
// written does (the same folded text, masks, originals and plain
// verdicts), with and without masks, and into the cache.
func TestLoweredText(t *testing.T) {
	var f Folded // one, used again, as a worker's scratch is
	var buf []byte
	for _, tc := range loweredTexts {
		title, body := tc[0], tc[1]
		rec := Encode(&Header{Seq: 1}, nil, title, body)
		text, _, err := DecodeRecordStored(rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _, changedT := fold4(title)
		_, _, changedB := fold4(body)
		if _, _, raw := text.Raw(); raw != (changedT && changedB) {
			t.Errorf("%q %q: stored raw %v; folding changes the title %v, the body %v", title, body, raw, changedT, changedB)
		}
		gt, gb, err := DecodeRecordText(rec)
		if err != nil || string(gt) != title || string(gb) != body {
			t.Fatalf("restored %q %q %v, want %q %q", gt, gb, err, title, body)
		}
		want := mustFold(t, fold, []byte(title), []byte(body))
		for name, got := range map[string]*Folded{
			"fold":        mustFoldText(t, fold, text),
			"foldKeeping": mustFoldText(t, foldKeeping, text),
		} {
			if got.Title != want.Title || got.Body != want.Body {
				t.Errorf("%q %q, %s: folded %q %q, want %q %q", title, body, name, got.Title, got.Body, want.Title, want.Body)
			}
			for k := range 2 {
				wf, wu, wok := want.Plain(k == 1)
				gf, gu, gok := got.Plain(k == 1)
				if gok != wok || gf != wf || gok && gu != nil && !reflect.DeepEqual(gu, wu) {
					t.Errorf("%q %q, %s, field %d: Plain %q %v %v, want %q %v %v", title, body, name, k, gf, gu, gok, wf, wu, wok)
				}
			}
			ot, ob, ok := got.Original()
			wt, wb, wok := want.Original()
			if ok != wok || ot != wt || ob != wb {
				t.Errorf("%q %q, %s: Original %q %q %v, want %q %q %v", title, body, name, ot, ob, ok, wt, wb, wok)
			}
		}
		got, b, err := FoldInto(&Folded{}, buf, text, false)
		if err != nil {
			t.Fatal(err)
		}
		buf = b
		if got.Title != want.Title || got.Body != want.Body {
			t.Errorf("%q %q, FoldInto without masks: %q %q", title, body, got.Title, got.Body)
		}
	}
	// With masks, into one Folded, whose masks' room each fold uses
	// again, as a worker's scratch does.
	for range 2 {
		for _, tc := range loweredTexts {
			title, body := tc[0], tc[1]
			text, _, err := DecodeRecordStored(Encode(&Header{Seq: 1}, nil, title, body), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, b, err := FoldInto(&f, buf, text, true)
			if err != nil {
				t.Fatal(err)
			}
			buf = b
			_, _, changedT := fold4(title)
			_, _, changedB := fold4(body)
			if ot, ob, ok := got.Original(); ok != !(changedT || changedB) || ok && (ot != title || ob != body) {
				t.Errorf("%q %q, FoldInto with masks: Original %q %q %v", title, body, ot, ob, ok)
			}
		}
	}
}

// fold4 returns FoldCase's folded text of s, its upper mask, and whether
// folding changed more than ASCII letters' case.
func fold4(s string) (string, []uint64, bool) {
	folded, _, upper, changed := tokenize.FoldCase([]byte(s))
	return folded, upper, changed != nil
}

// A damaged lowered text is ErrCorrupt where it is read: flags that name
// no field, a mask longer than its field or with a bit past it (when the
// text is decoded), a bit on a byte that is not a letter (when the text
// is restored, or its masks are read). Never a panic.
func TestLoweredTextDamage(t *testing.T) {
	rec := Encode(&Header{Seq: 1}, nil, "T", "Body text")
	end, err := scanHeader(rec, nil, nil)
	if err != nil || end.rest[0] != textLower || end.rest[1] != 3 {
		t.Fatalf("%v; text %q", err, end.rest)
	}
	at := len(rec) - len(end.rest) // the text's encoding byte
	// The layout: encoding, flags, 1 "t", 9 "body text", title mask 1
	// word, body mask 1 word.
	tail := at + 2 + 2 + 10
	if !bytes.Equal(rec[tail:], []byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("masks %v", rec[tail:])
	}
	damage := func(at int, b byte) []byte {
		bad := bytes.Clone(rec)
		bad[at] = b
		return bad
	}
	for name, tc := range map[string]struct {
		rec               []byte
		decodes, restores bool
	}{
		"no field lowered":     {damage(at+1, 0), false, false},
		"a third field":        {damage(at+1, 7), false, false},
		"a bit past the title": {damage(tail+1, 2), false, false},
		"a bit on a space":     {damage(tail+10, 1<<4|1), true, false},
		"two words for one":    {damage(tail+9, 2), false, false},
		"a bit on a letter":    {damage(tail+10, 1<<5|1), true, true},
	} {
		text, _, err := DecodeRecordStored(tc.rec, nil)
		if (err == nil) != tc.decodes || err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: decoded with %v", name, err)
			continue
		}
		if _, _, err := DecodeRecordText(tc.rec); (err == nil) != tc.restores || err != nil && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: restored with %v", name, err)
		}
		if !tc.decodes {
			continue
		}
		if _, _, err := FoldInto(&Folded{}, nil, text, true); (err == nil) != tc.restores {
			t.Errorf("%s: folded with masks, %v", name, err)
		}
		if _, _, err := FoldInto(&Folded{}, nil, text, false); err != nil {
			t.Errorf("%s: folded without masks, %v", name, err)
		}
	}
}

// FuzzLoweredText stores arbitrary texts: each reads back as written,
// and folds as the text written does.
func FuzzLoweredText(f *testing.F) {
	for _, tc := range loweredTexts {
		f.Add(tc[0], tc[1], 10)
	}
	f.Fuzz(func(t *testing.T, title, body string, n int) {
		rec := Encode(&Header{Seq: 1}, nil, title, body)
		gt, gb, err := DecodeRecordText(rec)
		if err != nil || string(gt) != title || string(gb) != body {
			t.Fatalf("restored %q %q %v", gt, gb, err)
		}
		text, _, err := DecodeRecordStored(rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := FoldInto(&Folded{}, nil, text, true)
		if err != nil || got.Title != tokenize.Fold(title) || got.Body != tokenize.Fold(body) {
			t.Fatalf("folded %q %q, %v", got.Title, got.Body, err)
		}
		checkHead(t, rec, int(uint(n)%4096))
	})
}
