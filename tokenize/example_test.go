package tokenize_test

import (
	"fmt"

	"github.com/twindex/twindex/tokenize"
)

func ExampleNewText() {
	text := tokenize.NewText()
	fmt.Println(text.Terms("getUserById parses XMLParser"))
	// Output: [getuserbyid get user id pars xmlparser xml parser]
}

func ExampleNewTextLang() {
	fr, ok := tokenize.NewTextLang("fr")
	fmt.Println(ok, fr.Lang(), fr.Terms("Les maisons et la Maison"))
	_, ok = tokenize.NewTextLang("de")
	fmt.Println(ok, tokenize.Langs())
	// Output:
	// true fr [le maison maison]
	// false [en es fr hu no ru sv]
}

func ExampleNewTrigram() {
	for _, tok := range tokenize.NewTrigram().Analyze([]byte("Café")) {
		fmt.Printf("%q ", tok.Term)
	}
	fmt.Println()
	// Output: "c" "ca" "caf" "a" "af" "afe" "f" "fe" "e"
}

func ExampleFold() {
	fmt.Println(tokenize.Fold("Ångström CAFÉ Straße"))
	// Output: angstrom cafe straße
}

func ExampleFoldLen() {
	fmt.Println(tokenize.FoldLen("Ångström"), len("Ångström"))
	// Output: 8 10
}

func ExampleFoldMap() {
	s := "née X"
	folded, offsets := tokenize.FoldMap(s)
	i := len("nee ") // where "x" starts in folded
	fmt.Println(folded, offsets[i], s[offsets[i]:])
	// Output: nee x 5 X
}

func ExampleGrams() {
	fmt.Println(tokenize.Grams("h Fl"), tokenize.Grams("IO"))
	// Output: [h f  fl] [io]
}
