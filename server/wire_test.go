package server

import (
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
