package folder

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
)

// binaryFile, in the index directory, notes the files a sync found
// binary, by size and modification time, so that later syncs skip them
// unread while both are unchanged, as they skip indexed files: without
// it every sync read every binary file again (736 files, 12.5 MB in the
// Go tree). Only a speed-up: a missing or unreadable note costs a read.
const binaryFile = "binary.json"

// binaries maps the ID of a binary file to its size and modification
// time (unix nanoseconds) when it was found binary.
type binaries map[string][2]int64

func loadBinaries(indexDir string) binaries {
	b := binaries{}
	if indexDir == "" {
		return b
	}
	data, err := os.ReadFile(filepath.Join(indexDir, binaryFile))
	if err == nil && json.Unmarshal(data, &b) != nil {
		clear(b)
	}
	return b
}

// save writes b to indexDir unless it holds old: a sync that found
// nothing new writes nothing.
func (b binaries) save(indexDir string, old binaries) {
	if indexDir == "" || maps.Equal(b, old) {
		return
	}
	data, err := json.Marshal(b)
	if err != nil {
		return
	}
	tmp := filepath.Join(indexDir, binaryFile+".tmp")
	if os.WriteFile(tmp, data, 0o644) == nil {
		_ = os.Rename(tmp, filepath.Join(indexDir, binaryFile))
	}
}

// sniffLen is how much of a file isBinary looks at, as git and ripgrep do.
const sniffLen = 8 << 10

// readText returns the content of the file at path, or binary true (and
// no content) when isBinary says so of its first sniffLen bytes, which
// are then all that is read.
func readText(path string) (data []byte, binary bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	if isBinary(head[:n]) {
		return nil, true, nil
	}
	if n < sniffLen {
		return head[:n], false, nil
	}
	rest, err := io.ReadAll(f)
	if err != nil {
		return nil, false, err
	}
	return append(head, rest...), false, nil
}
