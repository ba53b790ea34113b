// Package keys bounds ranges of byte-string keys, in the byte order of
// sorted dictionaries and key-value stores: the functions are pure.
package keys

// PrefixEnd returns the first key after every key that starts with
// prefix, or nil when there is none (prefix is empty or all 0xff).
func PrefixEnd(prefix []byte) []byte { return AppendPrefixEnd(nil, prefix) }

// AppendPrefixEnd is PrefixEnd appended to dst[:0], for a caller that
// reuses dst; it returns nil when there is none. Cost: O(len(prefix)),
// no allocation when dst has room.
func AppendPrefixEnd(dst, prefix []byte) []byte {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] < 0xff {
			return append(append(dst[:0], prefix[:i]...), prefix[i]+1)
		}
	}
	return nil
}
