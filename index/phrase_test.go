package index_test

import (
	"slices"
	"testing"

	"github.com/twindex/twindex/index"
)

var phraseCorpus = []index.Doc{
	{ID: "def", Body: "// ReadFile reads.\nfunc ReadFile(name string) ([]byte, error)"},
	{ID: "lower", Body: "func readFile(path string) {}"},
	{ID: "apart", Body: "ReadFile is a func that reads a whole file"},
	{ID: "call", Body: "func main() { ReadFile(name) }"},
	{ID: "qualified", Body: "func os.ReadFile is not Go"},
	{ID: "words", Body: "the func to read file names"},
	{ID: "split", Body: "read the file, then read more of the file"},
}

// TestPhrasesRestrict checks that a quoted phrase of a simple query is in
// every hit, in each mode, with exact totals: as a run of words in the
// text leg, as exact text in the substring leg.
func TestPhrasesRestrict(t *testing.T) {
	tests := []struct {
		query string
		mode  index.Mode
		want  []string // the hits, in any order
	}{
		{`"func ReadFile"`, index.ModeText, []string{"def", "lower"}},
		{`"func ReadFile"`, index.ModeSubstring, []string{"def", "lower"}},
		{`"func ReadFile"`, index.ModeAuto, []string{"def", "lower"}},
		{`"func ReadFile" name`, index.ModeText, []string{"def", "lower"}},
		{`"func ReadFile" name`, index.ModeSubstring, []string{"def"}},
		{`name "func ReadFile"`, index.ModeAuto, []string{"def", "lower"}},
		// A run of stemmed words in the text leg, where an identifier's
		// parts are words; exact text in the other.
		{`"read files"`, index.ModeText, []string{"def", "lower", "apart", "call", "qualified", "words"}},
		{`"read files"`, index.ModeSubstring, nil},
		// A quoted identifier is the identifier or its parts in a run.
		{`"ReadFile"`, index.ModeText, []string{"def", "lower", "apart", "call", "qualified", "words"}},
		{`"read the file"`, index.ModeText, []string{"split"}},
		// Quoted words take no typo or completion in the text leg; the
		// substring leg finds the text inside "func ReadFile".
		{`"func ReadFil"`, index.ModeText, nil},
		{`"func ReadFil"`, index.ModeAuto, []string{"def", "lower"}},
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, phraseCorpus...)
		for _, tt := range tests {
			r := search(t, ix, index.Request{Query: tt.query, Mode: tt.mode})
			if got := sorted(ids(r)); !slices.Equal(got, sorted(append([]string{}, tt.want...))) {
				t.Errorf("%s %s: hits %q, want %q", tt.mode, tt.query, got, tt.want)
			}
			if r.Total != len(r.Hits) {
				t.Errorf("%s %s: total %d, %d hits", tt.mode, tt.query, r.Total, len(r.Hits))
			}
		}
	})
}
