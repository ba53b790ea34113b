package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// --lang picks the language of a new index, which stats shows and every
// later command keeps; another language is refused with how to change it.
func TestLang(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"docs.jsonl":     `{"id":"a","title":"Les chevaux","body":"Les chevaux mangeaient près des maisons."}` + "\n",
		"notes/ferme.md": "# La ferme\n\nUn cheval mangeait des pommes.\n",
	})
	twindex(t, dir, "index", "--jsonl", "docs.jsonl", "--index", "idx", "--lang", "fr").want(t, 0)
	r := twindex(t, dir, "stats", "--index", "idx").want(t, 0)
	if !regexp.MustCompile(`(?m)^language\s+fr$`).MatchString(r.stdout) {
		t.Errorf("stats:\n%s", r.stdout)
	}
	r = twindex(t, dir, "stats", "--json", "--index", "idx").want(t, 0)
	var st struct {
		Language string `json:"language"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.Language != "fr" {
		t.Errorf("stats --json: %v %s", err, r.stdout)
	}
	for _, lang := range []string{"", "fr"} {
		args := []string{"cheval", "--index", "idx", "--mode", "text", "--fallback", "0"}
		if lang != "" {
			args = append(args, "--lang", lang)
		}
		equal(t, searchIDs(t, dir, 0, args...), []string{"a"})
	}
	r = twindex(t, dir, "search", "cheval", "--index", "idx", "--lang", "en").want(t, 3)
	if !strings.Contains(r.stderr, "the index is in fr, not en") || !strings.Contains(r.stderr, "index again with --lang") {
		t.Errorf("search --lang en of a French index:\n%s", r.stderr)
	}
	twindex(t, dir, "index", "--jsonl", "docs.jsonl", "--index", "idx", "--lang", "en").want(t, 3)
	r = twindex(t, dir, "index", "--jsonl", "docs.jsonl", "--index", "new", "--lang", "de").want(t, 2)
	if !strings.Contains(r.stderr, "want one of en, es, fr, hu, no, ru, sv") {
		t.Errorf("--lang de:\n%s", r.stderr)
	}

	// A search that builds the index of a folder builds it in --lang.
	equal(t, searchIDs(t, dir, 0, "chevaux", "notes", "--index", "notes-idx", "--lang", "fr", "--mode", "text", "--fallback", "0"), []string{"ferme.md"})
	equal(t, searchIDs(t, dir, 1, "chevaux", "notes", "--index", "en-idx", "--mode", "text", "--fallback", "0"), nil)
}

// A server owns the index: --lang is checked against the language it
// reports.
func TestLangServed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ferme.md": "# La ferme\n\nLes chevaux mangeaient des pommes.\n"})
	twindex(t, dir, "index", "--lang", "fr", ".").want(t, 0)
	serve(t, dir)
	equal(t, searchIDs(t, dir, 0, "cheval", "--lang", "fr", "--mode", "text", "--fallback", "0"), []string{"ferme.md"})
	r := twindex(t, dir, "search", "cheval", "--lang", "en").want(t, 3)
	if !strings.Contains(r.stderr, "the index is in fr, not en") {
		t.Errorf("search --lang en of a served French index:\n%s", r.stderr)
	}
}

// serve and mcp build a new index in --lang, and refuse a language other
// than that of the index they open or forward to.
func TestLangServeMCP(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"ferme.md": "# La ferme\n\nLes chevaux mangeaient des pommes.\n"})
	s := serve(t, dir, "--lang", "fr")
	equal(t, searchIDs(t, dir, 0, "cheval", "--mode", "text", "--fallback", "0"), []string{"ferme.md"})
	r := twindex(t, dir, "stats", "--json").want(t, 0)
	var st struct {
		Language string `json:"language"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.Language != "fr" {
		t.Errorf("stats of the index serve --lang fr built: %v\n%s", err, r.stdout)
	}
	// An agent that forwards to the server is told its language is not the
	// index's before it serves a request.
	r = twindex(t, dir, "mcp", "--lang", "en").want(t, 3)
	if !strings.Contains(r.stderr, "the index is in fr, not en") {
		t.Errorf("mcp --lang en beside a French server:\n%s", r.stderr)
	}
	s.stop(t)

	r = twindex(t, dir, "serve", "--lang", "en").want(t, 3)
	if !strings.Contains(r.stderr, "the index is in fr, not en") {
		t.Errorf("serve --lang en of a French index:\n%s", r.stderr)
	}
	r = twindex(t, dir, "mcp", "--lang", "en").want(t, 3)
	if !strings.Contains(r.stderr, "the index is in fr, not en") {
		t.Errorf("mcp --lang en of a French index:\n%s", r.stderr)
	}
	twindex(t, dir, "serve", "--lang", "de").want(t, 2)
	twindex(t, t.TempDir(), "serve", "--node", "n1", "--index", "data", "--http", "127.0.0.1:0", "--lang", "fr").want(t, 2)
}
