package keys

import "testing"

func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct {
		name, prefix string
		want         []byte
	}{
		{"plain", "ab", []byte("ac")},
		{"carry", "a\xff", []byte("b")},
		{"all 0xff", "\xff\xff", nil},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PrefixEnd([]byte(tc.prefix)); string(got) != string(tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("PrefixEnd(%q) = %q, want %q", tc.prefix, got, tc.want)
			}
			// A reused buffer longer than the answer gives the same.
			if got := AppendPrefixEnd([]byte("zzzzzz"), []byte(tc.prefix)); string(got) != string(tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("AppendPrefixEnd(zzzzzz, %q) = %q, want %q", tc.prefix, got, tc.want)
			}
		})
	}
}
