// Package folder keeps an index in step with a folder of files: it walks
// the folder honoring .gitignore and .twindexignore files, classifies
// files by kind (code, test, doc, config, other), and writes the
// documents of new and changed files and removes those of files that are
// gone, in batches (Writer).
//
// Invariants: a document ID is the file's path relative to the root, with
// '/' separators; every folder below the root is a document of kind "dir"
// with no text, and every document's Parent is its folder, so that the
// engine's Under filter reaches every file below a folder. Sync touches
// only documents it wrote (their Meta holds a content hash or marks a
// folder), never documents written otherwise. .git, index folders and
// symlinks are never walked.
//
// Sync and Writer never print; what they skipped or were refused is in
// their report or callbacks.
package folder
