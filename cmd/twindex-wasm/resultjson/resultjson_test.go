package resultjson_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/cmd/twindex-wasm/resultjson"
	"github.com/twindex/twindex/fusion"
	"github.com/twindex/twindex/index"
)

// std is what encoding/json writes for r, as the page wrote it before.
func std(t testing.TB, r *resultjson.Result) ([]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func same(t testing.TB, r *resultjson.Result) {
	t.Helper()
	want, wantErr := std(t, r)
	got, err := r.AppendJSON([]byte("prefix"))
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("error %v, encoding/json's %v", err, wantErr)
	}
	if err != nil {
		if string(got) != "prefix" {
			t.Fatalf("appended %q with an error", got)
		}
		return
	}
	if !bytes.Equal(got[len("prefix"):], want) {
		t.Fatalf("got\n%s\nwant\n%s", got[len("prefix"):], want)
	}
}

// odd strings: every control character, quotes and backslashes, HTML
// characters (not escaped), invalid UTF-8, U+2028 and U+2029, runs of
// eight plain bytes and their edges.
var odd = func() []string {
	s := []string{"", "plain", "0123456789abcdef", `"`, `\`, `a"b\c`, "<mark>x</mark> & y", "\xff", "a\xc3", "\xe2\x80\xa8 \xe2\x80\xa9",
		"é ü 日本語 🙂", "12345678\"", "1234567\x7f8", "\x7f\x80", strings.Repeat("long plain text ", 40) + "\n"}
	for c := range 0x20 {
		s = append(s, fmt.Sprintf("abcdefgh%cijk", c), string(rune(c)))
	}
	return s
}()

func TestOddStrings(t *testing.T) {
	for _, s := range odd {
		same(t, &resultjson.Result{Query: s, Result: &index.Result{Mode: index.Mode(s), DidYouMean: s, Warnings: []string{s},
			Hits: []index.Hit{{ID: s, Kind: s, Title: s, Snippet: s, Field: s, Tags: []string{s, s}, Meta: map[string]string{s: s, "k": s}, MatchedIn: []string{s}}}}})
	}
}

func TestFloats(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1e22, 123456789.123, 0.016393442622950821,
		math.SmallestNonzeroFloat64, math.MaxFloat64, -1e-300, math.Inf(1), math.NaN(), math.Copysign(0, -1)} {
		same(t, &resultjson.Result{TookMs: f, Result: &index.Result{Hits: []index.Hit{{Score: f, Norm: -f}}}})
	}
}

// Random results with every field of a hit, set or not: the same bytes.
func TestRandomResults(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pick := func() string { return odd[r.IntN(len(odd))] }
	maybe := func() bool { return r.IntN(2) == 0 }
	for range 2000 {
		res := &index.Result{Mode: index.ModeAuto, Total: r.IntN(1000), Tolerant: maybe()}
		if maybe() {
			n := r.IntN(50)
			res.NextOffset = &n
		}
		if maybe() {
			res.DidYouMean = pick()
		}
		if maybe() {
			res.Partial = []int{r.IntN(4), r.IntN(4)}
		}
		if maybe() {
			res.Warnings = []string{}
		}
		if maybe() {
			res.Hits = []index.Hit{}
		}
		for range r.IntN(4) {
			h := index.Hit{ID: pick(), Field: pick(), Snippet: pick(), Score: r.Float64(), Norm: r.Float64() / 1e7,
				Line: r.IntN(3), Column: r.IntN(3), MatchingLines: r.IntN(3)}
			if maybe() {
				h.Kind, h.Title, h.Parent, h.Role, h.Project, h.Source = pick(), pick(), pick(), pick(), pick(), pick()
			}
			if maybe() {
				h.Tags = []string{pick()}
			}
			if maybe() {
				h.Time = time.Date(1900+r.IntN(200), 1, 1+r.IntN(28), r.IntN(24), 0, 0, r.IntN(1e9), time.FixedZone("z", 3600*r.IntN(5)))
			}
			if maybe() {
				h.Meta = map[string]string{pick(): pick(), pick(): pick()}
			}
			if maybe() {
				h.Lines = []index.Line{{N: r.IntN(100), Text: pick(), Match: maybe()}, {N: 1, Text: pick()}}
			}
			if maybe() {
				h.MatchedIn = []string{index.LegSubstring, index.LegText}
			}
			if maybe() {
				h.Via = &fusion.Via{Seed: pick(), From: pick(), Hops: 1, Incoming: maybe()}
			}
			if maybe() {
				rr := r.Float64()
				h.Explain = &index.Explain{K: 60, Legs: []index.LegRank{{Leg: pick(), Rank: 1, Score: r.Float64()}},
					Text: map[string]float64{"body": r.Float64()}, Defines: []string{pick()}, Rerank: &rr,
					Boost: &fusion.Boosted{Base: 1, Project: 1, Session: 1, Recency: r.Float64()}}
			}
			res.Hits = append(res.Hits, h)
		}
		q := &resultjson.Result{Query: pick(), Result: res, Truncated: maybe(), TookMs: r.Float64() * 10}
		if r.IntN(50) == 0 {
			q.Result = nil
		}
		same(t, q)
	}
}

// A time encoding/json refuses is refused.
func TestRefused(t *testing.T) {
	same(t, &resultjson.Result{Result: &index.Result{Hits: []index.Hit{{Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}}})
}

// Real results: searches of every mode, with explain, of a small index.
func TestSearchResults(t *testing.T) {
	ix, err := index.OpenMemory(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	var docs []index.Doc
	for i := range 50 {
		docs = append(docs, index.Doc{ID: fmt.Sprintf("pkg/file%d.go", i), Kind: "func", Title: fmt.Sprintf("ReadFile%d", i),
			Body: fmt.Sprintf("// ReadFile reads <the> \"named\" file\\ %d\nfunc ReadFile(name string) ([]byte, error) {\n\treturn os.ReadFile(name) // é\u2028\n}\n", i),
			Tags: []string{"io"}, Meta: map[string]string{"lang": "go"}, Time: time.Date(2026, 1, 1+i%28, 0, 0, 0, 0, time.UTC)})
	}
	if err := ix.Upsert(ctx, docs...); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []index.Mode{index.ModeAuto, index.ModeSubstring, index.ModeText} {
		for _, q := range []string{"ReadFile", "eadFil", "named file", `"the named"`, "readfil", "zzqqx"} {
			for _, explain := range []bool{false, true} {
				res, err := ix.Search(ctx, index.Request{Query: q, Mode: mode, Explain: explain, Prefix: true, Limit: 20,
					Lines: &index.LineOptions{Before: 1, After: 1, Max: 2}})
				if err != nil {
					t.Fatal(err)
				}
				same(t, &resultjson.Result{Query: q, Result: res, Truncated: res.NextOffset != nil, TookMs: 0.123})
			}
		}
	}
}

// Whatever the strings and numbers, the same bytes as encoding/json.
func FuzzAppendJSON(f *testing.F) {
	f.Add("q", "snippet <mark>x</mark>", 0.5, int64(0))
	f.Add("\xff\x00\u2028", `"\`, math.Inf(1), int64(1e18))
	f.Fuzz(func(t *testing.T, a, b string, x float64, ns int64) {
		same(t, &resultjson.Result{Query: a, TookMs: x, Result: &index.Result{DidYouMean: b,
			Hits: []index.Hit{{ID: a, Snippet: b, Score: x, Time: time.Unix(0, ns), Meta: map[string]string{a: b}}}}})
	})
}
