package index

import (
	"fmt"
	"strings"

	"github.com/twindex/twindex/storage"
	"github.com/twindex/twindex/tokenize"
)

// language returns the text analyzer of the index's language: for a new
// store (schema had 0) that of Options.Language, which writeSchema then
// records; for an existing one that of the language it recorded, English
// when it recorded none (an index made before languages), which
// Options.Language must name if it names one.
func (ix *Index) language(had uint64) (*tokenize.Text, error) {
	want := ix.opts.Language
	if _, ok := tokenize.NewTextLang(want); !ok {
		return nil, fmt.Errorf("%w: unknown language %q (want one of %s)", ErrLanguage, want, strings.Join(tokenize.Langs(), ", "))
	}
	code := want
	if had > 0 {
		code = tokenize.English
		err := ix.store.View(func(tx storage.Tx) error {
			if v := tx.Get(bucketMeta, metaLanguage); v != nil {
				code = string(v)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	text, ok := tokenize.NewTextLang(code)
	if !ok {
		return nil, fmt.Errorf("%w: the index is in %q, which this build does not know (want one of %s)", ErrLanguage, code, strings.Join(tokenize.Langs(), ", "))
	}
	if want != "" && want != text.Lang() {
		return nil, fmt.Errorf("%w: the index is in %s, not %s (its words are stemmed in %s); for %s, build a new index (remove this one and add its documents again)",
			ErrLanguage, text.Lang(), want, text.Lang(), want)
	}
	return text, nil
}

// Language returns the ISO 639-1 code of the language of the index's text
// leg (tokenize.Langs).
func (ix *Index) Language() string { return ix.textA.Lang() }
