package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/server"
)

// docID turns what was typed for a document into its ID. Files' IDs are
// relative to the index root, but people type paths relative to the
// current folder (tab completion, a path rg printed) or absolute: a path
// under the root is the root-relative ID when it is written as a path
// (./x, ../x, /abs/x) or a document has that ID; otherwise the argument
// is the ID as given (JSONL documents, or the ID printed by search).
//
// Cost: one Get when the argument could be either.
func docID(eng server.Engine, arg string) string {
	root := eng.Info().Root
	if root == "" {
		return arg
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return arg
	}
	id, ok := folder.RelID(root, abs)
	if !ok || id == "" || id == arg {
		return arg
	}
	if isPathLike(arg) {
		return id
	}
	if _, err := eng.Get(id); err == nil {
		return id
	}
	return arg
}

func isPathLike(arg string) bool {
	sep := string(filepath.Separator)
	return filepath.IsAbs(arg) || arg == "." || arg == ".." ||
		strings.HasPrefix(arg, "."+sep) || strings.HasPrefix(arg, ".."+sep) ||
		strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "../")
}

// locateFrom is where to look for the index of what was typed for a
// document: the path itself when it is one, so that an absolute path
// finds its index from anywhere; else the current folder.
func locateFrom(arg string) string {
	if isPathLike(arg) {
		if _, err := os.Stat(arg); err == nil {
			return arg
		}
	}
	return "."
}
