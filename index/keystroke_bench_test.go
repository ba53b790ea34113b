package index_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

// keystrokeWords are the words the browser demo's e2e test types, one
// keystroke at a time, each in its mode (cmd/twindex-wasm/e2e, 100
// keystrokes).
var keystrokeWords = []struct {
	word string
	mode index.Mode
}{
	{"NewReader", index.ModeAuto}, {"ReadAll", index.ModeSubstring}, {"http.Handler", index.ModeAuto},
	{"close the file", index.ModeText}, {"Marshal", index.ModeAuto}, {"deadline", index.ModeAuto},
	{"Itoa", index.ModeSubstring}, {"bufio.Scanner", index.ModeAuto}, {"errors.Is", index.ModeAuto},
	{"Duration", index.ModeText}, {"WalkDir", index.ModeSubstring}, {"mutex", index.ModeAuto},
	{"TrimSpace", index.ModeAuto}, {"json decoder", index.ModeText}, {"ParseInt", index.ModeAuto},
}

// apiCorpus returns n documents shaped like the browser demo's corpus
// (one per exported identifier of a Go-like standard library: a
// signature and a doc comment, a few long ones among them),
// made from a seeded generator, so the same for every run.
func apiCorpus(n int) []index.Doc {
	r := rand.New(rand.NewPCG(19, 19))
	pkgs := []string{"fmt", "strings", "io", "os", "errors", "bufio", "bytes", "strconv", "time", "context",
		"sort", "slices", "maps", "sync", "http", "url", "json", "filepath", "fs", "regexp", "utf8", "math",
		"slog", "exec", "testing", "flag", "csv", "binary", "base64", "sha256", "template", "atomic", "net",
		"path", "embed", "log", "unicode", "rand", "xml", "gzip", "tar", "zip", "heap", "list", "ring", "sql"}
	parts := []string{"New", "Read", "Reader", "Write", "Writer", "All", "Handler", "Handle", "Func", "Scan",
		"Scanner", "Marshal", "Unmarshal", "Indent", "Duration", "Walk", "Dir", "Parse", "Int", "Float", "Trim",
		"Space", "Close", "File", "Mutex", "Dead", "Line", "Itoa", "Atoi", "Is", "As", "Err", "Unexpected", "EOF",
		"Buffer", "Byte", "Bytes", "String", "Rune", "Split", "Join", "Index", "Last", "Prefix", "Suffix", "Copy",
		"Time", "Timer", "Ticker", "Context", "Cancel", "Value", "Header", "Request", "Response", "Server",
		"Client", "Conn", "Listen", "Dial", "Addr", "Path", "Base", "Ext", "Match", "Find", "Replace", "Compile",
		"Decoder", "Encoder", "Decode", "Encode", "Token", "Map", "Sort", "Search", "Lock", "Unlock", "Wait",
		"Group", "Once", "Pool", "Map", "Seek", "At", "From", "To", "Size", "Len", "Cap", "Reset", "Flush"}
	words := strings.Fields(`the a an of to in is it for and or that returns reads writes value values
		file files data byte bytes string strings slice buffer reader writer error errors nil close closes
		closed the the the of of to to deadline timeout after before each every first last next number count
		length size position offset input output stream underlying interface implements method function type
		call calls caller must not may should use uses used new returned set sets get gets result results
		decoder encoder json format parse parses parsed integer base bit bits time duration seconds zero
		handler request response server client connection header body path directory walk tree mutex lock
		locked unlock goroutine goroutines safe concurrent scanner token tokens line lines split space spaces
		trim leading trailing white whitespace marshal unmarshal encoding decoding valid invalid report reports
		whether if when until unless only also as by with from on at into out this its which such`)
	// A long tail of made-up words and identifier parts, as a real
	// library's vocabulary has, after the common ones.
	syl := strings.Fields("ka lo mi nu pe ri so ta ve xu bra cle dro fli gru pla sti tro")
	for len(words) < 3000 {
		words = append(words, syl[r.IntN(len(syl))]+syl[r.IntN(len(syl))]+syl[r.IntN(len(syl))])
	}
	for len(parts) < 1500 {
		w := syl[r.IntN(len(syl))] + syl[r.IntN(len(syl))]
		parts = append(parts, strings.ToUpper(w[:1])+w[1:])
	}
	zw := rand.NewZipf(r, 1.05, 20, uint64(len(words)-1))
	zp := rand.NewZipf(r, 1.05, 30, uint64(len(parts)-1))
	ident := func() string {
		var b strings.Builder
		for range 1 + r.IntN(3) {
			b.WriteString(parts[zp.Uint64()])
		}
		return b.String()
	}
	sentence := func(lead string) string {
		s := []string{lead}
		for range 4 + r.IntN(14) {
			s = append(s, words[zw.Uint64()])
		}
		return strings.Join(s, " ") + "."
	}
	params := []string{"", "p []byte", "s string", "r io.Reader", "w io.Writer", "ctx context.Context", "d time.Duration", "i int", "v any"}
	results := []string{"", "int", "string", "error", "(n int, err error)", "bool", "[]byte"}
	kinds := []string{"method", "method", "method", "method", "func", "func", "func", "func", "type", "type", "var", "const"}
	docs := make([]index.Doc, 0, n)
	seen := map[string]bool{}
	for len(docs) < n {
		pkg := pkgs[int(r.ExpFloat64()*10)%len(pkgs)]
		kind, name := kinds[r.IntN(len(kinds))], ident()
		var sig string
		switch kind {
		case "method":
			recv := ident()
			name = recv + "." + name
			sig = fmt.Sprintf("func (x *%s) %s(%s) %s", recv, name[len(recv)+1:], params[r.IntN(len(params))], results[r.IntN(len(results))])
		case "func":
			sig = fmt.Sprintf("func %s(%s) *%s", name, params[r.IntN(len(params))], ident())
		case "type":
			sig = fmt.Sprintf("type %s struct {\n\t%s int\n\t%s string\n}", name, ident(), ident())
		default:
			sig = fmt.Sprintf("%s %s = %s(%d)", kind, name, ident(), r.IntN(100))
		}
		id := pkg + "." + name
		if seen[id] {
			continue
		}
		seen[id] = true
		body := []string{sig, "", sentence(name[strings.LastIndexByte(name, '.')+1:])}
		more := r.IntN(4)
		if r.IntN(40) == 0 { // a long doc comment, as a package's
			more = 20 + r.IntN(40)
		}
		for range more {
			body = append(body, sentence(words[r.IntN(len(words))]))
		}
		docs = append(docs, index.Doc{ID: id, Kind: kind, Title: id, Body: strings.Join(body, "\n") + "\n"})
	}
	return docs
}

// BenchmarkKeystrokes replays the browser demo's 100 keystrokes (search as
// you type: Request.Prefix, 20 hits with their snippets) on 3,000
// documents, with one worker, as the page's one thread has, on each of the
// page's two indexes: loaded from a snapshot of a compact memory index
// (snapshot), and indexed from the documents in batches of 500, as the
// page's add does (added). An op is the whole session, on an index made
// for it (untimed), so that what one search leaves for the next is as in
// the page's one session, and the heap holds little else, as the page's
// does (its collector's work grows with the heap); p50-ns/key is the
// median keystroke. In js/wasm, run with GOMEMLIMIT=28MiB for the page's
// memory limit.
func BenchmarkKeystrokes(b *testing.B) {
	snap, err := apiSnapshot(3000)
	if err != nil {
		b.Fatal(err)
	}
	docs := apiCorpus(3000)
	var session []index.Request
	for _, w := range keystrokeWords {
		for i := 1; i <= len(w.word) && len(session) < 100; i++ {
			session = append(session, index.Request{Query: w.word[:i], Mode: w.mode, Prefix: true, Limit: 20})
		}
	}
	for _, how := range []string{"snapshot", "added"} {
		b.Run(how, func(b *testing.B) {
			keys := replay(b, session, func() (*index.Index, error) {
				if how == "snapshot" {
					return index.OpenSnapshot(bytes.NewReader(snap), &index.Options{Workers: 1})
				}
				ix, err := index.OpenMemory(&index.Options{Workers: 1})
				for i := 0; err == nil && i < len(docs); i += 500 {
					err = ix.Upsert(ctx, docs[i:min(i+500, len(docs))]...)
				}
				return ix, err
			})
			b.ReportMetric(float64(keys[len(keys)/2].Nanoseconds()), "p50-ns/key")
		})
	}
}

// replay runs session b.N times, each time on an index open makes for it
// (untimed), and returns each search's time, sorted.
func replay(b *testing.B, session []index.Request, open func() (*index.Index, error)) []time.Duration {
	var keys []time.Duration
	for range b.N {
		b.StopTimer()
		ix, err := open()
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC() // the load's garbage, not the session's
		b.StartTimer()
		for _, req := range session {
			start := time.Now()
			if _, err := ix.Search(ctx, req); err != nil {
				b.Fatal(err)
			}
			keys = append(keys, time.Since(start))
		}
		b.StopTimer()
		ix.Close()
		b.StartTimer()
	}
	slices.Sort(keys)
	return keys
}

// BenchmarkTypedTitles types 60 titles of apiCorpus(3000), drawn with a
// fixed seed, a letter at a time (6 in 10 in auto mode, 2 in substring, 2
// in text; 10 hits with their snippets, as the page shows) on a snapshot
// as the page loads it, an op being the whole session on an index made for
// it. Its tail is the keystrokes that find fewer than Request.Fallback
// documents, most of a long identifier's as it is typed, which run the
// fallback's fuzzy pass: p95-ns/key is the 95th percentile keystroke.
func BenchmarkTypedTitles(b *testing.B) {
	snap, err := apiSnapshot(3000)
	if err != nil {
		b.Fatal(err)
	}
	docs := apiCorpus(3000)
	r := rand.New(rand.NewPCG(60, 60))
	modes := []index.Mode{index.ModeAuto, index.ModeAuto, index.ModeAuto, index.ModeAuto, index.ModeAuto,
		index.ModeAuto, index.ModeSubstring, index.ModeSubstring, index.ModeText, index.ModeText}
	var session []index.Request
	for range 60 {
		title, mode := docs[r.IntN(len(docs))].Title, modes[r.IntN(len(modes))]
		for i := 1; i <= len(title); i++ {
			session = append(session, index.Request{Query: title[:i], Mode: mode, Prefix: true, Limit: 10})
		}
	}
	keys := replay(b, session, func() (*index.Index, error) {
		return index.OpenSnapshot(bytes.NewReader(snap), &index.Options{Workers: 1})
	})
	b.ReportMetric(float64(keys[len(keys)/2].Nanoseconds()), "p50-ns/key")
	b.ReportMetric(float64(keys[len(keys)*95/100].Nanoseconds()), "p95-ns/key")
}

// apiSnapshot returns the snapshot of a compact memory index of
// apiCorpus(n), built in batches of 1,000 documents.
func apiSnapshot(n int) ([]byte, error) {
	src, err := index.OpenMemory(&index.Options{Backend: index.Compact})
	if err != nil {
		return nil, err
	}
	defer src.Close()
	docs := apiCorpus(n)
	for i := 0; i < len(docs); i += 1000 {
		if err := src.Upsert(ctx, docs[i:min(i+1000, len(docs))]...); err != nil {
			return nil, err
		}
	}
	var snap bytes.Buffer
	if err := src.WriteSnapshot(&snap); err != nil {
		return nil, err
	}
	return snap.Bytes(), nil
}

// BenchmarkWarmSnapshot searches a snapshot of the demo's documents over
// and over, as the page does once its warm-up has folded what the
// searches read (one worker): a search whose checks find every
// candidate's folded text in the cache.
func BenchmarkWarmSnapshot(b *testing.B) {
	ix := openAPISnapshot(b)
	defer ix.Close()
	for _, q := range []string{"Read", "errors", "Marshal", "close the file"} {
		b.Run(q, func(b *testing.B) {
			req := index.Request{Query: q, Prefix: true, Limit: 20}
			if _, err := ix.Search(ctx, req); err != nil { // folds what it reads
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := ix.Search(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTypos searches a snapshot of the demo's documents for words
// that no document holds, as typed with a typo or half typed, which the
// page answers with did-you-mean (a walk of the dictionaries for the
// words one and two edits away) or, in auto and text mode, with the
// fuzzy fallback's walk.
func BenchmarkTypos(b *testing.B) {
	ix := openAPISnapshot(b)
	defer ix.Close()
	for _, req := range []index.Request{
		{Query: "WalkDi", Mode: index.ModeSubstring}, {Query: "Marshl", Mode: index.ModeAuto},
		{Query: "deadlien", Mode: index.ModeText}, {Query: "bufio.Scaner", Mode: index.ModeAuto},
	} {
		b.Run(req.Query, func(b *testing.B) {
			req.Limit = 20
			for b.Loop() {
				if _, err := ix.Search(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// openAPISnapshot opens a snapshot of apiCorpus(3000) with one worker, as
// the page opens its own.
func openAPISnapshot(b *testing.B) *index.Index {
	b.Helper()
	snap, err := apiSnapshot(3000)
	if err != nil {
		b.Fatal(err)
	}
	ix, err := index.OpenSnapshot(bytes.NewReader(snap), &index.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	return ix
}
