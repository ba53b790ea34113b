package collection_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/twindex/twindex/index/collection"
)

func TestAddSumsShards(t *testing.T) {
	a := &collection.Stats{Docs: 2, BodyTokens: 10}
	a.AddTerm("read", [3]uint64{1, 2, 0})
	a.AddGram("rea", 2)
	a.AddPrefix("re", map[string][3]uint64{"read": {1, 2, 0}})
	b := &collection.Stats{Docs: 3, BodyTokens: 5}
	b.AddTerm("read", [3]uint64{0, 1, 1})
	b.AddTerm("write", [3]uint64{0, 1, 0})
	b.AddPrefix("re", map[string][3]uint64{"read": {0, 1, 0}, "red": {0, 1, 0}})
	b.AddFeedback("doc1", collection.FeedbackDoc{Tokens: 4, Terms: map[string]int{"read": 2}})
	g := &collection.Stats{}
	g.Add(a)
	g.Add(b)
	if g.Docs != 5 || g.BodyTokens != 15 {
		t.Errorf("docs %d, body tokens %d; want 5, 15", g.Docs, g.BodyTokens)
	}
	if c, _ := g.LookupTerm("read"); c != [3]uint64{1, 3, 1} {
		t.Errorf("read %v, want [1 3 1]", c)
	}
	if p, _ := g.LookupPrefix("re"); p["read"] != [3]uint64{1, 3, 0} || p["red"] != [3]uint64{0, 1, 0} {
		t.Errorf("prefix re %v", p)
	}
	if _, ok := g.LookupFeedback("doc1"); !ok {
		t.Error("feedback of doc1 lost")
	}
	if g.Keys() != 4 { // read, write, rea, re
		t.Errorf("keys %d, want 4", g.Keys())
	}
	// A statistic absent is unknown, not zero.
	if _, ok := g.LookupGram("xyz"); ok {
		t.Error("an absent gram is known")
	}
	// It travels as JSON between shards.
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	var back collection.Stats
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if c, _ := back.LookupTerm("read"); c != [3]uint64{1, 3, 1} || back.Keys() != 4 {
		t.Errorf("after JSON: read %v, keys %d", c, back.Keys())
	}
}

func TestNilStats(t *testing.T) {
	var g *collection.Stats
	g.AddTerm("x", [3]uint64{1})
	if _, ok := g.LookupTerm("x"); ok || g.Keys() != 0 {
		t.Error("a nil Stats holds a statistic")
	}
	var r *collection.Recorder
	r.PutTerm("x", [3]uint64{1})
	r.Taint()
	if r.Tainted() {
		t.Error("a nil Recorder is tainted")
	}
}

func TestRecorderRecordsOnce(t *testing.T) {
	r := &collection.Recorder{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.PutTerm("read", [3]uint64{0, 2, 0})
			r.PutGram("rea", 3)
			r.PutSet("a\x00b", 7)
		}()
	}
	wg.Wait()
	g := r.Stats()
	if c, _ := g.LookupTerm("read"); c != [3]uint64{0, 2, 0} {
		t.Errorf("read %v recorded more than once", c)
	}
	if n, _ := g.LookupGram("rea"); n != 3 || g.Sets[collection.ListKey([]string{"a", "b"})] != 7 {
		t.Errorf("gram %d, set %d", n, g.Sets["a\x00b"])
	}
}
