package folder

import "testing"

func TestKindOf(t *testing.T) {
	tests := map[string]string{
		"main.go": "code", "index/search_test.go": "test", "pkg/test_api.py": "test", "web/app.test.js": "test",
		"tests/helpers.py": "test", "src/test/Foo.java": "test", "README.md": "doc", "docs/guide.rst": "doc",
		"LICENSE": "doc", "site/index.html": "doc", "go.mod": "config", "cfg/app.yaml": "config", "package.json": "config",
		"Makefile": "code", "logo.svg": "other", "data.bin": "other", ".gitignore": "config",
	}
	for id, want := range tests {
		if got := kindOf(id); got != want {
			t.Errorf("kindOf(%q) = %q, want %q", id, got, want)
		}
	}
}
