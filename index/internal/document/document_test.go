package document_test

import (
	"testing"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/document"
)

func freqs(terms ...string) bleveindex.TokenFrequencies {
	out := bleveindex.TokenFrequencies{}
	for _, t := range terms {
		tf := &bleveindex.TokenFreq{Term: []byte(t)}
		tf.SetFrequency(1)
		out[t] = tf
	}
	return out
}

func TestAnalyzedOnce(t *testing.T) {
	runs := 0
	f := document.AnalyzedBy("f", []byte("a b"), func([]byte) (bleveindex.TokenFrequencies, int) {
		runs++
		return freqs("a", "b"), 2
	})
	f.Analyze()
	f.Analyze()
	if runs != 1 || f.AnalyzedLength() != 2 || len(f.AnalyzedTokenFrequencies()) != 2 {
		t.Errorf("runs %d, length %d, terms %d; want 1, 2, 2", runs, f.AnalyzedLength(), len(f.AnalyzedTokenFrequencies()))
	}
}

func TestAnalyzedTogether(t *testing.T) {
	a, b := document.NewAnalyzed("a", []byte("x")), document.NewAnalyzed("b", []byte("y z"))
	runs := 0
	both := func() {
		runs++
		a.Set(freqs("x"), 1)
		b.Set(freqs("y", "z"), 2)
	}
	a.SetAnalyze(both)
	b.SetAnalyze(both)
	a.Analyze()
	b.Analyze()
	if runs != 1 || b.AnalyzedLength() != 2 {
		t.Errorf("runs %d, b's length %d; want 1, 2", runs, b.AnalyzedLength())
	}
}

func TestVisitTerms(t *testing.T) {
	for _, tc := range []struct {
		name     string
		analyzed bool
		want     int // terms visited
	}{
		{"by the visitor, without a map", false, 3},
		{"from the analysis, once analyzed", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := document.AnalyzedBy("f", []byte("abc"), func([]byte) (bleveindex.TokenFrequencies, int) { return freqs("p", "q"), 2 })
			f.SetVisit(func(text []byte, fn func([]byte, int)) int {
				for _, c := range text {
					fn([]byte{c}, 1)
				}
				return len(text)
			})
			if tc.analyzed {
				f.Analyze()
			}
			n := 0
			f.VisitTerms(func([]byte, int) { n++ })
			if n != tc.want {
				t.Errorf("visited %d terms, want %d", n, tc.want)
			}
		})
	}
}

func TestDoc(t *testing.T) {
	d := document.New("id1", document.Stored("h", []byte("hash")), document.Preanalyzed("n", nil, freqs("l"), 5))
	d.AddIDField()
	var names []string
	d.VisitFields(func(f bleveindex.Field) { names = append(names, f.Name()) })
	if len(names) != 3 || names[2] != "_id" {
		t.Errorf("fields %v, want h, n, _id", names)
	}
	if d.ID() != "id1" || d.StoredFieldsBytes() != uint64(len("hash")+len("id1")) {
		t.Errorf("id %q, stored bytes %d", d.ID(), d.StoredFieldsBytes())
	}
}
