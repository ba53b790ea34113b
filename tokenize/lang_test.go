package tokenize_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/french"
	"github.com/kljensen/snowball/hungarian"
	"github.com/kljensen/snowball/norwegian"
	"github.com/kljensen/snowball/russian"
	"github.com/kljensen/snowball/spanish"
	"github.com/kljensen/snowball/swedish"

	"github.com/twindex/twindex/tokenize"
)

func TestLangs(t *testing.T) {
	if got, want := tokenize.Langs(), []string{"en", "es", "fr", "hu", "no", "ru", "sv"}; !slices.Equal(got, want) {
		t.Fatalf("Langs() = %v, want %v", got, want)
	}
	for _, code := range tokenize.Langs() {
		if text, ok := tokenize.NewTextLang(code); !ok || text.Lang() != code {
			t.Errorf("NewTextLang(%q): %v", code, ok)
		}
	}
	if text, ok := tokenize.NewTextLang(""); !ok || text.Lang() != tokenize.English {
		t.Errorf(`NewTextLang(""): %v`, ok)
	}
	for _, code := range []string{"de", "EN", "fr-CA", "english", " fr"} {
		if _, ok := tokenize.NewTextLang(code); ok {
			t.Errorf("NewTextLang(%q) accepted", code)
		}
	}
	if tokenize.NewText().Lang() != tokenize.English {
		t.Error("NewText is not English")
	}
}

// Each language's stemmer reads the word with its accents and letters and
// its term is the stem folded; stop words are the language's.
func TestTextLang(t *testing.T) {
	tests := []struct {
		name, lang, in string
		want           []string
	}{
		{"en sentence", "en", "The girls were reading books quickly", []string{"girl", "read", "book", "quick"}},
		{"fr sentence", "fr", "Les nationalités et les chevaux mangeaient des pommes", []string{"le", "national", "le", "cheval", "mang", "pomm"}},
		{"es sentence", "es", "Las naciones y los caballos comían manzanas", []string{"nacion", "caball", "com", "manzan"}},
		{"ru sentence", "ru", "Красные машины ехали по дорогам", []string{"красн", "машин", "еха", "дорог"}},
		{"sv sentence", "sv", "Flickorna läste böckerna snabbt", []string{"flick", "last", "bock", "snabbt"}},
		{"no sentence", "no", "Jentene leste bøkene raskt", []string{"jent", "lest", "bøk", "raskt"}},
		{"hu sentence", "hu", "A lányok olvasták a könyveket", []string{"lany", "olvasta", "konyv"}},
		// Inflections share a term; case does not matter.
		{"fr plural", "fr", "maison maisons MAISONS", []string{"maison", "maison", "maison"}},
		{"es plural", "es", "canción canciones", []string{"cancion", "cancion"}},
		{"ru cases", "ru", "книга книги книгой", []string{"книг", "книг", "книг"}},
		{"sv definite", "sv", "bil bilen bilar", []string{"bil", "bil", "bil"}},
		// The stemmer reads the accents: "é" of "ité" is a suffix, "e" is not;
		// Russian's "й" is kept for the stemmer, folded after.
		{"fr accent read", "fr", "nationalité nationalite", []string{"national", "nationalit"}},
		{"ru short i", "ru", "красный", []string{"красн"}},
		// Stop words: the language's, in any case, and only as whole words.
		{"fr stop", "fr", "Et ET et été", []string{}},
		{"fr not english stop", "fr", "the et", []string{"the"}},
		{"en not french stop", "en", "et the", []string{"et"}},
		{"es stop", "es", "Para el que", []string{}},
		// Short words, numbers and identifiers are folded, not stemmed, and
		// identifiers are still split.
		{"fr code", "fr", "getUserById utf8 x1", []string{"getuserbyid", "get", "user", "by", "id", "utf8", "utf", "8", "x1", "x", "1"}},
		{"fr snake", "fr", "chemin_maisons", []string{"chemin_maisons", "chemin", "maison"}},
		{"ru short", "ru", "ТВ 42", []string{"тв", "42"}},
		{"fr cjk", "fr", "東京", []string{"東", "東京", "京"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, ok := tokenize.NewTextLang(tc.lang)
			if !ok {
				t.Fatalf("no %s", tc.lang)
			}
			if got := text.Terms(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
			}
			checkPositions(t, text, []byte(tc.in))
		})
	}
}

// In a language other than English, Count keeps the lowercased spelling,
// accents and all, and Term maps it back to its term.
func TestCountWordsLang(t *testing.T) {
	fr, _ := tokenize.NewTextLang("fr")
	words := bleveindex.TokenFrequencies{}
	fr.Count([]byte("Les Nationalités des maisons chez nous"), words, nil)
	want := map[string]string{"les": "le", "nationalités": "national", "maisons": "maison"}
	if len(words) != len(want) {
		t.Fatalf("words %v, want %v", slices.Collect(maps.Keys(words)), want)
	}
	for w, term := range want {
		if words[w] == nil {
			t.Errorf("word %q missing", w)
		}
		if got, ok := fr.Term(w); !ok || got != term {
			t.Errorf("Term(%q) = %q, %v; want %q", w, got, ok, term)
		}
	}
}

// stems are the Snowball stemmers of each language, for the fuzz target.
var stems = map[string]func(string, bool) string{
	"en": english.Stem, "es": spanish.Stem, "fr": french.Stem, "hu": hungarian.Stem,
	"no": norwegian.Stem, "ru": russian.Stem, "sv": swedish.Stem,
}

// checkLangTerms checks the term of every token of a language other than
// English: the folded stem of the lowercased word, for words of three
// letters or more outside CJK; the folded word otherwise.
func checkLangTerms(t *testing.T, lang string, in []byte, ts analysis.TokenStream) {
	t.Helper()
	for i, tok := range ts {
		word := string(in[tok.Start:tok.End])
		want := tokenize.Fold(word)
		if tok.Type != analysis.Ideographic && len([]rune(want)) >= 3 && lettersOnly(want) {
			if s := tokenize.Fold(stems[lang](strings.ToLower(word), false)); s != "" && len(s) <= tokenize.MaxTermLen {
				want = s
			}
		}
		if string(tok.Term) != want {
			t.Fatalf("%s token %d: term %q, want %q from input %q", lang, i, tok.Term, want, word)
		}
	}
}

func lettersOnly(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// FuzzTextLangs checks the analyzer of every language: offsets, terms,
// Frequencies and Count against Analyze, Term against Count's words.
func FuzzTextLangs(f *testing.F) {
	addSeeds(f)
	f.Add([]byte("Les nationalités Красные машины lányok böckerna ÉTÉ été"))
	f.Add([]byte("getNationalités CANCIONES_viejas красныйДом"))
	var texts []*tokenize.Text
	for _, code := range tokenize.Langs() {
		text, _ := tokenize.NewTextLang(code)
		texts = append(texts, text)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, text := range texts {
			ts := text.Analyze(in)
			if text.Lang() == tokenize.English {
				checkTextStream(t, in, ts)
			} else {
				checkOffsets(t, in, ts)
				checkLangTerms(t, text.Lang(), in, ts)
			}
			checkFrequencies(t, text, in)
			checkWords(t, text, in)
			checkPositions(t, text, in)
			checkAdjacent(t, text, in)
		}
	})
}
