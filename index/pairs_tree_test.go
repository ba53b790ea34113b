//go:build !js && !wasip1

package index_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/tokenize"
)

// TestPairsChangeNoAnswer holds that the records' pairs filters change no
// answer: on 300 files of the Go tree, phrases of two to four words cut
// from them (and with a word changed, so that some are held nowhere) are
// searched in the shapes that judge phrases (quoted, a raw prefix, one
// ending in a stop word among them, ^, NEAR, AND, a column, typos
// tolerated) and modes, and each gets the total and hits of an index
// that stores no filter.
func TestPairsChangeNoAnswer(t *testing.T) {
	docs := treeDocs(t, 300)
	words := regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:[ ,.]+[A-Za-z][A-Za-z0-9]*){1,3}`)
	rng := rand.New(rand.NewPCG(7, 11))
	var phrases []string
	for len(phrases) < 60 {
		body := docs[rng.IntN(len(docs))].Body
		cut := words.FindString(body[rng.IntN(len(body)):])
		if f := strings.FieldsFunc(cut, func(r rune) bool { return r == ' ' || r == ',' || r == '.' }); len(f) >= 2 {
			if len(phrases)%4 == 3 {
				f[rng.IntN(len(f))] = "the" // often held nowhere, or elsewhere
			}
			phrases = append(phrases, strings.Join(f, " "))
		}
	}
	type shape struct {
		q   string
		syn index.Syntax
		fz  index.Fuzzy
	}
	var shapes []shape
	text := tokenize.NewText()
	for i, p := range phrases {
		f := strings.Fields(p)
		shapes = append(shapes, shape{`"` + p + `"`, index.SyntaxSimple, 0})
		if len(text.Stops([]byte(f[len(f)-1]))) > 0 {
			// A prefix whose last word is a stop word: its completions
			// do not hold the word itself.
			shapes = append(shapes, shape{`"` + p + `"*`, index.SyntaxRaw, 0})
		}
		switch i % 6 {
		case 0:
			shapes = append(shapes, shape{`"` + p + `"*`, index.SyntaxRaw, 0})
		case 1:
			shapes = append(shapes, shape{`^"` + p + `"`, index.SyntaxRaw, 0})
		case 2:
			shapes = append(shapes, shape{`NEAR("` + p + `" ` + f[0] + `)`, index.SyntaxRaw, 0})
		case 3:
			shapes = append(shapes, shape{`"` + p + `" AND ` + f[len(f)-1], index.SyntaxRaw, 0})
		case 4:
			shapes = append(shapes, shape{`body:"` + p + `"`, index.SyntaxRaw, 0})
		case 5:
			shapes = append(shapes, shape{`"` + p + `" ` + f[0] + "x", index.SyntaxSimple, index.FuzzyAuto})
		}
	}
	var ixs [2]*index.Index
	for k, opts := range []*index.Options{nil, index.WithoutPairs(nil)} {
		ixs[k] = memoryOf(t, opts, docs...)
	}
	found := 0
	for _, sh := range shapes {
		for _, mode := range []index.Mode{index.ModeText, index.ModeAuto} {
			var got [2]string
			for k, ix := range ixs {
				r := search(t, ix, index.Request{Query: sh.q, Syntax: sh.syn, Fuzzy: sh.fz, Mode: mode, Limit: index.MaxLimit})
				got[k] = fmt.Sprint(r.Total, " ", sorted(ids(r)))
				if k == 0 && r.Total > 0 {
					found++
				}
			}
			if got[0] != got[1] {
				t.Errorf("%s %s: with pairs %.200s\nwithout %.200s", mode, sh.q, got[0], got[1])
			}
		}
	}
	if found < len(shapes)/2 {
		t.Errorf("only %d of %d searches found something: the phrases test little", found, 2*len(shapes))
	}
	t.Logf("%d searches, %d with hits", 2*len(shapes), found)
}
