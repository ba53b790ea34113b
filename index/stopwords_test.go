package index_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/twindex/twindex/index"
)

// A text-mode search whose every word is a stop word finds nothing, as
// the text index holds none, and says so and what finds it; other
// searches, and one of punctuation alone, do not get the warning.
func TestStopOnlyWarning(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, index.Doc{ID: "a", Body: "the state of the art reader"})
		warned := func(req index.Request) bool {
			t.Helper()
			res, err := ix.Search(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			return slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "stop word") })
		}
		for _, q := range []string{"the", `"of the"`, "the OR of"} {
			if !warned(index.Request{Query: q, Mode: index.ModeText}) {
				t.Errorf("text mode %s: no warning", q)
			}
		}
		for _, req := range []index.Request{
			{Query: "the reader", Mode: index.ModeText},
			{Query: "the zzqqx", Mode: index.ModeText},
			{Query: "the", Mode: index.ModeAuto},
			{Query: "the", Mode: index.ModeSubstring},
			{Query: "++", Mode: index.ModeText},
			{Query: "...", Mode: index.ModeText},
		} {
			if warned(req) {
				t.Errorf("%s in %s mode: warned", req.Query, req.Mode)
			}
		}
	})
}
