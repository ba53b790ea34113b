package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The CLI's --syntax, --fuzzy and --fallback, through the real binary.
func TestSearchSyntaxAndTolerance(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.md": "the configuration parser reads lemon files",
		"b.md": "a parser of tokens",
		"c.md": "configuration only",
	})
	// Raw syntax: boolean operators and prefixes.
	equal(t, searchIDs(t, dir, 0, "--syntax", "raw", "--mode", "text", "pars* NOT lemon"), []string{"b.md"})
	equal(t, searchIDs(t, dir, 0, "--syntax", "raw", "--mode", "text", "configuration OR tokens"), []string{"a.md", "b.md", "c.md"})
	// A malformed raw query: exit 2, the message and a caret under the bad part.
	r := twindex(t, dir, "search", "--syntax", "raw", "parser AND").want(t, 2)
	if !strings.Contains(r.stderr, "parser AND\n") || !strings.Contains(r.stderr, "^") {
		t.Errorf("no caret in:\n%s", r.stderr)
	}
	// In simple syntax the same text is literal.
	twindex(t, dir, "search", "parser AND", "--mode", "substring").want(t, 1)
	twindex(t, dir, "search", "x", "--syntax", "regex").want(t, 2)
	twindex(t, dir, "search", "x", "--fuzzy", "3").want(t, 2)
	twindex(t, dir, "search", "x", "--fallback", "-1").want(t, 2)

	// Fuzzy: the typo finds the word, marked fuzzy, after exact hits.
	r = twindex(t, dir, "search", "--json", "--mode", "text", "--fuzzy", "auto", "parsre ").want(t, 0)
	var res jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Tolerant || len(res.Hits) != 2 {
		t.Fatalf("fuzzy: %s", r.stdout)
	}
	for _, h := range res.Hits {
		if strings.Join(h.MatchedIn, ",") != "fuzzy" {
			t.Errorf("%s matchedIn %v", h.ID, h.MatchedIn)
		}
	}
	// The heading (a terminal's layout) says so; a pipe's path:line:text
	// has no room for it.
	r = twindex(t, dir, "search", "--heading", "--mode", "text", "--fuzzy", "auto", "parsre ").want(t, 0)
	if !strings.Contains(r.stdout, "(fuzzy)") {
		t.Errorf("text output does not mark fuzzy hits:\n%s", r.stdout)
	}
	// --fallback 0: exact only; the default adds the typo's matches.
	twindex(t, dir, "search", "--mode", "text", "--fallback", "0", "lemno ").want(t, 1)
	equal(t, searchIDs(t, dir, 0, "--mode", "text", "lemno "), []string{"a.md"})

	// Nothing near enough: exit 1 with a suggestion.
	r = twindex(t, dir, "search", "lmeno").want(t, 1)
	if !strings.Contains(r.stderr, "did you mean: lemon") {
		t.Errorf("no suggestion:\n%s", r.stderr)
	}
	r = twindex(t, dir, "search", "--json", "lmeno").want(t, 1)
	if !strings.Contains(r.stdout, `"didYouMean": "lemon"`) {
		t.Errorf("no didYouMean in json:\n%s", r.stdout)
	}
}

// links and backlinks through the real binary, from JSONL links.
func TestLinksCommands(t *testing.T) {
	dir := t.TempDir()
	ixDir := dir + "/ix"
	jsonl := `{"id": "main.go", "body": "package main", "links": [{"to": "util.go", "type": "imports"}, {"to": "todo.md", "type": "mentions"}]}
{"id": "util.go", "body": "package util"}
{"id": "bad", "links": [{"to": ""}]}
`
	r := twindexIn(t, dir, jsonl, "index", "--index", ixDir, "--jsonl", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "link to") {
		t.Fatalf("bad link line: exit %d\n%s", r.code, r.stderr)
	}
	r = twindex(t, dir, "links", "--index", ixDir, "main.go").want(t, 0)
	if r.stdout != "util.go\timports\ntodo.md\tmentions\n" {
		t.Errorf("links:\n%s", r.stdout)
	}
	r = twindex(t, dir, "backlinks", "--index", ixDir, "util.go", "--format", "json").want(t, 0)
	var out struct {
		ID        string `json:"id"`
		Backlinks []struct{ ID, Type string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Backlinks) != 1 || out.Backlinks[0].ID != "main.go" {
		t.Errorf("backlinks json: %v\n%s", err, r.stdout)
	}
	twindex(t, dir, "backlinks", "--index", ixDir, "util.go", "--type", "mentions").want(t, 1)
	twindex(t, dir, "backlinks", "--index", ixDir, "todo.md").want(t, 0)
	twindex(t, dir, "links", "--index", ixDir, "nope").want(t, 1)
}
