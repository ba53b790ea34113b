// Package decl finds what a document declares: the names of the
// functions, methods, types, classes, constants and variables of a source
// file (Go, Python, JavaScript and TypeScript, Rust, Java, C and C++), the
// headings of a Markdown note, and the licence comment a source file
// starts with. The engine indexes the names in a field of their own, so
// that a document that defines a name ranks above one that mentions it,
// and weighs the licence comment, repeated in every file of a project,
// less than the rest of the text.
//
// The scanners read lines, not syntax trees: a declaration is recognized
// by how a line starts (func Name, def name, class Name, a C function
// header at column 0, # Heading), outside comments and multi-line strings.
// They miss what a parser would find (a Go function whose name is on the
// next line, C declarations spread over lines in unusual ways) and take
// nothing that a line does not plainly declare.
//
// Invariants:
//
//   - Any input is accepted (invalid UTF-8, NUL bytes, unbalanced quotes
//     and comments); nothing panics.
//   - Scan reads its input once, in time linear in its length.
//   - Every Name's Start and End are byte offsets of its text in the
//     input: src[Start:End] == Text. Names come in input order, at most
//     MaxNames of them, none longer than MaxNameBytes.
//   - Boilerplate is 0 or the end of a line, at most len(src).
//
// The package holds no state; every function is safe for concurrent use.
package decl
