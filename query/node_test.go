package query_test

import (
	"testing"

	"github.com/twindex/twindex/query"
)

func TestString(t *testing.T) {
	tests := []struct {
		name string
		node query.Node
		want string
	}{
		{"term", &query.Term{Text: "open"}, `"open"`},
		{"term escapes", &query.Term{Text: "a\"b\n"}, `"a\"b\n"`},
		{"column", &query.Term{Text: "x", Columns: []string{"title"}}, `title:"x"`},
		{"columns", &query.Term{Text: "x", Columns: []string{"title", "body"}}, `{title body}:"x"`},
		{"initial", &query.Term{Text: "x", Initial: true}, `^"x"`},
		{"column and initial", &query.Phrase{Text: "a b", Columns: []string{"title"}, Initial: true}, `title:^PHRASE("a b")`},
		{"prefix", &query.Prefix{Text: "op"}, `"op"*`},
		{"or", &query.Or{Children: []query.Node{&query.Term{Text: "a"}, &query.Prefix{Text: "b"}}}, `OR("a" "b"*)`},
		{"not", &query.And{Children: []query.Node{&query.Term{Text: "a"}, &query.Not{Child: &query.Term{Text: "b"}}}}, `AND("a" NOT("b"))`},
		{"near", &query.Near{Children: []query.Node{&query.Term{Text: "a"}, &query.Phrase{Text: "b c"}}, Distance: 10}, `NEAR("a" PHRASE("b c"), 10)`},
		{"nil child", &query.Not{}, `NOT(<nil>)`},
		{"empty and", &query.And{}, `AND()`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.node.String(); got != tt.want {
				t.Errorf("String() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestWalk(t *testing.T) {
	a, b, c, d := &query.Term{Text: "a"}, &query.Phrase{Text: "b"}, &query.Prefix{Text: "c"}, &query.Term{Text: "d"}
	near := &query.Near{Children: []query.Node{b, c}, Distance: 2}
	or := &query.Or{Children: []query.Node{near, nil, d}}
	root := &query.And{Children: []query.Node{a, &query.Not{Child: or}}}

	var order []string
	query.Walk(root, func(n query.Node) bool {
		order = append(order, n.String())
		return true
	})
	if len(order) != 8 {
		t.Errorf("visited %d nodes, want 8: %q", len(order), order)
	}

	leaves := query.Leaves(root)
	want := []query.Node{a, b, c, d}
	if len(leaves) != len(want) {
		t.Fatalf("Leaves = %v, want %v", leaves, want)
	}
	for i := range want {
		if leaves[i] != want[i] {
			t.Errorf("Leaves[%d] = %s, want %s", i, leaves[i], want[i])
		}
	}

	var skipped []string
	query.Walk(root, func(n query.Node) bool {
		skipped = append(skipped, n.String())
		_, isNot := n.(*query.Not)
		return !isNot
	})
	if len(skipped) != 3 {
		t.Errorf("with Not pruned visited %d nodes, want 3: %q", len(skipped), skipped)
	}

	query.Walk(nil, func(query.Node) bool { t.Error("visited nil"); return true })
	if got := query.Leaves(nil); got != nil {
		t.Errorf("Leaves(nil) = %v", got)
	}
}
