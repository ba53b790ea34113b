package main

import (
	"fmt"
	"strings"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
	"github.com/twindex/twindex/tokenize"
)

// langFlag registers --lang, the language of the index a command creates.
func (fs *flagSet) langFlag() *string {
	return fs.String("lang", "", "`language` of a new index's stemming and stop words, one of "+
		strings.Join(tokenize.Langs(), ", ")+" (default en); an existing index keeps the one it was made in")
}

// setLang puts --lang in opts, refusing a code no analyzer has.
func setLang(opts *index.Options, code string) error {
	if _, ok := tokenize.NewTextLang(code); !ok {
		return usageErr("", "--lang %q: want one of %s", code, strings.Join(tokenize.Langs(), ", "))
	}
	opts.Language = code
	return nil
}

// checkServedLang fails as Open does when --lang names another language
// than that of an index a server owns, which the server opened without
// the flag.
func checkServedLang(eng server.Engine, code, dir string) error {
	c, ok := eng.(*server.Client)
	if !ok || code == "" {
		return nil
	}
	st, err := c.Stats()
	if err != nil {
		return indexErr(err, dir)
	}
	if st.Language != code {
		return indexErr(fmt.Errorf("%w: the index is in %s, not %s", index.ErrLanguage, st.Language, code), dir)
	}
	return nil
}
