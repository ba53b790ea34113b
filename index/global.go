package index

import (
	"fmt"
	"strings"
	"sync"
)

// Global holds the statistics that a search scores with and that depend
// on the whole collection, for an index that holds one shard of it:
// document counts and lengths (BM25's N and average lengths), how many
// documents hold each query word and trigram (idf), the indexed terms a
// prefix or a fuzzy word stands for and their counts, and how many
// documents hold any term of such a set. Each is a sum over the shards,
// so Add of every shard's part gives the collection's. A search given a
// Global (SearchShard) scores every document as one index of all the
// documents would: see Gather for how a caller collects it.
//
// Keys are the engine's own (terms as analyzed, folded trigrams, NUL-
// joined lists); a Global is data to pass between shards, JSON-encoded,
// not to build by hand.
type Global struct {
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
func (g *Global) Add(o *Global) {
	g.Docs += o.Docs
	g.TitleTokens += o.TitleTokens
	g.BodyTokens += o.BodyTokens
	g.TitleBytes += o.TitleBytes
	g.BodyBytes += o.BodyBytes
	for k, v := range o.Terms {
		g.putTerm(k, v)
	}
	for k, v := range o.Grams {
		g.putGram(k, v)
	}
	for k, v := range o.Prefixes {
		g.putPrefix(k, v)
	}
	for k, v := range o.Fuzzy {
		g.putFuzzy(k, v)
	}
	for k, v := range o.Sets {
		if g.Sets == nil {
			g.Sets = map[string]uint64{}
		}
		g.Sets[k] += v
	}
	for id, d := range o.Feedback {
		g.putFeedback(id, d)
	}
}

// Keys is the number of keyed statistics in g: a gathering pass that
// adds none has found every statistic a search needs. Feedback's
// documents are not counted: each comes from one shard.
func (g *Global) Keys() int {
	if g == nil {
		return 0
	}
	return len(g.Terms) + len(g.Grams) + len(g.Prefixes) + len(g.Fuzzy) + len(g.Sets)
}

// The readers return false when g (nil: none) lacks the statistic; the
// writers add to it, and do nothing on a nil g.

func (g *Global) term(t string) ([3]uint64, bool) {
	if g == nil {
		return [3]uint64{}, false
	}
	c, ok := g.Terms[t]
	return c, ok
}

func (g *Global) putTerm(t string, c [3]uint64) {
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

func (g *Global) gram(t string) (uint64, bool) {
	if g == nil {
		return 0, false
	}
	c, ok := g.Grams[t]
	return c, ok
}

func (g *Global) putGram(t string, c uint64) {
	if g == nil {
		return
	}
	if g.Grams == nil {
		g.Grams = map[string]uint64{}
	}
	g.Grams[t] += c
}

func (g *Global) prefix(key string) (map[string][3]uint64, bool) {
	if g == nil {
		return nil, false
	}
	c, ok := g.Prefixes[key]
	return c, ok
}

func (g *Global) putPrefix(key string, c map[string][3]uint64) {
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

func (g *Global) fuzzy(key string) ([3]map[string]int, bool) {
	if g == nil {
		return [3]map[string]int{}, false
	}
	c, ok := g.Fuzzy[key]
	return c, ok
}

func (g *Global) putFuzzy(key string, c [3]map[string]int) {
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

func (g *Global) feedback(id string) (FeedbackDoc, bool) {
	if g == nil {
		return FeedbackDoc{}, false
	}
	d, ok := g.Feedback[id]
	return d, ok
}

func (g *Global) putFeedback(id string, d FeedbackDoc) {
	if g == nil {
		return
	}
	if g.Feedback == nil {
		g.Feedback = map[string]FeedbackDoc{}
	}
	g.Feedback[id] = d
}

// dictKey is the key of a set of terms in Global.Sets.
func dictKey(dict []string) string { return strings.Join(dict, "\x00") }

// counter returns one of the store's counters: the collection's on a
// shard, recorded while gathering.
func (s *search) counter(key []byte) uint64 {
	if s.g != nil {
		switch string(key) {
		case string(metaDocs):
			return s.g.Docs
		case string(metaTitleTokens):
			return s.g.TitleTokens
		case string(metaBodyTokens):
			return s.g.BodyTokens
		case string(metaTitleBytes):
			return s.g.TitleBytes
		case string(metaBodyBytes):
			return s.g.BodyBytes
		}
	}
	return getUint(s.tx, key)
}

// gatherCounters records the store's counters in rec.
func (s *search) gatherCounters() {
	r := &s.rec.g
	r.Docs, r.TitleTokens, r.BodyTokens = getUint(s.tx, metaDocs), getUint(s.tx, metaTitleTokens), getUint(s.tx, metaBodyTokens)
	r.TitleBytes, r.BodyBytes = getUint(s.tx, metaTitleBytes), getUint(s.tx, metaBodyBytes)
}

// missing is called when g lacks a statistic: on a shard that is not
// gathering, that is an error (the caller gathers first), never a score
// made from the shard's own statistics.
func (s *search) missing(format string, args ...any) error {
	if s.g == nil || s.rec != nil {
		return nil
	}
	return fmt.Errorf("%w: the collection's statistics lack %s (Gather them first)", ErrInvalidRequest, fmt.Sprintf(format, args...))
}

// setDocs returns the number of documents holding any term of a set the
// text leg reads, given this index's count: the collection's on a shard.
func (s *search) setDocs(qt tterm, here float64) (float64, error) {
	if s.g == nil && s.rec == nil || !qt.positive {
		return here, nil // not scored when only under a NOT
	}
	key := dictKey(qt.dict)
	if s.g != nil {
		if n, ok := s.g.Sets[key]; ok {
			return float64(n), nil
		}
	}
	if err := s.missing("a set of %d terms", len(qt.dict)); err != nil {
		return 0, err
	}
	if !s.rec.isTainted() {
		s.rec.putSet(key, uint64(here))
	}
	return here, nil
}

// recorder gathers a shard's statistics during a search (Gather); both
// legs may record at once.
type recorder struct {
	mu sync.Mutex
	g  Global
	// tainted: the search made some set of terms from this shard's own
	// statistics (an expansion g lacked), so the sets' counts are not
	// the collection's and are not recorded; the next pass, with those
	// expansions in g, records them.
	tainted bool
}

// The recorder's methods do nothing on a nil recorder (a search that is
// not gathering) and record each statistic once: a search may read one
// twice.

func (r *recorder) putTerm(t string, c [3]uint64) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.term(t); !ok {
			r.g.putTerm(t, c)
		}
		r.mu.Unlock()
	}
}

func (r *recorder) putGram(t string, c uint64) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.gram(t); !ok {
			r.g.putGram(t, c)
		}
		r.mu.Unlock()
	}
}

func (r *recorder) putPrefix(key string, c map[string][3]uint64) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.prefix(key); !ok {
			r.g.putPrefix(key, c)
		}
		r.mu.Unlock()
	}
}

func (r *recorder) putFuzzy(key string, c [3]map[string]int) {
	if r != nil {
		r.mu.Lock()
		if _, ok := r.g.fuzzy(key); !ok {
			r.g.putFuzzy(key, c)
		}
		r.mu.Unlock()
	}
}

func (r *recorder) putSet(key string, n uint64) {
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

func (r *recorder) putFeedback(id string, d FeedbackDoc) {
	if r != nil {
		r.mu.Lock()
		r.g.putFeedback(id, d)
		r.mu.Unlock()
	}
}

func (r *recorder) taint() {
	if r != nil {
		r.mu.Lock()
		r.tainted = true
		r.mu.Unlock()
	}
}

func (r *recorder) isTainted() bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tainted
}
