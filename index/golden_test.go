package index_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/twindex/twindex/index"
)

var update = flag.Bool("update", false, "rewrite golden files under ../testdata")

type goldenQuery struct {
	Query string   `json:"query"`
	Mode  string   `json:"mode,omitempty"`
	Kinds []string `json:"kinds,omitempty"`
	Under string   `json:"under,omitempty"`
	Order string   `json:"order,omitempty"`
}

type goldenHit struct {
	ID        string   `json:"id"`
	MatchedIn []string `json:"matchedIn"`
	Field     string   `json:"field"`
	Snippet   string   `json:"snippet"`
}

type goldenResult struct {
	goldenQuery
	Total int         `json:"total"`
	Hits  []goldenHit `json:"hits"`
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	return out
}

// TestGolden runs testdata/golden's requests against its corpus on every
// backend and compares hits, order, snippets and totals with results.json.
func TestGolden(t *testing.T) {
	dir := filepath.Join("..", "testdata", "golden")
	docs := readJSONL[index.Doc](t, filepath.Join(dir, "docs.jsonl"))
	queries := readJSONL[goldenQuery](t, filepath.Join(dir, "queries.jsonl"))
	want, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil && !*update {
		t.Fatal(err)
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		var results []goldenResult
		for _, q := range queries {
			r := search(t, ix, index.Request{Query: q.Query, Mode: index.Mode(q.Mode), Kinds: q.Kinds, Under: q.Under, Order: index.Order(q.Order)})
			g := goldenResult{goldenQuery: q, Total: r.Total, Hits: []goldenHit{}}
			for _, h := range r.Hits {
				g.Hits = append(g.Hits, goldenHit{h.ID, h.MatchedIn, h.Field, h.Snippet})
			}
			results = append(results, g)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // snippets are read by people in diffs
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			t.Fatal(err)
		}
		got := buf.Bytes()
		if *update {
			if err := os.WriteFile(filepath.Join(dir, "results.json"), got, 0o644); err != nil {
				t.Fatal(err)
			}
			want = got
			return
		}
		if !bytes.Equal(got, want) {
			t.Errorf("results differ from %s (go test ./index -run TestGolden -update to accept); got:\n%s", filepath.Join(dir, "results.json"), got)
		}
	})
}
