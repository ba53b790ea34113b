package backend

import (
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/rank"
)

// Join maps the doc numbers of one index's state to the doc numbers of
// the same documents (by external ID) in another index's state: the
// engine's trigram and text indexes hold the same documents under numbers
// of their own. A search that fuses two legs places each match of one in
// the other; by external IDs that is a string map built per search (a
// fifth of a two-character query in auto mode on the yardstick's corpus),
// by a table it is two array lookups. The table costs a pass over both
// states' documents, so it is built for a pair of states once the joins
// done without it have cost as much (buildCost), and then kept for the
// pair, like IDs and Whole for their state: the latest pair only, held
// weakly. A nil Join builds no table. Safe for concurrent use.
type Join struct {
	latest atomic.Pointer[joinCache]
}

// buildCost is what a document of either state costs the table's build,
// in the map operations of a join without it: 60-100 ns a document with
// its IDs remembered (IDs), about 200 without, against 30-50 ns a map
// operation (the yardstick's corpus, 12,487 documents a side: 1.5-2.6 ms
// and 4.3-5.3 ms a build).
const buildCost = 4

// joinCache is one pair of states' table, built once.
type joinCache struct {
	from, to stateRef
	work     atomic.Int64 // the joins' work done without the table
	mu       sync.Mutex   // held while the table is built
	built    atomic.Bool
	table    []int32 // from's doc number -> to's, -1 for none; nil when not doc numbers
}

// Table returns the table from from's doc numbers to to's (-1 where to
// has no document of that ID), or nil: when either reader's state is
// unknown to stateOf or holds more documents than IDs remembers (their
// lookups would make the build a stall of a search), when the pair's
// joins so far and work (this join's cost without a table, in map
// operations) are still below the table's cost, or while another search
// builds it. fromIDs and toIDs resolve the
// readers' internal IDs. A build that fails is not kept.
func (j *Join) Table(from, to bleveindex.IndexReader, fromIDs, toIDs rank.Resolver, work int) ([]int32, error) {
	if j == nil {
		return nil, nil
	}
	fr, ok := stateOf(from)
	if !ok {
		return nil, nil
	}
	tr, ok := stateOf(to)
	if !ok {
		return nil, nil
	}
	c := j.latest.Load()
	if c == nil || c.from != fr || c.to != tr {
		fresh := &joinCache{from: fr, to: tr}
		if j.latest.CompareAndSwap(c, fresh) {
			c = fresh
		} else if c = j.latest.Load(); c == nil || c.from != fr || c.to != tr {
			return nil, nil // a search of other states has the cache
		}
	}
	if c.built.Load() {
		return c.table, nil
	}
	done := c.work.Add(int64(work))
	nf, err := from.DocCount()
	if err != nil {
		return nil, err
	}
	nt, err := to.DocCount()
	if err != nil {
		return nil, err
	}
	if nf > maxRemembered || nt > maxRemembered || uint64(done) < buildCost*(nf+nt) || !c.mu.TryLock() {
		return nil, nil
	}
	defer c.mu.Unlock()
	if c.built.Load() {
		return c.table, nil
	}
	table, err := buildJoin(from, to, fromIDs, toIDs, nf, nt)
	if errors.Is(err, errNotDocNumbers) {
		table, err = nil, nil // kept: there is no table to build
	}
	if err != nil {
		return nil, err
	}
	c.table = table
	c.built.Store(true)
	return table, nil
}

// errNotDocNumbers stops eachDoc at an internal ID that is not a doc
// number below maxDocNumber.
var errNotDocNumbers = errors.New("internal IDs are not doc numbers")

// buildJoin reads the IDs of to's nt documents, then of from's nf, and
// returns the table Table describes.
func buildJoin(from, to bleveindex.IndexReader, fromIDs, toIDs rank.Resolver, nf, nt uint64) ([]int32, error) {
	byID := make(map[string]int32, nt)
	if err := eachDoc(to, toIDs, func(n int32, id string) { byID[id] = n }); err != nil {
		return nil, err
	}
	table := make([]int32, 0, nf)
	err := eachDoc(from, fromIDs, func(n int32, id string) {
		for int(n) >= len(table) {
			table = append(table, -1)
		}
		if t, ok := byID[id]; ok {
			table[n] = t
		}
	})
	return table, err
}

// eachDoc calls fn with the doc number and external ID of each of r's
// live documents, or fails with errNotDocNumbers. Cost: a posting and an
// ID lookup a document.
func eachDoc(r bleveindex.IndexReader, ids rank.Resolver, fn func(n int32, id string)) error {
	all, err := r.DocIDReaderAll()
	if err != nil {
		return err
	}
	defer all.Close()
	for {
		iid, err := all.Next()
		if err != nil || iid == nil {
			return err
		}
		if len(iid) != 8 {
			return errNotDocNumbers
		}
		n := binary.BigEndian.Uint64(iid)
		if n >= maxDocNumber {
			return errNotDocNumbers
		}
		id, err := ids.ExternalID(iid)
		if err != nil {
			return err
		}
		fn(int32(n), id)
	}
}
