package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// flagSet wraps flag.FlagSet so flags may come before or after positional
// arguments, as people type them (`twindex search foo --json`), short
// flags bundle as in ripgrep (`-lC2` is `-l -C 2`), and each flag may
// have a one-letter alias. The help text, the man page and the shell
// completions are all printed from it.
type flagSet struct {
	*flag.FlagSet
	name, usage, example string
	out                  io.Writer
	short                map[string]string   // long name -> its one-letter alias
	choices              map[string][]string // flag name -> the values it takes, for completion
	// describe, when set, gets the flag set in place of parsing: how
	// completion and the man page learn every command's flags.
	describe func(*flagSet)
}

// newFlagSet makes the flags of one command; usage is the synopsis line and
// example one or more example invocations for --help.
func newFlagSet(e *env, name, usage, example string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), name: name, usage: usage, example: example,
		out: e.stdout, short: map[string]string{}, choices: map[string][]string{}, describe: e.describe}
	fs.SetOutput(io.Discard)
	return fs
}

// indexFlag registers --index, shared by every command that opens an index.
func (fs *flagSet) indexFlag() *string {
	return fs.String("index", "", fs.indexFlagUsage())
}

func (fs *flagSet) indexFlagUsage() string {
	return "index `directory` (default: the nearest .twindex/ above, else one at the root of the git repository; env TWINDEX_INDEX)"
}

// alias makes -s the same flag as --long.
func (fs *flagSet) alias(s, long string) {
	f := fs.Lookup(long)
	fs.Var(f.Value, s, f.Usage)
	fs.short[long] = s
}

// choice is a setting that a pair of flags turns on and off (-n and -N,
// --heading and --no-heading): the last one given wins, as in ripgrep;
// when neither is, set is false and the caller's default holds.
type choice struct{ set, on bool }

// choice defines the pair of boolean flags that set c on and off.
func (fs *flagSet) choice(c *choice, on, onUsage, off, offUsage string) {
	fs.Var(choiceFlag{c, true}, on, onUsage)
	fs.Var(choiceFlag{c, false}, off, offUsage)
}

// choiceFlag is one flag of a choice's pair: given (or given true), it
// sets the choice to its side.
type choiceFlag struct {
	c  *choice
	on bool
}

func (f choiceFlag) String() string   { return "false" }
func (f choiceFlag) IsBoolFlag() bool { return true }

func (f choiceFlag) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	if b {
		*f.c = choice{set: true, on: f.on}
	}
	return nil
}

// oneOf says which values flag name takes, for shell completion.
func (fs *flagSet) oneOf(name string, values ...string) {
	fs.choices[name] = values
}

// isAlias reports whether f is the one-letter alias of a long flag.
func (fs *flagSet) isAlias(f *flag.Flag) bool {
	for long, s := range fs.short {
		if s == f.Name && long != s {
			return true
		}
	}
	return false
}

// flagDoc is one flag as help, the man page and the completions show it.
type flagDoc struct {
	long, short string // names without dashes; short may be ""
	arg         string // the value's name, "" for a boolean flag
	usage, def  string
	choices     []string // the values it takes, if a few
}

// docs lists the flags in name order, aliases folded into their long flag.
func (fs *flagSet) docs() []flagDoc {
	var out []flagDoc
	fs.VisitAll(func(f *flag.Flag) {
		if fs.isAlias(f) {
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		if isBool(f) {
			arg = ""
		}
		d := flagDoc{long: f.Name, short: fs.short[f.Name], arg: arg, usage: usage, choices: fs.choices[f.Name]}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && f.DefValue != "[]" {
			d.def = f.DefValue
		}
		if utf8.RuneCountInString(f.Name) == 1 {
			d.long, d.short = "", f.Name
		}
		out = append(out, d)
	})
	sort.Slice(out, func(i, j int) bool { return out[i].sortKey() < out[j].sortKey() })
	return out
}

func (d flagDoc) sortKey() string {
	if d.long != "" {
		return d.long
	}
	return d.short
}

// names is how the flag is typed: "-l, --files-with-matches".
func (d flagDoc) names() string {
	switch {
	case d.short != "" && d.long != "":
		return "-" + d.short + ", --" + d.long
	case d.short != "":
		return "-" + d.short
	}
	return "    --" + d.long
}

func (fs *flagSet) printHelp() {
	fmt.Fprintf(fs.out, "Usage:\n  %s\n\nFlags:\n", fs.usage)
	for _, d := range fs.docs() {
		head := "  " + d.names()
		if d.arg != "" {
			head += " " + d.arg
		}
		usage := d.usage
		if d.def != "" {
			usage += fmt.Sprintf(" (default %s)", d.def)
		}
		fmt.Fprintf(fs.out, "%s\n        %s\n", head, strings.ReplaceAll(usage, "\n", "\n        "))
	}
	if fs.example != "" {
		fmt.Fprintf(fs.out, "\nExample:\n%s\n", strings.TrimRight(fs.example, "\n"))
	}
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parse reorders args so every flag precedes the positionals, then parses.
// "--" ends the flags; "-" alone is a positional. It returns errHelp after
// printing help for -h/--help, and a usage error for anything flag
// rejects.
func (fs *flagSet) parse(args []string) ([]string, error) {
	if fs.describe != nil {
		fs.describe(fs)
		return nil, errHelp
	}
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
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			flags = append(flags, a)
			continue
		}
		f := fs.Lookup(name)
		if f == nil && a[1] != '-' {
			if expanded, ok := fs.bundle(name); ok {
				// The last flag of a bundle may want the next argument.
				args = append(args[:i:i], append(expanded, args[i+1:]...)...)
				i--
				continue
			}
		}
		flags = append(flags, a)
		if f == nil || isBool(f) {
			continue // flag reports an unknown one
		}
		if i+1 == len(args) {
			return nil, usageErr(fmt.Sprintf("run 'twindex %s --help'", fs.name), "flag needs an argument: %s", a)
		}
		flags = append(flags, args[i+1])
		i++
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

// bundle splits short flags written together, as ripgrep reads them: -ln
// is -l -n, and a flag that takes a value takes the rest (-C2, -nC2) or,
// when it ends the bundle, the next argument. It reports false unless
// every letter up to the value is a one-letter flag.
func (fs *flagSet) bundle(s string) ([]string, bool) {
	var out []string
	for i, r := range s {
		f := fs.Lookup(string(r))
		if f == nil {
			return nil, false
		}
		if isBool(f) {
			out = append(out, "-"+string(r))
			continue
		}
		if rest := s[i+utf8.RuneLen(r):]; rest != "" {
			return append(out, "-"+string(r)+"="+rest), true
		}
		return append(out, "-"+string(r)), true
	}
	return out, true
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
