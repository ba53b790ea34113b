package folder

import "testing"

func TestIgnorer(t *testing.T) {
	type check struct {
		id      string
		dir     bool
		ignored bool
	}
	tests := []struct {
		name   string
		files  map[string]string // folder ID -> ignore file content
		checks []check
	}{
		{"basename glob at any depth", map[string]string{"": "*.log\n"}, []check{
			{"a.log", false, true}, {"x/y/b.log", false, true}, {"a.log.txt", false, false}, {"log", false, false}}},
		{"comments and blanks", map[string]string{"": "# *.go\n\n   \n"}, []check{{"a.go", false, false}}},
		{"escaped hash and bang", map[string]string{"": `\#notes` + "\n" + `\!important` + "\n"}, []check{
			{"#notes", false, true}, {"!important", false, true}}},
		{"anchored with leading slash", map[string]string{"": "/build\n"}, []check{
			{"build", true, true}, {"src/build", true, false}}},
		{"inner slash anchors", map[string]string{"": "doc/gen\n"}, []check{
			{"doc/gen", true, true}, {"x/doc/gen", true, false}}},
		{"trailing slash: folders only", map[string]string{"": "out/\n"}, []check{
			{"out", true, true}, {"out", false, false}, {"a/out", true, true}}},
		{"negation re-includes", map[string]string{"": "*.log\n!keep.log\n"}, []check{
			{"a.log", false, true}, {"keep.log", false, false}, {"d/keep.log", false, false}}},
		{"later rule wins", map[string]string{"": "!keep.log\n*.log\n"}, []check{{"keep.log", false, true}}},
		{"double star prefix", map[string]string{"": "**/cache\n"}, []check{
			{"cache", true, true}, {"a/b/cache", true, true}, {"cachex", true, false}}},
		{"double star middle", map[string]string{"": "a/**/z.txt\n"}, []check{
			{"a/z.txt", false, true}, {"a/b/c/z.txt", false, true}, {"b/a/z.txt", false, false}}},
		{"double star suffix", map[string]string{"": "vendor/**\n"}, []check{
			{"vendor/x", false, true}, {"vendor/x/y.go", false, true}, {"vendor", true, false}}},
		{"question mark and class", map[string]string{"": "file?.[ch]\n[!a]x\n"}, []check{
			{"file1.c", false, true}, {"file1.h", false, true}, {"file12.c", false, false}, {"file1.o", false, false},
			{"bx", false, true}, {"ax", false, false}}},
		{"star does not cross folders", map[string]string{"": "/a*b\n"}, []check{{"axxb", false, true}, {"ax/b", false, false}}},
		{"nested file applies to its subtree", map[string]string{"": "*.tmp\n", "sub": "*.md\n!x.tmp\n"}, []check{
			{"sub/a.md", false, true}, {"a.md", false, false}, {"sub/x.tmp", false, false}, {"y/x.tmp", false, true}}},
		{"nested anchored", map[string]string{"sub": "/gen\n"}, []check{{"sub/gen", true, true}, {"sub/x/gen", true, false}, {"gen", true, false}}},
		{"trailing spaces and CRLF", map[string]string{"": "a.txt  \r\nb.txt\\ \n"}, []check{{"a.txt", false, true}, {"b.txt ", false, true}}},
		{"unclosed bracket is literal", map[string]string{"": "[abc\n"}, []check{{"[abc", false, true}, {"a", false, false}}},
		{"regexp metacharacters are literal", map[string]string{"": "a+b(c).txt\n"}, []check{{"a+b(c).txt", false, true}, {"aab(c).txt", false, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ig := &ignorer{}
			for _, base := range []string{"", "sub"} {
				if content, ok := tt.files[base]; ok {
					ig = ig.with(base, []byte(content))
				}
			}
			for _, c := range tt.checks {
				if got := ig.ignored(c.id, c.dir); got != c.ignored {
					t.Errorf("ignored(%q, dir=%v) = %v, want %v", c.id, c.dir, got, c.ignored)
				}
			}
		})
	}
}
