//go:build !js && !wasip1

package index_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// The language is recorded when the index is made: reopening without one
// keeps it, with another one fails and says how to change it, and an
// index recorded before languages is English.
func TestLanguageRecorded(t *testing.T) {
	dir := t.TempDir()
	ix, err := index.Open(dir, &index.Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, ix, frenchDocs...)
	if ix.Language() != "fr" {
		t.Errorf("Language() = %q", ix.Language())
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"", "fr"} {
		ix, err := index.Open(dir, &index.Options{Language: lang})
		if err != nil {
			t.Fatalf("reopen with %q: %v", lang, err)
		}
		st, err := ix.Stats()
		if err != nil {
			t.Fatal(err)
		}
		r := search(t, ix, index.Request{Query: "cheval", Mode: index.ModeText, Fallback: -1})
		if st.Language != "fr" || !slices.Equal(ids(r), []string{"maisons"}) {
			t.Errorf("reopened with %q: language %q, cheval finds %v", lang, st.Language, ids(r))
		}
		ix.Close()
	}
	_, err = index.Open(dir, &index.Options{Language: "en"})
	if !errors.Is(err, index.ErrLanguage) || !strings.Contains(err.Error(), "the index is in fr, not en") || !strings.Contains(err.Error(), "build a new index") {
		t.Errorf("reopen in en: %v, want ErrLanguage saying how", err)
	}
	for _, lang := range []string{"de", "FR", "french"} {
		if _, err := index.Open(t.TempDir(), &index.Options{Language: lang}); !errors.Is(err, index.ErrLanguage) {
			t.Errorf("Open in %q: %v, want ErrLanguage", lang, err)
		}
	}
}
