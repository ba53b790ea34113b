package decl_test

import (
	"fmt"

	"github.com/twindex/twindex/decl"
)

func ExampleScan() {
	src := "// Copyright 2009 The Go Authors.\n// Use of this source code is governed by a BSD-style license.\n\npackage os\n\n// ReadFile reads the named file.\nfunc ReadFile(name string) ([]byte, error) {\n\treturn nil, nil\n}\n"
	f := decl.Scan(decl.LangOf("os/file.go"), src)
	for _, n := range f.Names {
		fmt.Println(n.Text, n.Start)
	}
	fmt.Printf("%q\n", src[f.Boilerplate:f.Boilerplate+10])
	// Output:
	// ReadFile 149
	// "package os"
}
