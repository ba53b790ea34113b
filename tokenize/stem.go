package tokenize

import (
	"hash/maphash"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

// stopWords is deliberately small: function words of English prose that
// carry no meaning in either prose or code. Words that mean something in
// code (for, do, if, not, is, has, can, no, all, may, will, new, nil, null,
// true, false, return, go, type, var, func, case, default) are not here.
var stopWords = func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, w := range []string{
		// articles
		"a", "an", "the",
		// conjunctions
		"and", "or", "but", "nor", "so", "yet",
		// prepositions
		"of", "in", "on", "at", "to", "by", "with", "from", "into", "onto",
		"over", "under", "about", "as", "than", "via", "per",
		// pronouns
		"i", "me", "my", "we", "our", "you", "your", "he", "him", "his",
		"she", "her", "it", "its", "they", "them", "their", "this", "that",
		"these", "those", "who", "whom", "which", "what",
		// modals and auxiliaries
		"would", "should", "could", "must", "might", "shall", "was", "were",
		"be", "been", "being", "am", "are", "does", "did", "had",
	} {
		m[w] = struct{}{}
	}
	return m
}()

// maxStopWordLen bounds the map lookup so long tokens skip it.
var maxStopWordLen = func() int {
	n := 0
	for w := range stopWords {
		n = max(n, len(w))
	}
	return n
}()

func isStopWord(folded []byte) bool {
	if len(folded) > maxStopWordLen {
		return false
	}
	_, ok := stopWords[string(folded)]
	return ok
}

// minStemLen: words of up to this many bytes are left alone; the stemmer
// rarely changes them and skipping them saves most calls.
const minStemLen = 3

// stemmable reports whether the English stemmer applies: more than
// minStemLen bytes, all ASCII letters (so no separators, digits or other
// scripts).
func stemmable(folded []byte) bool {
	if len(folded) <= minStemLen {
		return false
	}
	for _, c := range folded {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// stemCache memoizes english.Stem, which allocates several times per call.
// It is sharded to keep lock contention low when many goroutines index at
// once, and each shard is simply reset when full so memory stays bounded.
var stemCache = newStemCache(func(w string) string { return english.Stem(w, false) })

const (
	stemShards        = 32
	stemShardCapacity = 4096
)

type stemShard struct {
	mu sync.RWMutex
	m  map[string]string
}

type stemMemo struct {
	seed   maphash.Seed
	fn     func(string) string
	shards [stemShards]stemShard
}

// newStemCache returns a memo of fn, a stemmer of lowercase words.
func newStemCache(fn func(string) string) *stemMemo {
	c := &stemMemo{seed: maphash.MakeSeed(), fn: fn}
	for i := range c.shards {
		c.shards[i].m = make(map[string]string)
	}
	return c
}

// stem returns fn(word), from the memo when it is there.
func (c *stemMemo) stem(word []byte) string {
	return c.stemString(bytesString(word))
}

// stemString is stem of a string; word is copied only when it is stored.
func (c *stemMemo) stemString(word string) string {
	sh := &c.shards[maphash.String(c.seed, word)%stemShards]
	sh.mu.RLock()
	s, ok := sh.m[word]
	sh.mu.RUnlock()
	if ok {
		return s
	}
	w := strings.Clone(word)
	s = c.fn(w)
	sh.mu.Lock()
	if len(sh.m) >= stemShardCapacity {
		clear(sh.m)
	}
	sh.m[w] = s
	sh.mu.Unlock()
	return s
}
