package tokenize_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/tokenize"
)

// tokenString renders a token as term@position[start:end].
func tokenString(tok *analysis.Token) string {
	return fmt.Sprintf("%s@%d[%d:%d]", tok.Term, tok.Position, tok.Start, tok.End)
}

func tokenStrings(ts analysis.TokenStream) []string {
	out := make([]string, len(ts))
	for i, tok := range ts {
		out[i] = tokenString(tok)
	}
	return out
}

// TestTextTokens pins terms, positions and offsets exactly.
func TestTextTokens(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"empty", "", nil},
		{"only separators", " \t\n.,;:!?()[]{}<>/\\|'\"`~@#$%^&*+=", nil},
		{"plain word", "hello", []string{"hello@1[0:5]"}},
		{"camelCase compound and parts", "getUserById", []string{
			"getuserbyid@1[0:11]", "get@1[0:3]", "user@2[3:7]", "id@4[9:11]"}},
		{"next word continues after the last part", "getUserById now", []string{
			"getuserbyid@1[0:11]", "get@1[0:3]", "user@2[3:7]", "id@4[9:11]", "now@5[12:15]"}},
		{"PascalCase", "ReadFile", []string{"readfil@1[0:8]", "read@1[0:4]", "file@2[4:8]"}},
		{"acronym then word", "XMLParser", []string{"xmlparser@1[0:9]", "xml@1[0:3]", "parser@2[3:9]"}},
		{"acronym word digit", "HTTPServer2", []string{
			"httpserver2@1[0:11]", "http@1[0:4]", "server@2[4:10]", "2@3[10:11]"}},
		{"word then acronym", "parseURL", []string{"parseurl@1[0:8]", "pars@1[0:5]", "url@2[5:8]"}},
		{"plural acronym stays whole", "IDs", []string{"ids@1[0:3]"}},
		{"plural acronym in compound", "URLsFor", []string{"urlsfor@1[0:7]", "url@1[0:4]", "for@2[4:7]"}},
		{"snake_case", "get_user_by_id", []string{
			"get_user_by_id@1[0:14]", "get@1[0:3]", "user@2[4:8]", "id@4[12:14]"}},
		{"SCREAMING_SNAKE", "MAX_LEN", []string{"max_len@1[0:7]", "max@1[0:3]", "len@2[4:7]"}},
		{"kebab-case", "content-type", []string{
			"content-type@1[0:12]", "content@1[0:7]", "type@2[8:12]"}},
		{"dotted", "bufio.Scanner", []string{
			"bufio.scanner@1[0:13]", "bufio@1[0:5]", "scanner@2[6:13]"}},
		{"letter digit", "utf8", []string{"utf8@1[0:4]", "utf@1[0:3]", "8@2[3:4]"}},
		{"letter digit letter", "base64Encode", []string{
			"base64encode@1[0:12]", "base@1[0:4]", "64@2[4:6]", "encod@3[6:12]"}},
		{"version", "v1.2", []string{"v1.2@1[0:4]", "v1@1[0:2]", "v@1[0:1]", "1@2[1:2]", "2@3[3:4]"}},
		{"qualified identifier", "os.ReadFile", []string{
			"os.readfile@1[0:11]", "os@1[0:2]", "readfil@2[3:11]", "read@2[3:7]", "file@3[7:11]"}},
		{"no segments between hyphens", "CX3CR1-deficient", []string{
			"cx3cr1-deficient@1[0:16]", "cx@1[0:2]", "3@2[2:3]", "cr@3[3:5]", "1@4[5:6]", "defici@5[7:16]"}},
		{"segments with parts", "utf8.DecodeRune x", []string{
			"utf8.decoderune@1[0:15]", "utf8@1[0:4]", "utf@1[0:3]", "8@2[3:4]", "decoderun@3[5:15]", "decod@3[5:11]", "rune@4[11:15]", "x@5[16:17]"}},
		{"leading and trailing connectors are separators", "__init__ end.", []string{
			"init@1[2:6]", "end@2[9:12]"}},
		{"sentence period is not a connector", "end. Next", []string{"end@1[0:3]", "next@2[5:9]"}},
		{"stop words dropped keep positions", "the cat and a dog", []string{"cat@2[4:7]", "dog@5[14:17]"}},
		{"code words kept", "for if not is has can no all may will new nil null true false return go type var func case default do", []string{
			"for@1[0:3]", "if@2[4:6]", "not@3[7:10]", "is@4[11:13]", "has@5[14:17]", "can@6[18:21]",
			"no@7[22:24]", "all@8[25:28]", "may@9[29:32]", "will@10[33:37]", "new@11[38:41]",
			"nil@12[42:45]", "null@13[46:50]", "true@14[51:55]", "fals@15[56:61]", "return@16[62:68]",
			"go@17[69:71]", "type@18[72:76]", "var@19[77:80]", "func@20[81:85]", "case@21[86:90]",
			"default@22[91:98]", "do@23[99:101]"}},
		{"compound of stop words keeps the compound", "it_is", []string{"it_is@1[0:5]", "is@2[3:5]"}},
		{"diacritics", "café Ångström", []string{"cafe@1[0:5]", "angstrom@2[6:16]"}},
		{"decomposed diacritic", "cafe\u0301", []string{"cafe@1[0:6]"}},
		{"sharp s kept", "Straße", []string{"straße@1[0:7]"}},
		{"cyrillic not stemmed", "Привет, мир", []string{"привет@1[0:12]", "мир@2[14:20]"}},
		{"greek folded", "Ελληνικά", []string{"ελληνικα@1[0:16]"}},
		{"arabic", "مرحبا بالعالم", []string{"مرحبا@1[0:10]", "بالعالم@2[11:25]"}},
		{"cjk unigrams and bigrams", "東京都", []string{
			"東@1[0:3]", "東京@1[0:6]", "京@2[3:6]", "京都@2[3:9]", "都@3[6:9]"}},
		{"single cjk char", "字", []string{"字@1[0:3]"}},
		{"latin then cjk", "Go言語", []string{"go@1[0:2]", "言@2[2:5]", "言語@2[2:8]", "語@3[5:8]"}},
		{"hangul", "한국어", []string{"한@1[0:3]", "한국@1[0:6]", "국@2[3:6]", "국어@2[3:9]", "어@3[6:9]"}},
		{"emoji and zwj separate", "go👩‍💻run", []string{"go@1[0:2]", "run@2[13:16]"}},
		{"invalid utf8 separates", "ab\xffcd\xc3", []string{"ab@1[0:2]", "cd@2[3:5]"}},
		{"nul separates", "ab\x00cd", []string{"ab@1[0:2]", "cd@2[3:5]"}},
		{"rtl mark separates", "abc\u200fdef", []string{"abc@1[0:3]", "def@2[6:9]"}},
		{"leading combining mark dropped", "\u0301abc", []string{"abc@1[2:5]"}},
		{"long word skipped keeps position", strings.Repeat("x", 300) + " ok", []string{"ok@2[301:303]"}},
		{"long compound skipped parts kept", strings.Repeat("a", 200) + "_" + strings.Repeat("b", 200), []string{
			strings.Repeat("a", 200) + "@1[0:200]", strings.Repeat("b", 200) + "@2[201:401]"}},
	}
	text := tokenize.NewText()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := text.Analyze([]byte(tt.input))
			got := tokenStrings(ts)
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Analyze(%q)\n got  %q\n want %q", tt.input, got, tt.want)
			}
			checkFrequencies(t, text, []byte(tt.input))
			checkTextStream(t, []byte(tt.input), ts)
		})
	}
}

// TestTextStemming checks that inflected forms meet at one term.
func TestTextStemming(t *testing.T) {
	tests := []struct {
		name string
		a, b string
	}{
		{"authenticated/authentication", "authenticated", "authentication"},
		{"running/run", "running", "run"},
		{"connections/connection", "connections", "connection"},
		{"parses/parse", "parses", "parse"},
		{"indexing/indexed", "indexing", "indexed"},
		{"camel part/plain word", "isRunning", "running"},
	}
	text := tokenize.NewText()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := text.Terms(tt.a), text.Terms(tt.b)
			if a[len(a)-1] != b[len(b)-1] {
				t.Errorf("Terms(%q) = %q, Terms(%q) = %q: last terms differ", tt.a, a, tt.b, b)
			}
		})
	}
}

func TestTextTypes(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []analysis.TokenType
	}{
		{"word", "word", []analysis.TokenType{analysis.AlphaNumeric}},
		{"number", "2024", []analysis.TokenType{analysis.Numeric}},
		{"letter digit", "utf8", []analysis.TokenType{analysis.AlphaNumeric, analysis.AlphaNumeric, analysis.Numeric}},
		{"dotted number", "3.14", []analysis.TokenType{analysis.Numeric, analysis.Numeric, analysis.Numeric}},
		{"cjk", "日本", []analysis.TokenType{analysis.Ideographic, analysis.Ideographic, analysis.Ideographic}},
	}
	text := tokenize.NewText()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := text.Analyze([]byte(tt.input))
			got := make([]analysis.TokenType, len(ts))
			for i, tok := range ts {
				got[i] = tok.Type
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("types of %q = %v, want %v", tt.input, got, tt.want)
			}
		})
	}
}

func TestTextTerms(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"empty", "", []string{}},
		{"duplicates kept", "go go", []string{"go", "go"}},
		{"query", "OAuth token refresh", []string{"oauth", "o", "auth", "token", "refresh"}},
	}
	text := tokenize.NewText()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := text.Terms(tt.input); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func TestTextConcurrent(t *testing.T) {
	text := tokenize.NewText()
	input := []byte("getUserById authenticates the connections via bufio.Scanner 東京都")
	want := tokenStrings(text.Analyze(input))
	done := make(chan []string)
	for range 8 {
		go func() {
			var got []string
			for range 200 {
				got = tokenStrings(text.Analyze(input))
			}
			done <- got
		}()
	}
	for range 8 {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Errorf("concurrent Analyze = %q, want %q", got, want)
		}
	}
}

// TestHugeInputs runs megabyte-sized tokens through both analyzers: no
// panic, linear time, invariants kept.
func TestHugeInputs(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name  string
		input string
	}{
		{"one word", strings.Repeat("a", mb)},
		{"one camelCase compound", strings.Repeat("aB", mb/2)},
		{"one snake_case compound", strings.Repeat("ab_", mb/3)},
		{"combining marks", "a" + strings.Repeat("\u0301", mb/2)},
		{"connectors", "a" + strings.Repeat("-", mb)},
		{"cjk run", strings.Repeat("東", mb/3)},
		{"invalid utf8", strings.Repeat("\xff", mb)},
	}
	text, tri := tokenize.NewText(), tokenize.NewTrigram()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.input)
			ts := text.Analyze(in)
			checkFrequencies(t, text, in)
			checkTextStream(t, in, ts)
			checkTrigramStream(t, in, tri.Analyze(in))
		})
	}
}

func TestCountWords(t *testing.T) {
	text := tokenize.NewText()
	tests := []struct {
		name, in string
		want     []string // the spellings that stemming changed
	}{
		{"none", "the parser reads json", []string{"reads"}},
		{"endings", "Configurations configured; configuration", []string{"configurations", "configured", "configuration"}},
		{"once across texts and repeats", "running running Running", []string{"running"}},
		{"compound and parts", "readFiles", []string{"readfiles", "files"}},
		{"a part of a dotted name", "bufio.Scanners", []string{"scanners"}},
		{"not stemmed: digits, separators, other scripts", "utf8 bufio.Scanner io_reader дома", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			words := bleveindex.TokenFrequencies{}
			text.Count([]byte(tc.in), words, nil)
			var got []string
			for w, tf := range words {
				got = append(got, w)
				if tf.Frequency() != 1 {
					t.Errorf("%q: frequency %d", w, tf.Frequency())
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("Count(%q) words %v, want %v", tc.in, got, want)
			}
			for _, w := range got {
				if term, ok := text.Term(w); !ok || term == w {
					t.Errorf("Term(%q) = %q, %v", w, term, ok)
				}
			}
		})
	}
}
