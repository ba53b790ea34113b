//go:build !unix

package folder

// readDir returns the entries of the folder dir in name order and, when
// statFiles is set, the size and mtime of each regular file.
func readDir(dir string, statFiles bool) ([]dirEntry, error) { return readDirOS(dir, statFiles) }
