// Package extract turns the bytes of a file into the text that is
// indexed: a gzip'd file is read by its decompressed bytes, HTML and
// document XML by their text, with the <title> as the title. It needs
// nothing of the engine.
//
// Invariants: no input makes it panic or read without bound; Gunzip
// never returns more than its limit; Markup keeps the text of a page in
// reading order with one line per block (paragraph, heading, list item,
// table row) and drops tags, comments, scripts and styles.
package extract
