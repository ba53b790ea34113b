package plain

import "testing"

func TestPlain(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Clean("a\tb\n\n c\x1b[31m\u0085d"), "a b c [31m d"},
		{Base("src/os/file.go"), "file.go"},
		{Base("file.go"), "file.go"},
		{OrDash(""), "-"},
		{OrDash("x"), "x"},
		{List([]string{"a", "b", "c"}, 2), "a, b, and 1 more"},
		{List([]string{"a", "b"}, 2), "a, b"},
		{Bytes(512), "512 B"},
		{Bytes(1536), "1.5 KiB"},
		{Bytes(3 << 20), "3.0 MiB"},
		{Bytes(5 << 30), "5.0 GiB"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
