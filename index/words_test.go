package index_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// A word of parts (ReadFile) matches, in the simple syntax, a document
// that holds the whole identifier or every part in one field, not one
// with a part alone; a hyphenated word is prose and matches by any part,
// as one part of the word it is in;
// a part of one or two characters, or a stop word being typed, is not
// asked for.
func TestWordOfParts(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "whole", Body: "call ReadFile here"},
			index.Doc{ID: "apart", Body: "read the whole file"},
			index.Doc{ID: "lower", Body: "a readfile helper"},
			index.Doc{ID: "split", Title: "read", Body: "a file"},
			index.Doc{ID: "fileonly", Body: "the file"},
			index.Doc{ID: "readonly", Body: "read it"},
			index.Doc{ID: "low", Body: "a low amount"},
			index.Doc{ID: "dose", Body: "one dose"},
			index.Doc{ID: "readdose", Body: "read the dose"},
			index.Doc{ID: "ure", Body: "the ure protein"},
			index.Doc{ID: "reader", Body: "a reader"},
			index.Doc{ID: "errorsAs", Body: "if errors.As(err, &target) {"},
			index.Doc{ID: "getthe", Body: "call get_the here"},
			index.Doc{ID: "assert", Body: "errors.New assert"},
			index.Doc{ID: "theory", Body: "a theory"},
		)
		for _, c := range []struct {
			q    string
			mode index.Mode
			want []string
		}{
			{"ReadFile", index.ModeText, []string{"apart", "lower", "whole"}},
			{"ReadFile", index.ModeAuto, []string{"apart", "lower", "whole"}},
			{"read_file", index.ModeText, []string{"apart", "whole"}},
			{"ReadFile missing", index.ModeText, []string{"apart", "lower", "whole"}},
			{"ReadFile dose", index.ModeText, []string{"apart", "dose", "lower", "readdose", "whole"}},
			{"low-dose", index.ModeText, []string{"dose", "low", "readdose"}},
			{"low–dose", index.ModeText, []string{"dose", "low", "readdose"}},
			{"read—file", index.ModeText, []string{"apart", "whole"}},
			{"read/low-dose", index.ModeText, []string{"readdose"}},
			{"read-3,4-dose", index.ModeText, []string{"apart", "dose", "readdose", "readonly", "split", "whole"}},
			{"dose-read/ReadFile", index.ModeText, []string{"apart", "whole"}},
			{"UreB", index.ModeText, []string{"ure"}},
			{"xReader", index.ModeText, []string{"reader"}},
			{"read", index.ModeText, []string{"apart", "readdose", "readonly", "split", "whole"}},
		} {
			r := search(t, ix, index.Request{Query: c.q + " ", Mode: c.mode, Limit: 20, Fallback: -1})
			got := ids(r)
			slices.Sort(got)
			if !slices.Equal(got, c.want) || r.Total != len(c.want) {
				t.Errorf("%q in %s: total %d, %v; want %v", c.q, c.mode, r.Total, got, c.want)
			}
		}
		// A word of parts with a part no document holds is unknown: the
		// fallback tolerates it though the other word matches enough.
		r := search(t, ix, index.Request{Query: "ReadFlie read ", Mode: index.ModeText, Limit: 20, Fallback: 3})
		if got := ids(r); !r.Tolerant || !slices.Contains(got, "whole") || !slices.Contains(got, "apart") {
			t.Errorf("ReadFlie read: tolerant %v, %v; want the fallback's, with whole and apart", r.Tolerant, got)
		}
		// Typed as a prefix, a word whose last part is a stop word finds
		// the document that holds it whole.
		for _, c := range []struct{ q, want string }{{"errors.As", "errorsAs"}, {"get_the", "getthe"}} {
			r := search(t, ix, index.Request{Query: c.q, Prefix: true, Mode: index.ModeText, Limit: 20, Fallback: -1})
			if !slices.Contains(ids(r), c.want) {
				t.Errorf("%q typed: %v, want %s among them", c.q, ids(r), c.want)
			}
		}
	})
}

// Only the rarest unit of a word of parts creates matches; the other
// parts are read onto them by seeking to each (when a part's lists are
// long), and a set of words among them (a part being typed: its
// completions) is counted apart, where the backend can (scorch); or,
// where the backend has posting bitmaps (scorch, compact), the holders of
// the word are found from them first (HoldingAll: by default only for a
// word whose parts are common). Both must give what letting every term
// create matches, read to the ends of its lists, gives: the same totals,
// hits and scores, to the bit. On an index written in batches with
// updates and removals; as typed (no trailing space), and with the
// fallback.
func TestWordPartsSought(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	common := []string{"file", "read", "write", "value", "open"}
	rare := []string{"zebra", "quokka", "okapi"}
	var docs []index.Doc
	for i := range 400 {
		var body, title []string
		for range 2 + rng.IntN(10) {
			body = append(body, common[rng.IntN(len(common))])
		}
		if rng.IntN(12) == 0 {
			body = append(body, rare[rng.IntN(len(rare))])
		}
		if rng.IntN(40) == 0 {
			title = append(title, rare[rng.IntN(len(rare))]+"File")
		}
		docs = append(docs, index.Doc{ID: fmt.Sprintf("d%03d", i), Title: strings.Join(title, " "), Body: strings.Join(body, " ")})
	}
	queries := []string{"zebraFile ", "quokka_read ", "okapi.Value ", "ZebraFileOpen ", "readFile zebraWrite ", "fileValue ",
		"zebraFil", "quokka_wri", "okapiVal", "zebraFlie ", "quokaRead ", "zebra-file/okapi.Value ", "read–quokka.Open ",
		"okapiFile -zebra ", `zebraFile "file value" `}
	for _, be := range []index.Backend{"scorch", "upsidedown", "compact"} {
		t.Run(string(be), func(t *testing.T) {
			var out [3][]*index.Result
			for i, opts := range []*index.Options{{Backend: be}, index.WithoutSeeking(&index.Options{Backend: be}), index.HoldingAll(&index.Options{Backend: be})} {
				ix, err := index.OpenMemory(opts)
				if err != nil {
					t.Skip(err)
				}
				defer ix.Close()
				for b := 0; b < len(docs); b += 100 {
					mustUpsert(t, ix, docs[b:b+100]...)
				}
				var changed []index.Doc
				for i := 0; i < len(docs); i += 7 {
					d := docs[len(docs)-1-i]
					d.Body = docs[i].Body
					changed = append(changed, d)
				}
				mustUpsert(t, ix, changed...)
				var gone []string
				for i := 5; i < len(docs); i += 11 {
					gone = append(gone, docs[i].ID)
				}
				if _, err := ix.Remove(ctx, gone...); err != nil {
					t.Fatal(err)
				}
				for _, q := range queries {
					for _, m := range []index.Mode{index.ModeText, index.ModeAuto} {
						out[i] = append(out[i], search(t, ix, index.Request{Query: q, Mode: m, Limit: 50, Bare: true}))
					}
				}
			}
			for k, how := range []string{"by default", "with every word's holders from the bitmaps"} {
				for i, r := range out[2*k] {
					w := out[1][i]
					if r.Total != w.Total || len(r.Hits) != len(w.Hits) {
						t.Fatalf("query %d %s: total %d, %d hits; reading to the ends: %d, %d", i, how, r.Total, len(r.Hits), w.Total, len(w.Hits))
					}
					for j := range r.Hits {
						if r.Hits[j].ID != w.Hits[j].ID || r.Hits[j].Score != w.Hits[j].Score {
							t.Fatalf("query %d %s, hit %d: %s %v; reading to the ends: %s %v", i, how, j, r.Hits[j].ID, r.Hits[j].Score, w.Hits[j].ID, w.Hits[j].Score)
						}
					}
				}
			}
		})
	}
}
