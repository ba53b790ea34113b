package decl

import (
	"strings"
	"testing"
)

// langOfExt answers as byExt looked up with strings.ToLower, for every
// extension: ASCII ones lowered on the stack, the others as before.
func FuzzLangOfExt(f *testing.F) {
	for _, s := range []string{"", ".go", ".GO", ".Md", ".MARKDOWN", ".mar\u212Adown", ".\u0130", ".tsx", ".x", ".very-long-extension-name", "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ext string) {
		want, wantOK := byExt[strings.ToLower(ext)]
		if got, ok := langOfExt(ext); got != want || ok != wantOK {
			t.Errorf("langOfExt(%q) = %v, %v; byExt[ToLower] = %v, %v", ext, got, ok, want, wantOK)
		}
	})
}
