package index_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/tokenize"
)

var ctx = context.Background()

// openDisk opens an on-disk index in a temporary directory; nil in
// builds without on-disk indexes (js/wasm).
var openDisk func(t *testing.T, opts *index.Options) *index.Index

// backends runs f on a memory index of each backend this build has and,
// where available, an on-disk one.
func backends(t *testing.T, f func(t *testing.T, ix *index.Index)) {
	t.Helper()
	for _, be := range []string{"scorch", "upsidedown", "compact", "disk"} {
		t.Run(be, func(t *testing.T) {
			var ix *index.Index
			if be == "disk" {
				if openDisk == nil {
					t.Skip("no on-disk indexes in this build")
				}
				ix = openDisk(t, nil)
			} else {
				var err error
				ix, err = index.OpenMemory(&index.Options{Backend: index.Backend(be)})
				if errors.Is(err, index.ErrBackend) {
					t.Skipf("no %s backend in this build", be)
				}
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { ix.Close() })
			}
			f(t, ix)
		})
	}
}

func mustUpsert(t *testing.T, ix *index.Index, docs ...index.Doc) {
	t.Helper()
	if err := ix.Upsert(ctx, docs...); err != nil {
		t.Fatal(err)
	}
}

func search(t testing.TB, ix *index.Index, req index.Request) *index.Result {
	t.Helper()
	r, err := ix.Search(ctx, req)
	if err != nil {
		t.Fatalf("Search(%+v): %v", req, err)
	}
	return r
}

func ids(r *index.Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.ID)
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

var corpus = []index.Doc{
	{ID: "auth", Kind: "code", Title: "auth.go", Body: "OAuth flow: getUserById authenticates the user", Parent: "src", Tags: []string{"go", "security"}, Project: "api", Time: day(1)},
	{ID: "readme", Kind: "doc", Title: "README", Body: "Running the server requires authentication.", Parent: "", Tags: []string{"docs"}, Project: "api", Time: day(2)},
	{ID: "xml", Kind: "code", Title: "parser.go", Body: "XMLParser reads bufio.Scanner tokens; snake_case_name and kebab-case-name", Parent: "src/xml", Project: "web", Role: "owner", Time: day(3)},
	{ID: "src", Kind: "dir", Title: "src", Parent: ""},
	{ID: "src/xml", Kind: "dir", Title: "xml", Parent: "src"},
	{ID: "cafe", Kind: "doc", Title: "Café menu", Body: "Crème brûlée and Straße; привет мир", Time: day(4)},
	{ID: "io", Kind: "code", Title: "io.go", Body: "package io provides basic interfaces to I/O primitives", Parent: "src", Time: day(5)},
}

func day(n int) time.Time { return time.Date(2026, 1, n, 12, 0, 0, 0, time.UTC) }

func TestSearchSemantics(t *testing.T) {
	cases := []struct {
		name  string
		query string
		mode  index.Mode
		want  []string // exact set of hits
	}{
		{"stemming authenticated finds authentication", "authenticated", index.ModeText, []string{"auth", "readme"}},
		{"stemming running finds Running", "run", index.ModeText, []string{"readme"}},
		{"camelCase part", "user id", index.ModeText, []string{"auth"}},
		{"whole identifier", "getUserById", index.ModeText, []string{"auth"}},
		{"acronym part", "parser", index.ModeText, []string{"xml"}},
		{"dotted part", "scanner", index.ModeText, []string{"xml"}},
		{"snake part", "name", index.ModeText, []string{"xml"}},
		{"diacritics folded, text", "creme brulee", index.ModeText, []string{"cafe"}},
		{"cyrillic word", "привет", index.ModeText, []string{"cafe"}},
		{"substring inside a word", "auth", index.ModeSubstring, []string{"auth", "readme"}},
		{"substring across a space", `"h fl"`, index.ModeSubstring, []string{"auth"}},
		{"substring case-insensitive", "OAUTH", index.ModeSubstring, []string{"auth"}},
		{"substring diacritics folded", "strasse", index.ModeSubstring, nil},
		{"substring folded accents", "creme", index.ModeSubstring, []string{"cafe"}},
		{"substring all terms required", "auth server", index.ModeSubstring, []string{"readme"}},
		{"substring two-char term exact", "io", index.ModeSubstring, []string{"io", "readme", "xml"}}, // bufio, authentication
		{"substring one-char term with a long one", "u flow", index.ModeSubstring, []string{"auth"}},
		{"substring punctuation literal", "bufio.Scanner", index.ModeSubstring, []string{"xml"}},
		{"substring kebab literal", "kebab-case", index.ModeSubstring, []string{"xml"}},
		{"substring title only", "menu", index.ModeSubstring, []string{"cafe"}},
		{"auto unions legs", "authenticated", index.ModeAuto, []string{"auth", "readme"}},
		{"auto finds substrings text cannot", "thenti", index.ModeAuto, []string{"auth", "readme"}},
		{"no match", "zebra", index.ModeAuto, nil},
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, corpus...)
		for _, c := range cases {
			r := search(t, ix, index.Request{Query: c.query, Mode: c.mode})
			if got, want := sorted(ids(r)), sorted(c.want); !slices.Equal(got, want) {
				t.Errorf("%s: %q in %s = %v, want %v", c.name, c.query, c.mode, got, want)
			}
			if r.Total != len(r.Hits) {
				t.Errorf("%s: Total %d, %d hits", c.name, r.Total, len(r.Hits))
			}
		}
	})
}

func TestBothLegsOutrankOne(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "one", Body: "configuration of servers"},    // text and substring
			index.Doc{ID: "two", Body: "reconfigurationless widgets"}, // substring only
		)
		r := search(t, ix, index.Request{Query: "configuration", Explain: true})
		if got := ids(r); !slices.Equal(got, []string{"one", "two"}) {
			t.Fatalf("hits %v, want [one two]", got)
		}
		if got := r.Hits[0].MatchedIn; !slices.Equal(got, []string{"substring", "text"}) {
			t.Errorf("matchedIn %v", got)
		}
		if e := r.Hits[0].Explain; e == nil || e.K != 60 || len(e.Legs) != 2 {
			t.Errorf("explain %+v", e)
		}
		if r.Hits[0].Score <= r.Hits[1].Score {
			t.Errorf("scores %v <= %v", r.Hits[0].Score, r.Hits[1].Score)
		}
	})
}

func TestAllTermsFirst(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix,
			index.Doc{ID: "a", Body: "cache cache cache cache cache invalidation is hard"},
			index.Doc{ID: "b", Body: "cache eviction policy and invalidation timers"},
			index.Doc{ID: "c", Body: "timers"},
		)
		r := search(t, ix, index.Request{Query: "cache eviction timers", Mode: index.ModeText})
		if got := ids(r); len(got) != 3 || got[0] != "b" {
			t.Errorf("hits %v, want b (all three words) first of 3", got)
		}
	})
}

func TestUpdateAndRemoveReachBothLegs(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, index.Doc{ID: "d", Title: "alphabetical listing", Body: "zebra"})
		mustUpsert(t, ix, index.Doc{ID: "d", Title: "numerical ordering", Body: "zebra"})
		for _, m := range []index.Mode{index.ModeText, index.ModeSubstring, index.ModeAuto} {
			if r := search(t, ix, index.Request{Query: "alphabetical", Mode: m}); r.Total != 0 {
				t.Errorf("%s: old title still found: %v", m, ids(r))
			}
			if r := search(t, ix, index.Request{Query: "numerical", Mode: m}); r.Total != 1 {
				t.Errorf("%s: new title not found", m)
			}
		}
		if n, _ := ix.Count(); n != 1 {
			t.Errorf("Count %d after update", n)
		}
		if n, err := ix.Remove(ctx, "d", "never-existed"); n != 1 || err != nil {
			t.Fatalf("Remove = %d, %v", n, err)
		}
		for _, m := range []index.Mode{index.ModeText, index.ModeSubstring, index.ModeAuto} {
			if r := search(t, ix, index.Request{Query: "zebra", Mode: m}); r.Total != 0 {
				t.Errorf("%s: removed doc found", m)
			}
		}
		if _, err := ix.Get("d"); !errors.Is(err, index.ErrNotFound) {
			t.Errorf("Get removed = %v", err)
		}
		rep, err := ix.Check(ctx)
		if err != nil || !rep.OK() {
			t.Errorf("Check: %v\n%s", err, rep)
		}
	})
}

func TestFilters(t *testing.T) {
	cases := []struct {
		name string
		req  index.Request
		want []string
	}{
		{"no filter", index.Request{}, []string{"auth", "cafe", "io", "readme", "xml"}},
		{"kind", index.Request{Kinds: []string{"doc"}}, []string{"cafe", "readme"}},
		{"kinds any of", index.Request{Kinds: []string{"doc", "code"}}, []string{"auth", "cafe", "io", "readme", "xml"}},
		{"project", index.Request{Projects: []string{"web"}}, []string{"xml"}},
		{"tags any of", index.Request{Tags: []string{"security", "docs"}}, []string{"auth", "readme"}},
		{"role", index.Request{Role: "owner"}, []string{"xml"}},
		{"ids", index.Request{IDs: []string{"io", "cafe", "nope"}}, []string{"cafe", "io"}},
		{"subtree, any depth", index.Request{Under: "src"}, []string{"auth", "io", "xml"}},
		{"subtree leaf", index.Request{Under: "src/xml"}, []string{"xml"}},
		{"since inclusive", index.Request{Since: day(3)}, []string{"cafe", "io", "xml"}},
		{"until exclusive", index.Request{Until: day(3)}, []string{"auth", "readme"}},
		{"since and until", index.Request{Since: day(2), Until: day(4)}, []string{"readme", "xml"}},
		{"combined", index.Request{Kinds: []string{"code"}, Under: "src", Since: day(2)}, []string{"io", "xml"}},
		{"selective filter keeps matches", index.Request{IDs: []string{"io"}, Limit: 1}, []string{"io"}},
	}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, corpus...)
		for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
			for _, c := range cases {
				req := c.req
				// "e" is in every searched doc's text; the words are one of each.
				req.Query, req.Mode = "e", m
				if m == index.ModeText {
					req.Query = "flow menu package server parser"
				}
				r := search(t, ix, req)
				want := c.want
				if got := sorted(ids(r)); !slices.Equal(got, sorted(want)) {
					t.Errorf("%s/%s: %v, want %v", m, c.name, got, want)
				}
			}
		}
	})
}

func TestOrderByDate(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, corpus...)
		r := search(t, ix, index.Request{Query: "e", Order: index.OrderDateDesc})
		if got := ids(r); !slices.Equal(got, []string{"io", "cafe", "xml", "readme", "auth"}) {
			t.Errorf("date_desc %v", got)
		}
		r = search(t, ix, index.Request{Query: "e", Order: index.OrderDateAsc})
		if got := ids(r); !slices.Equal(got, []string{"auth", "readme", "xml", "cafe", "io"}) {
			t.Errorf("date_asc %v", got)
		}
	})
}

func TestPagingIsStable(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		var docs []index.Doc
		for i := range 57 {
			// Many equal scores, so ties must be broken by ID.
			docs = append(docs, index.Doc{ID: fmt.Sprintf("d%02d", i), Body: "shared words here " + strings.Repeat("x ", i%3)})
		}
		mustUpsert(t, ix, docs...)
		for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
			all := search(t, ix, index.Request{Query: "shared words", Mode: m, Limit: 100})
			var paged []string
			next := new(int)
			for next != nil {
				r := search(t, ix, index.Request{Query: "shared words", Mode: m, Limit: 10, Offset: *next})
				if r.Total != 57 {
					t.Fatalf("%s: Total %d", m, r.Total)
				}
				paged = append(paged, ids(r)...)
				next = r.NextOffset
			}
			if !slices.Equal(paged, ids(all)) {
				t.Errorf("%s: pages %v != whole %v", m, paged, ids(all))
			}
		}
	})
}

func TestSnippetEscapesHTML(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, index.Doc{ID: "x", Title: "<b>t</b>", Body: `<script>alert("pwn")</script> & the payload <img src=x onerror=alert(1)>`})
		for _, m := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
			r := search(t, ix, index.Request{Query: "payload", Mode: m})
			if len(r.Hits) != 1 {
				t.Fatalf("%s: %d hits", m, len(r.Hits))
			}
			s := r.Hits[0].Snippet
			stripped := strings.ReplaceAll(strings.ReplaceAll(s, "<mark>", ""), "</mark>", "")
			if strings.ContainsAny(stripped, "<>") {
				t.Errorf("%s: unescaped markup in %q", m, s)
			}
			if !strings.Contains(s, "<mark>payload</mark>") || !strings.Contains(s, "&lt;script&gt;") {
				t.Errorf("%s: snippet %q", m, s)
			}
			if r.Hits[0].Field != "body" {
				t.Errorf("%s: field %q", m, r.Hits[0].Field)
			}
		}
		r := search(t, ix, index.Request{Query: "payload", MarkStart: "[", MarkEnd: "]"})
		if !strings.Contains(r.Hits[0].Snippet, "[payload]") {
			t.Errorf("custom markers: %q", r.Hits[0].Snippet)
		}
	})
}

func TestSnippetWindow(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		body := strings.Repeat("filler words go here ", 100) + "the needle sits in the middle " + strings.Repeat("more filler text ", 100)
		mustUpsert(t, ix, index.Doc{ID: "long", Title: "long", Body: body})
		r := search(t, ix, index.Request{Query: "needle"})
		s := r.Hits[0].Snippet
		if !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") || !strings.Contains(s, "<mark>needle</mark>") {
			t.Errorf("snippet %q", s)
		}
		if n := len(strings.Fields(s)); n < 20 || n > 60 {
			t.Errorf("snippet of %d words: %q", n, s)
		}
		r = search(t, ix, index.Request{Query: "long", Mode: index.ModeSubstring})
		if r.Hits[0].Field != "title" || r.Hits[0].Snippet != "<mark>long</mark>" {
			t.Errorf("title match: field %q snippet %q", r.Hits[0].Field, r.Hits[0].Snippet)
		}
	})
}

func TestBadRequests(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, corpus...)
		for _, q := range []string{"", "   ", "\t\n", `""`} {
			if _, err := ix.Search(ctx, index.Request{Query: q}); !errors.Is(err, index.ErrEmptyQuery) {
				t.Errorf("query %q: %v, want ErrEmptyQuery", q, err)
			}
		}
		for name, req := range map[string]index.Request{
			"mode":     {Query: "x", Mode: "fuzzy"},
			"order":    {Query: "x", Order: "random"},
			"limit":    {Query: "x", Limit: 101},
			"negative": {Query: "x", Limit: -1},
			"offset":   {Query: "x", Offset: -5},
			"deep":     {Query: "x", Offset: index.MaxOffset + 1},
			"deepest":  {Query: "x", Offset: math.MaxInt - 5},
			"dates":    {Query: "x", Since: day(5), Until: day(1)},
			"long":     {Query: strings.Repeat("x", index.MaxQueryBytes+1)},
			"terms":    {Query: strings.Repeat("x ", index.MaxQueryTerms+1)},
		} {
			if _, err := ix.Search(ctx, req); !errors.Is(err, index.ErrInvalidRequest) {
				t.Errorf("%s: %v, want ErrInvalidRequest", name, err)
			}
		}
		// Refused, they left the index as it was.
		if r := search(t, ix, index.Request{Query: "reader"}); r.Total == 0 {
			t.Error("after the bad requests, a search finds nothing")
		}
	})
}

// TestPagesPastTheEnd checks that a page past the last match, up to the
// deepest offset a request may ask, is empty with the total of the first,
// in every mode, order and page size, and that its search allocates what
// the first page's does, not memory in proportion to the offset: a
// request's offset once sized the fused list (an offset of 2^40 ran the
// process out of memory) and its sums overflowed past math.MaxInt (a
// panic that marked the index damaged).
func TestPagesPastTheEnd(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, corpus...)
		for _, req := range []index.Request{
			{Query: "reader"}, {Query: "read", Mode: index.ModeText}, {Query: "ead", Mode: index.ModeSubstring},
			{Query: "reader", Order: index.OrderDateDesc}, {Query: "reader", Bare: true, Limit: index.MaxBareLimit},
			{Query: "reader", Expand: &index.Expand{Depth: 1}},
		} {
			first := search(t, ix, req)
			for _, off := range []int{first.Total, first.Total + 1, 1 << 20, index.MaxOffset} {
				req.Offset = off
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				r := search(t, ix, req)
				runtime.ReadMemStats(&after)
				if r.Total != first.Total || len(r.Hits) != 0 || r.NextOffset != nil {
					t.Errorf("%+v: total %d, %d hits, next %v; want total %d and no hits", req, r.Total, len(r.Hits), r.NextOffset, first.Total)
				}
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
					t.Errorf("%+v: the search allocated %d MiB", req, alloc>>20)
				}
			}
		}
	})
}

func TestInvalidDocs(t *testing.T) {
	ix, err := index.OpenMemory(&index.Options{MaxDocBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for name, d := range map[string]index.Doc{
		"empty id":    {},
		"long id":     {ID: strings.Repeat("x", index.MaxIDBytes+1)},
		"nul in id":   {ID: "a\x00b"},
		"invalid id":  {ID: "a\xffb"},
		"oversize":    {ID: "big", Body: strings.Repeat("x", 101)},
		"nul, parent": {ID: "p", Parent: "a\x00"},
	} {
		if err := ix.Upsert(ctx, index.Doc{ID: "ok"}, d); !errors.Is(err, index.ErrInvalidDoc) {
			t.Errorf("%s: %v, want ErrInvalidDoc", name, err)
		}
	}
	if n, _ := ix.Count(); n != 0 {
		t.Errorf("a batch with a bad doc wrote %d docs", n)
	}
	if err := ix.Add(ctx, index.Doc{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Add(ctx, index.Doc{ID: "b"}, index.Doc{ID: "a"}); !errors.Is(err, index.ErrExists) {
		t.Errorf("Add existing: %v", err)
	}
	if n, _ := ix.Count(); n != 1 {
		t.Errorf("failed Add wrote: count %d", n)
	}
}

// TestSubstringMatchesBruteForce checks the substring leg against a scan:
// a document matches iff every query term is a substring of its folded
// title or body.
func TestSubstringMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"Alpha", "beta", "GAMMA", "delta", "épée", "naïve", "x", "io", "getUserById", "snake_case", "a b", "über", "ß", "日本語", "foo.bar"}
	var docs []index.Doc
	for i := range 200 {
		var title, body []string
		for range 1 + rng.IntN(3) {
			title = append(title, words[rng.IntN(len(words))])
		}
		for range rng.IntN(12) {
			body = append(body, words[rng.IntN(len(words))])
		}
		docs = append(docs, index.Doc{ID: fmt.Sprint(i), Title: strings.Join(title, " "), Body: strings.Join(body, " ")})
	}
	queries := []string{"alpha", "pha bet", "a", "io", "x io", "EPEE", "naive", "user", "e_c", "日本", "本", "ss", "ta ga", `"a b"`, `"ha be"`, "foo.", "r", "zz"}
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, docs...)
		for _, q := range queries {
			terms := strings.Fields(q)
			if strings.HasPrefix(q, `"`) {
				terms = []string{strings.Trim(q, `"`)}
			}
			var want []string
			for _, d := range docs {
				ft, fb := tokenize.Fold(d.Title), tokenize.Fold(d.Body)
				ok := true
				for _, term := range terms {
					f := tokenize.Fold(term)
					if !strings.Contains(ft, f) && !strings.Contains(fb, f) {
						ok = false
					}
				}
				if ok {
					want = append(want, d.ID)
				}
			}
			var got []string
			for next := new(int); next != nil; {
				r := search(t, ix, index.Request{Query: q, Mode: index.ModeSubstring, Limit: 100, Offset: *next})
				got = append(got, ids(r)...)
				next = r.NextOffset
				if r.Total != len(want) {
					t.Errorf("%q: Total %d, want %d", q, r.Total, len(want))
				}
			}
			if !slices.Equal(sorted(got), sorted(want)) {
				t.Errorf("%q: %d hits, want %d", q, len(got), len(want))
			}
		}
	})
}

func TestOptimizeMemoryReturns(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		mustUpsert(t, ix, corpus...)
		done := make(chan error, 1)
		go func() { done <- ix.Optimize(ctx) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Optimize did not return")
		}
		if r := search(t, ix, index.Request{Query: "authenticated"}); r.Total != 2 {
			t.Errorf("after Optimize: %v", ids(r))
		}
	})
}

func TestWalkMeta(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		docs := slices.Clone(corpus)
		docs[0].Meta = map[string]string{"sha": "abc", "size": "12"}
		docs[2].Meta = map[string]string{"size": "", "other": "x"}
		mustUpsert(t, ix, docs...)
		got := map[string][2]string{}
		var order []string
		err := ix.WalkMeta(ctx, []string{"size", "sha"}, func(id []byte, vals [][]byte) error {
			order = append(order, string(id))
			var v [2]string
			for i, b := range vals {
				v[i] = "nil"
				if b != nil {
					v[i] = fmt.Sprintf("%q", b)
				}
			}
			got[string(id)] = v
			return nil
		})
		if err != nil || len(got) != len(corpus) || !slices.IsSorted(order) {
			t.Fatalf("WalkMeta: %d docs in order %q, %v", len(got), order, err)
		}
		// A value held but empty is not nil.
		for id, want := range map[string][2]string{"auth": {`"12"`, `"abc"`}, "xml": {`""`, "nil"}, "io": {"nil", "nil"}} {
			if got[id] != want {
				t.Errorf("%s: %v, want %v", id, got[id], want)
			}
		}
		stop := errors.New("stop")
		n := 0
		if err := ix.WalkMeta(ctx, nil, func([]byte, [][]byte) error { n++; return stop }); err != stop || n != 1 {
			t.Errorf("WalkMeta returned %v after %d calls, want the callback's error after one", err, n)
		}
	})
}

// A bare search lists more hits than a page holds, in the order and with
// the fields a search's pages give, without their text; with Lines, it
// counts their matching lines as the pages do and returns none.
func TestBareSearch(t *testing.T) {
	backends(t, func(t *testing.T, ix *index.Index) {
		n := index.MaxLimit + 50
		docs := make([]index.Doc, n)
		for i := range docs {
			docs[i] = index.Doc{ID: fmt.Sprintf("d%03d", i), Kind: "note", Title: fmt.Sprintf("note %d", i),
				Body: strings.Repeat("a pelican\n", 1+i%7) + fmt.Sprintf("number %d", i)}
		}
		mustUpsert(t, ix, docs...)
		for _, mode := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
			lines := &index.LineOptions{Max: 2}
			bare := search(t, ix, index.Request{Query: "pelican", Mode: mode, Bare: true, Limit: n})
			counted := search(t, ix, index.Request{Query: "pelican", Mode: mode, Bare: true, Limit: n, Lines: lines})
			var paged []index.Hit
			for off := 0; off < n; off += index.MaxLimit {
				paged = append(paged, search(t, ix, index.Request{Query: "pelican", Mode: mode, Limit: index.MaxLimit, Offset: off, Lines: lines}).Hits...)
			}
			if bare.Total != n || len(bare.Hits) != n || len(paged) != n || bare.NextOffset != nil || len(counted.Hits) != n {
				t.Fatalf("%s: bare total %d, %d hits (next %v), %d counted; pages gave %d", mode, bare.Total, len(bare.Hits), bare.NextOffset, len(counted.Hits), len(paged))
			}
			for i, h := range bare.Hits {
				p, c := paged[i], counted.Hits[i]
				if h.ID != p.ID || h.Score != p.Score || h.Kind != "note" || !slices.Equal(h.MatchedIn, p.MatchedIn) || c.ID != p.ID {
					t.Fatalf("%s: bare hit %d is %s (%g, %v), counted %s, the page's %s (%g, %v)", mode, i, h.ID, h.Score, h.MatchedIn, c.ID, p.ID, p.Score, p.MatchedIn)
				}
				if h.Title != "" || h.Snippet != "" || h.Line != 0 || h.MatchingLines != 0 || p.Title == "" || p.Snippet == "" {
					t.Fatalf("%s: bare hit %+v has text, or the page's %+v has none", mode, h, p)
				}
				if c.MatchingLines != p.MatchingLines || c.MatchingLines < 1 || c.Lines != nil || c.Title != "" || c.Snippet != "" || len(p.Lines) == 0 {
					t.Fatalf("%s: counted hit %+v, the page's %+v", mode, c, p)
				}
			}
		}
		for _, req := range []index.Request{
			{Query: "pelican", Limit: index.MaxLimit + 1},
			{Query: "pelican", Bare: true, Limit: index.MaxBareLimit + 1},
			{Query: "pelican", Bare: true, Rerank: 5},
		} {
			if _, err := ix.Search(ctx, req); !errors.Is(err, index.ErrInvalidRequest) {
				t.Errorf("%+v: %v, want ErrInvalidRequest", req, err)
			}
		}
	})
}
