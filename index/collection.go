package index

import (
	"fmt"

	"github.com/twindex/twindex/index/collection"
	"github.com/twindex/twindex/index/internal/plan"
)

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
	r := s.rec.Stats()
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
func (s *search) setDocs(qt plan.Term, here float64) (float64, error) {
	if s.g == nil && s.rec == nil || !qt.Positive {
		return here, nil // not scored when only under a NOT
	}
	key := collection.ListKey(qt.Dict)
	if s.g != nil {
		if n, ok := s.g.Sets[key]; ok {
			return float64(n), nil
		}
	}
	if err := s.missing("a set of %d terms", len(qt.Dict)); err != nil {
		return 0, err
	}
	if !s.rec.Tainted() {
		s.rec.PutSet(key, uint64(here))
	}
	return here, nil
}
