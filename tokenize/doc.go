// Package tokenize owns twindex's analyzers and their registration with
// bleve: Text, for words in prose and source code (compound splitting,
// case and diacritic folding, stop words, Snowball stemming, CJK bigrams)
// in one of the languages of Langs, and Trigram, for substring search
// (every folded window of one, two and three runes). Fold is the one
// folding both use, and the one callers must use to compare text with
// what was indexed.
//
// Invariants:
//
//   - Start and End of every token are exact byte offsets into the
//     analyzed input, on rune boundaries (an invalid UTF-8 byte counts as
//     one rune), with Start < End.
//   - Folding is rune by rune: each input rune folds to at most one rune,
//     so folded offsets map back to input offsets (FoldMap).
//   - For either analyzer, Frequencies(b) is what bleve's TokenFrequency
//     makes of Analyze(b) for a field without term vectors, and its count
//     is len(Analyze(b)), for every input.
//   - The pairs Count adds to an Adjacent are those of the terms that
//     Analyze and Stops put at consecutive positions, as PairHash of their
//     TermHash, whose values are fixed: indexes store them.
//   - Any input is accepted: invalid UTF-8, NUL bytes, huge tokens. Nothing
//     panics and no term is longer than MaxTermLen bytes (Trigram's terms
//     are at most 12).
//   - The analyzers hold no per-call state and are safe for concurrent use.
//
// The analyzers are registered under TextAnalyzer and TrigramAnalyzer when
// the package is initialized, except in the js/wasm build, which looks no
// analyzer up by name; no other package spells those names.
package tokenize
