package folder

import "os"

// readDirOS is readDir with os.ReadDir and an Lstat of each file: what
// systems other than unix use (dirent_other.go), and what tests hold the
// unix readDir to.
func readDirOS(dir string, statFiles bool) ([]dirEntry, error) {
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
