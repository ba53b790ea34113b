package index_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

var frenchDocs = []index.Doc{
	{ID: "maisons", Title: "Les maisons", Body: "Les chevaux mangeaient des pommes près des maisons."},
	{ID: "nation", Title: "Nationalités", Body: "Les nationalités et les langues de l'Europe."},
	{ID: "run", Title: "Running", Body: "running the tests"},
}

// The text leg stems documents and queries in the index's language: a
// French index finds French inflections the English stemmer leaves apart,
// and not the English ones French leaves apart; each drops its own stop
// words only.
func TestLanguageStems(t *testing.T) {
	tests := []struct {
		lang, query string
		want        []string
	}{
		{"fr", "maison", []string{"maisons"}},
		{"fr", "cheval", []string{"maisons"}},     // chevaux
		{"fr", "mangeait", []string{"maisons"}},   // mangeaient
		{"fr", "nationalité", []string{"nation"}}, // nationalités
		{"fr", "run", nil},                        // running: an English rule
		{"fr", "the", []string{"run"}},            // not a French stop word
		{"fr", "et", nil},                         // a French stop word
		{"en", "maison", []string{"maisons"}},     // a plural in s: both stem it
		{"en", "cheval", nil},                     // chevaux
		{"en", "mangeait", nil},                   // mangeaient
		{"en", "run", []string{"run"}},            // running
		{"en", "et", []string{"nation"}},          // not an English stop word
		{"", "run", []string{"run"}},              // English by default
	}
	for _, tc := range tests {
		t.Run(tc.lang+"/"+tc.query, func(t *testing.T) {
			for _, be := range []index.Backend{index.Scorch, index.UpsideDown} {
				ix, err := index.OpenMemory(&index.Options{Backend: be, Language: tc.lang})
				if errors.Is(err, index.ErrBackend) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				defer ix.Close()
				mustUpsert(t, ix, frenchDocs...)
				r := search(t, ix, index.Request{Query: tc.query, Mode: index.ModeText, Fallback: -1})
				if got := sorted(ids(r)); !slices.Equal(got, sorted(append([]string{}, tc.want...))) {
					t.Errorf("%s: %q finds %v, want %v", be, tc.query, got, tc.want)
				}
			}
		})
	}
}

// In a language whose stemmer reads accents, a query typed without them
// may stem otherwise ("nationalites" -> nationalit, "nationalités" ->
// national); the tolerant pass finds the word as written, one edit away.
func TestLanguageTolerant(t *testing.T) {
	ix, err := index.OpenMemory(&index.Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix, frenchDocs...)
	for _, q := range []string{"nationalites", "nationalitées"} {
		if r := search(t, ix, index.Request{Query: q, Mode: index.ModeText}); !slices.Equal(ids(r), []string{"nation"}) {
			t.Errorf("%q finds %v, want [nation]", q, ids(r))
		}
		if r := search(t, ix, index.Request{Query: q, Mode: index.ModeText, Fallback: -1}); len(r.Hits) != 0 {
			t.Errorf("%q without the fallback finds %v", q, ids(r))
		}
	}
}

// A snapshot carries its index's language.
func TestLanguageSnapshot(t *testing.T) {
	ix, err := index.OpenMemory(&index.Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	mustUpsert(t, ix, frenchDocs...)
	data := writeSnapshot(t, ix)
	loaded := loadSnapshot(t, data)
	r := search(t, loaded, index.Request{Query: "cheval", Mode: index.ModeText, Fallback: -1})
	if loaded.Language() != "fr" || !slices.Equal(ids(r), []string{"maisons"}) {
		t.Errorf("loaded: language %q, cheval finds %v", loaded.Language(), ids(r))
	}
	if _, err := index.OpenSnapshot(bytes.NewReader(data), &index.Options{Language: "en"}); !errors.Is(err, index.ErrLanguage) {
		t.Errorf("OpenSnapshot in en: %v, want ErrLanguage", err)
	}
}
