package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// flagSet wraps flag.FlagSet so flags may come before or after positional
// arguments, as people type them: `twindex search foo --json` works.
type flagSet struct {
	*flag.FlagSet
	name, usage, example string
	out                  io.Writer
}

// newFlagSet makes the flags of one command; usage is the synopsis line and
// example one or more example invocations for --help.
func newFlagSet(e *env, name, usage, example string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), name: name, usage: usage, example: example, out: e.stdout}
	fs.SetOutput(io.Discard)
	return fs
}

// indexFlag registers --index, shared by every command that opens an index.
func (fs *flagSet) indexFlag() *string {
	return fs.String("index", "", "index directory (default: .twindex/ at the root found by walking up; env TWINDEX_INDEX)")
}

func (fs *flagSet) printHelp() {
	fmt.Fprintf(fs.out, "Usage:\n  %s\n\nFlags:\n", fs.usage)
	fs.SetOutput(fs.out)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	if fs.example != "" {
		fmt.Fprintf(fs.out, "\nExample:\n%s\n", strings.TrimRight(fs.example, "\n"))
	}
}

// parse reorders args so every flag precedes the positionals, then parses.
// It returns errHelp after printing help for -h/--help, and a usage error
// for anything flag rejects.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // flag reports it
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	err := fs.Parse(append(flags, append([]string{"--"}, pos...)...))
	if errors.Is(err, flag.ErrHelp) {
		fs.printHelp()
		return nil, errHelp
	}
	if err != nil {
		return nil, usageErr(fmt.Sprintf("run 'twindex %s --help'", fs.name), "%s", err.Error())
	}
	return fs.Args(), nil
}

// stringList is a repeatable string flag; commas also separate values.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}
