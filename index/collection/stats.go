// Package collection holds the messages of a search of a collection that
// several indexes hold, one shard each (package cluster spreads one over
// machines). The search (package sharded) asks each shard three things,
// which *index.Index answers for its shard:
//
//   - Gather: the shard's part of the statistics the search scores with
//     (Stats). They are sums, so the caller adds the parts; a second
//     pass gathers what depends on the first (the documents holding any
//     of a prefix's completions, which the first pass chose).
//   - SearchShard: the shard's legs, scored with the collection's
//     statistics, so that a document scores as it would in one index of
//     every document: each leg's first hits, exact totals, and every
//     listed document's score in the other legs (ShardResult).
//   - RenderShard: the hits of a page that are the shard's documents,
//     with their snippets (RenderOptions).
//
// Invariants: every statistic is a sum over the shards, so Add of every
// shard's part gives the collection's; a statistic absent from Stats is
// unknown, never zero. The readers return false when a Stats (nil: none) lacks
// the statistic; the writers add to it, and do nothing on a nil one.
//
// Concurrency: a Stats is not safe for concurrent writes; a Recorder is.
package collection

import (
	"strings"
	"sync"
)

// FeedbackDoc is what pseudo-relevance feedback reads of one of its
// documents: how many tokens of its text it analyzed and how often each
// term occurs there.
type FeedbackDoc struct {
	Tokens int            `json:"n"`
	Terms  map[string]int `json:"tf"`
}

// Stats holds the statistics that a search scores with and that depend
// on the whole collection, for an index that holds one shard of it:
// document counts and lengths (BM25's N and average lengths), how many
// documents hold each query word and trigram (idf), the indexed terms a
// prefix or a fuzzy word stands for and their counts, and how many
// documents hold any term of such a set. Each is a sum over the shards,
// so Add of every shard's part gives the collection's. A search given a
// Stats (index.Index.SearchShard) scores every document as one index of
// all the documents would: see index.Index.Gather for how a caller
// collects it.
//
// Keys are the engine's own (terms as analyzed, folded trigrams, NUL-
// joined lists); a Stats is data to pass between shards, JSON-encoded,
// not to build by hand.
type Stats struct {
	Docs        uint64 `json:"docs"`
	TitleTokens uint64 `json:"titleTokens"`
	BodyTokens  uint64 `json:"bodyTokens"`
	TitleBytes  uint64 `json:"titleBytes"`
	BodyBytes   uint64 `json:"bodyBytes"`
	// Terms: documents holding the term in the title, in the body and
	// in the licence comment a body starts with (by rank.Title, rank.Body,
	// rank.Boiler): a word's idf is of the largest.
	Terms map[string][3]uint64 `json:"terms,omitempty"`
	// Grams: documents holding the trigram.
	Grams map[string]uint64 `json:"grams,omitempty"`
	// Prefixes: by prefixes, the dictionary entries starting with one of
	// them and their counts in the title's and the body's terms and in
	// the words as written.
	Prefixes map[string]map[string][3]uint64 `json:"prefixes,omitempty"`
	// Fuzzy: by word and distance, the entries near it in the body's
	// terms, the words as written and the title's terms, with their
	// distances (the terms' counts are in Terms).
	Fuzzy map[string][3]map[string]int `json:"fuzzy,omitempty"`
	// Sets: by set of terms, the documents holding any of them.
	Sets map[string]uint64 `json:"sets,omitempty"`
	// Feedback: by ID, what feedback reads of its documents
	// (ShardOptions.Feedback), from the shard holding each.
	Feedback map[string]FeedbackDoc `json:"feedback,omitempty"`
}

// Add adds o's statistics to g's.
func (g *Stats) Add(o *Stats) {
	g.Docs += o.Docs
	g.TitleTokens += o.TitleTokens
	g.BodyTokens += o.BodyTokens
	g.TitleBytes += o.TitleBytes
	g.BodyBytes += o.BodyBytes
	for k, v := range o.Terms {
		g.AddTerm(k, v)
	}
	for k, v := range o.Grams {
		g.AddGram(k, v)
	}
	for k, v := range o.Prefixes {
		g.AddPrefix(k, v)
	}
	for k, v := range o.Fuzzy {
		g.AddFuzzy(k, v)
	}
	for k, v := range o.Sets {
		if g.Sets == nil {
			g.Sets = map[string]uint64{}
		}
		g.Sets[k] += v
	}
	for id, d := range o.Feedback {
		g.AddFeedback(id, d)
	}
}

// Keys is the number of keyed statistics in g: a gathering pass that
// adds none has found every statistic a search needs. Feedback's
// documents are not counted: each comes from one shard.
func (g *Stats) Keys() int {
	if g == nil {
		return 0
	}
	return len(g.Terms) + len(g.Grams) + len(g.Prefixes) + len(g.Fuzzy) + len(g.Sets)
}

// LookupTerm returns the documents holding term t in the title, the body
// and the licence comment (see Terms).
func (g *Stats) LookupTerm(t string) ([3]uint64, bool) {
	if g == nil {
		return [3]uint64{}, false
	}
	c, ok := g.Terms[t]
	return c, ok
}

// AddTerm adds c to term t's counts.
func (g *Stats) AddTerm(t string, c [3]uint64) {
	if g == nil {
		return
	}
	if g.Terms == nil {
		g.Terms = map[string][3]uint64{}
	}
	o := g.Terms[t]
	for f := range o {
		o[f] += c[f]
	}
	g.Terms[t] = o
}

// LookupGram returns the documents holding trigram t.
func (g *Stats) LookupGram(t string) (uint64, bool) {
	if g == nil {
		return 0, false
	}
	c, ok := g.Grams[t]
	return c, ok
}

// AddGram adds c to trigram t's count.
func (g *Stats) AddGram(t string, c uint64) {
	if g == nil {
		return
	}
	if g.Grams == nil {
		g.Grams = map[string]uint64{}
	}
	g.Grams[t] += c
}

// LookupPrefix returns the completions of the prefixes keyed key, with
// their counts (see Prefixes).
func (g *Stats) LookupPrefix(key string) (map[string][3]uint64, bool) {
	if g == nil {
		return nil, false
	}
	c, ok := g.Prefixes[key]
	return c, ok
}

// AddPrefix adds the completions c to those keyed key.
func (g *Stats) AddPrefix(key string, c map[string][3]uint64) {
	if g == nil {
		return
	}
	if g.Prefixes == nil {
		g.Prefixes = map[string]map[string][3]uint64{}
	}
	m := g.Prefixes[key]
	if m == nil {
		m = map[string][3]uint64{}
		g.Prefixes[key] = m
	}
	for t, v := range c {
		o := m[t]
		m[t] = [3]uint64{o[0] + v[0], o[1] + v[1], o[2] + v[2]}
	}
}

// LookupFuzzy returns the entries near the word keyed key (see Fuzzy).
func (g *Stats) LookupFuzzy(key string) ([3]map[string]int, bool) {
	if g == nil {
		return [3]map[string]int{}, false
	}
	c, ok := g.Fuzzy[key]
	return c, ok
}

// AddFuzzy adds the entries c to those near the word keyed key.
func (g *Stats) AddFuzzy(key string, c [3]map[string]int) {
	if g == nil {
		return
	}
	if g.Fuzzy == nil {
		g.Fuzzy = map[string][3]map[string]int{}
	}
	m := g.Fuzzy[key]
	for f := range m {
		if m[f] == nil {
			m[f] = map[string]int{}
		}
		for t, d := range c[f] {
			m[f][t] = d
		}
	}
	g.Fuzzy[key] = m
}

// LookupFeedback returns what feedback read of document id.
func (g *Stats) LookupFeedback(id string) (FeedbackDoc, bool) {
	if g == nil {
		return FeedbackDoc{}, false
	}
	d, ok := g.Feedback[id]
	return d, ok
}

// AddFeedback sets what feedback read of document id.
func (g *Stats) AddFeedback(id string, d FeedbackDoc) {
	if g == nil {
		return
	}
	if g.Feedback == nil {
		g.Feedback = map[string]FeedbackDoc{}
	}
	g.Feedback[id] = d
}

// ListKey is the key of a list of terms: of a set in Stats.Sets, of the
// prefixes in Stats.Prefixes.
func ListKey(terms []string) string { return strings.Join(terms, "\x00") }

// Recorder gathers a shard's statistics during a search (index.Index.Gather);
// both legs of the search may record at once.
type Recorder struct {
	mu sync.Mutex
	g  Stats
	// tainted: the search made some set of terms from this shard's own
	// statistics (an expansion g lacked), so the sets' counts are not
	// the collection's and are not recorded; the next pass, with those
	// expansions in g, records them.
	tainted bool
}

// The Recorder's methods do nothing on a nil Recorder (a search that is
// not gathering) and record each statistic once: a search may read one
// twice. Put* record a statistic as Stats.Add* adds it.

func (r *Recorder) PutTerm(t string, c [3]uint64) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.LookupTerm(t); !ok {
			r.g.AddTerm(t, c)
		}
		r.mu.Unlock()
	}
}

func (r *Recorder) PutGram(t string, c uint64) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.LookupGram(t); !ok {
			r.g.AddGram(t, c)
		}
		r.mu.Unlock()
	}
}

func (r *Recorder) PutPrefix(key string, c map[string][3]uint64) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.LookupPrefix(key); !ok {
			r.g.AddPrefix(key, c)
		}
		r.mu.Unlock()
	}
}

func (r *Recorder) PutFuzzy(key string, c [3]map[string]int) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.LookupFuzzy(key); !ok {
			r.g.AddFuzzy(key, c)
		}
		r.mu.Unlock()
	}
}

func (r *Recorder) PutSet(key string, n uint64) {
	if r != nil {
		r.mu.Lock()
		if r.g.Sets == nil {
			r.g.Sets = map[string]uint64{}
		}
		if _, ok := r.g.Sets[key]; !ok {
			r.g.Sets[key] = n
		}
		r.mu.Unlock()
	}
}

func (r *Recorder) PutFeedback(id string, d FeedbackDoc) {
	if r != nil {
		r.mu.Lock()
		r.g.AddFeedback(id, d)
		r.mu.Unlock()
	}
}

// Taint marks the recording tainted (see Recorder).
func (r *Recorder) Taint() {
	if r != nil {
		r.mu.Lock()
		r.tainted = true
		r.mu.Unlock()
	}
}

// Tainted reports whether Taint was called.
func (r *Recorder) Tainted() bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tainted
}

// Stats is what r recorded.
func (r *Recorder) Stats() *Stats { return &r.g }
