package query_test

import (
	"errors"
	"testing"

	"github.com/twindex/twindex/query"
)

func TestErrorCaret(t *testing.T) {
	tests := []struct {
		name string
		err  query.Error
		want string
	}{
		{"middle", query.Error{Query: "a AND ) b", Pos: 6, Len: 1}, "a AND ) b\n      ^"},
		{"span", query.Error{Query: "NEAR(a b, x)", Pos: 10, Len: 1}, "NEAR(a b, x)\n          ^"},
		{"long span", query.Error{Query: "title:x", Pos: 0, Len: 5}, "title:x\n^^^^^"},
		{"zero length", query.Error{Query: "abc", Pos: 1}, "abc\n ^"},
		{"at end", query.Error{Query: "(abc", Pos: 4}, "(abc\n    ^"},
		{"multibyte before", query.Error{Query: "héllo )", Pos: 7, Len: 1}, "héllo )\n      ^"},
		{"multibyte span", query.Error{Query: "a 日本 b", Pos: 2, Len: 6}, "a 日本 b\n  ^^"},
		{"emoji", query.Error{Query: "🚀 (", Pos: 5, Len: 1}, "🚀 (\n  ^"},
		{"tab and newline", query.Error{Query: "a\tb\nc", Pos: 4, Len: 1}, "a b c\n    ^"},
		{"invalid utf8", query.Error{Query: "\xff\xfe)", Pos: 2, Len: 1}, "\ufffd\ufffd)\n  ^"},
		{"pos past end", query.Error{Query: "ab", Pos: 9, Len: 3}, "ab\n  ^"},
		{"negative", query.Error{Query: "ab", Pos: -3, Len: -1}, "ab\n^"},
		{"empty query", query.Error{}, "\n^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Caret(); got != tt.want {
				t.Errorf("Caret() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	var err error = &query.Error{Query: "a )", Pos: 2, Len: 1, Msg: "unexpected )"}
	if got, want := err.Error(), "query: unexpected ) at offset 2"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var qe *query.Error
	if !errors.As(err, &qe) || qe.Pos != 2 {
		t.Errorf("errors.As failed on %v", err)
	}
}
