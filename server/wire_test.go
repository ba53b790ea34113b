package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/twindex/twindex/index"
)

// TestWireRequestHasEveryField: a request relayed to another node keeps
// every field of index.Request (a field the wire lacks is silently lost:
// Prefix, Lines and MinSeq were).
func TestWireRequestHasEveryField(t *testing.T) {
	rt, wt := reflect.TypeFor[index.Request](), reflect.TypeFor[request]()
	for f := range rt.Fields() {
		if _, ok := wt.FieldByName(f.Name); !ok {
			t.Errorf("the wire's request lacks index.Request.%s", f.Name)
		}
	}
	in := index.Request{Query: "readin", Prefix: true, Lines: &index.LineOptions{Before: 1, After: 2, Max: 3}, MinSeq: 7}
	out := toWire(in).index()
	if !out.Prefix || out.Lines == nil || *out.Lines != *in.Lines || out.MinSeq != 7 {
		t.Errorf("round trip: Prefix %v, Lines %+v, MinSeq %d; want true, %+v, 7", out.Prefix, out.Lines, out.MinSeq, *in.Lines)
	}
}

// TestWireReportHasEveryField: a check relayed from a server keeps every
// field of index.Report, the uncapped counts JSON leaves out included.
func TestWireReportHasEveryField(t *testing.T) {
	rt, wt := reflect.TypeFor[index.Report](), reflect.TypeFor[report]()
	for f := range rt.Fields() {
		if _, ok := wt.FieldByName(f.Name); !ok {
			t.Errorf("the wire's report lacks index.Report.%s", f.Name)
		}
	}
	in := &index.Report{Docs: 3, Seq: 9, Text: index.LegReport{Docs: 3, Seq: 9, Changed: []string{"b"}, ChangedN: 140},
		BadPairs: []string{"a"}, BadPairsN: 120}
	b, err := json.Marshal(toWireReport(in))
	if err != nil {
		t.Fatal(err)
	}
	var w report
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	if out := w.index(); !reflect.DeepEqual(out, in) {
		t.Errorf("round trip through JSON: %+v, want %+v", out, in)
	}
}
