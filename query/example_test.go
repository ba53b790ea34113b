package query_test

import (
	"errors"
	"fmt"

	"github.com/twindex/twindex/query"
)

func ExampleSimple() {
	n, err := query.Simple(`mcp-server "open file" C++ NOT`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n)
	for _, leaf := range query.Leaves(n) {
		switch l := leaf.(type) {
		case *query.Term:
			fmt.Printf("term %q at %d+%d\n", l.Text, l.Pos, l.Len)
		case *query.Phrase:
			fmt.Printf("phrase %q at %d+%d\n", l.Text, l.Pos, l.Len)
		}
	}

	_, err = query.Simple(`  "" `)
	fmt.Println(err)
	// Output:
	// AND("mcp-server" PHRASE("open file") "C++" "NOT")
	// term "mcp-server" at 0+10
	// phrase "open file" at 11+11
	// term "C++" at 23+3
	// term "NOT" at 27+3
	// query: empty query
}

func ExampleError_Caret() {
	err := &query.Error{Query: "café AND )", Pos: 10, Len: 1, Msg: "unexpected )"}
	fmt.Println(err)
	fmt.Println(err.Caret())
	// Output:
	// query: unexpected ) at offset 10
	// café AND )
	//          ^
}

func ExampleWalk() {
	n, _ := query.Simple(`a "b c" d`)
	count := 0
	query.Walk(n, func(query.Node) bool { count++; return true })
	fmt.Println(count, "nodes")
	// Output: 4 nodes
}

func ExampleRaw() {
	n, err := query.Raw(`title:"open file" OR vid* NOT NEAR(mcp server, 3)`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n)

	_, err = query.Raw(`mcp-server`)
	var qe *query.Error
	if errors.As(err, &qe) {
		fmt.Println(qe.Msg)
		fmt.Println(qe.Caret())
	}
	// Output:
	// OR(title:PHRASE("open file") AND("vid"* NOT(NEAR("mcp" "server", 3))))
	// '-' must start a column filter such as -title:word; quote text that contains '-'
	// mcp-server
	//    ^
}
