//go:build !unix

package folder

import "os"

// readDir returns the entries of the folder dir in name order and, when
// statFiles is set, the size and mtime of each regular file.
func readDir(dir string, statFiles bool) ([]dirEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(des))
	for i, de := range des {
		e := &out[i]
		*e = dirEntry{name: de.Name(), typ: de.Type()}
		if !statFiles || !e.typ.IsRegular() {
			continue
		}
		// An error: the file vanished since the folder was read.
		if fi, err := de.Info(); err == nil && fi.Mode().IsRegular() {
			e.size, e.mtime, e.stated = fi.Size(), fi.ModTime().UnixNano(), true
		}
	}
	return out, nil
}
