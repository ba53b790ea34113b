package server

import (
	"strings"
	"testing"
)

// The search tool's syntax, fuzzy and fallback arguments.
func TestMCPSearchSyntaxAndTolerance(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(
		object{"id": "a", "body": "the configuration parser reads lemon files"},
		object{"id": "b", "body": "a parser of tokens"},
	)
	var out searchOutput
	mt.ok("search", object{"query": "pars* NOT lemon", "syntax": "raw", "mode": "text"}, &out)
	if len(out.Hits) != 1 || out.Hits[0].ID != "b" {
		t.Errorf("raw: %+v", out.Hits)
	}
	res := mt.call("search", object{"query": "parser AND", "syntax": "raw"})
	if !res.IsError || !strings.Contains(resultText(res), "^") || !strings.Contains(resultText(res), "parser AND") {
		t.Errorf("raw syntax error: %s", resultText(res))
	}
	for _, bad := range []object{{"syntax": "regex"}, {"fuzzy": "3"}, {"fallback": -1}} {
		bad["query"] = "x"
		if res := mt.call("search", bad); !res.IsError {
			t.Errorf("%v accepted", bad)
		}
	}
	out = searchOutput{}
	mt.ok("search", object{"query": "parsre ", "fuzzy": "1", "mode": "text"}, &out)
	if !out.Tolerant || len(out.Hits) != 2 || out.Hits[0].MatchedIn[0] != "fuzzy" {
		t.Errorf("fuzzy: %+v", out)
	}
	out = searchOutput{}
	mt.ok("search", object{"query": "lemno ", "mode": "text", "fallback": 0}, &out)
	if out.Total != 0 {
		t.Errorf("fallback 0: %+v", out)
	}
	out = searchOutput{}
	res = mt.ok("search", object{"query": "lmeno"}, &out)
	if out.Total != 0 || out.DidYouMean != "lemon" || !strings.Contains(resultText(res), `Did you mean "lemon"?`) {
		t.Errorf("did you mean: %+v %s", out, resultText(res))
	}
}

func TestMCPBacklinks(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(
		object{"id": "a", "body": "x", "links": []object{{"to": "b", "type": "imports"}}},
		object{"id": "c", "body": "y", "links": []object{{"to": "b", "type": "mentions"}}},
	)
	var out backlinksOutput
	mt.ok("backlinks", object{"id": "b", "types": []string{"imports"}}, &out)
	if len(out.Backlinks) != 1 || out.Backlinks[0].From != "a" {
		t.Errorf("backlinks: %+v", out)
	}
	if res := mt.call("backlinks", object{"id": ""}); !res.IsError {
		t.Error("empty id accepted")
	}
	var g getOutput
	mt.ok("get", object{"ids": []string{"a"}}, &g)
	if len(g.Documents) != 1 || len(g.Documents[0].Links) != 1 || g.Documents[0].Links[0].To != "b" {
		t.Errorf("get: %+v", g)
	}
}

func TestMCPSearchExpand(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(
		object{"id": "a", "body": "parser", "links": []object{{"to": "b", "type": "imports"}}},
		object{"id": "b", "body": "lexer"},
	)
	var out searchOutput
	mt.ok("search", object{"query": "parser ", "expand": 1, "fallback": 0}, &out)
	if out.Total != 2 || len(out.Hits) != 2 || out.Hits[1].Via == nil || out.Hits[1].Via.Seed != "a" || out.Hits[0].Norm != 1 {
		t.Errorf("expand: %+v", out)
	}
	if res := mt.call("search", object{"query": "x", "expand": 9}); !res.IsError {
		t.Error("expand 9 accepted")
	}
}
