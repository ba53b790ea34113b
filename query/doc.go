// Package query turns user input into a small syntax tree that the engine
// compiles into its two search legs: a trigram leg, where every leaf must
// occur as a case-insensitive substring, and a stemmed-text leg scored with
// BM25.
//
// The package owns parsing only. It does not analyze text: a leaf's Text is
// what the user typed, and deciding which words it yields is the engine's job.
//
// Invariants of every tree the package returns:
//
//   - Leaves are *Term, *Phrase and *Prefix; inner nodes are *And, *Or,
//     *Not and *Near. The Node interface is sealed, so a switch over these
//     seven types is exhaustive.
//   - A leaf's Pos and Len are byte offsets into the original input:
//     input[Pos:Pos+Len] is the span the leaf was read from, including any
//     quotes or markers, so it can be underlined in an error or highlight.
//   - A leaf's Text is never empty or all whitespace.
//   - Simple never fails on syntax: its only error is ErrEmpty. Raw, the
//     FTS5 syntax, reports malformed input as an *Error and input with
//     nothing to search for as ErrEmpty.
//
// Trees are plain values with no hidden state; once returned they may be read
// from any number of goroutines.
package query
