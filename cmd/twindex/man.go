package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

const manHelp = `  twindex man | man -l -
  twindex man > /usr/local/share/man/man1/twindex.1

Prints the manual page, in roff, made from the same text as --help.`

func runMan(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "man", "twindex man", manHelp)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageErr("run 'twindex man --help'", "man takes no arguments")
	}
	manPage(e.stdout, describeCommands())
	return nil
}

// manPage writes the manual in man(7) roff: the main help, then every
// command's synopsis, flags and help text.
func manPage(w io.Writer, cmds []described) {
	fmt.Fprintf(w, `.TH TWINDEX 1 "" "twindex %s" "User Commands"
.nh
.ad l
.SH NAME
twindex \- %s
.SH SYNOPSIS
.B twindex
[\fB\-\-index\fR \fIDIR\fR] \fIcommand\fR [\fIflags\fR] [\fIargs\fR]
.SH DESCRIPTION
%s
.PP
Start here:
.PP
.nf
%s
.fi
.SH COMMANDS
`, roffText(buildVersion()), roffText(helpAbout), roffText(helpIndex), roffText(helpStart))
	for _, c := range cmds {
		if c.fs == nil {
			fmt.Fprintf(w, ".SS %s\n%s.\n", c.name, roffText(c.summary))
			continue
		}
		fmt.Fprintf(w, ".SS %s\n.B %s\n.PP\n%s.\n", c.name, roffText(c.fs.usage), roffText(upperFirst(c.summary)))
		for _, d := range c.fs.docs() {
			names := []string{}
			if d.short != "" {
				names = append(names, `\fB\-`+roffText(d.short)+`\fR`)
			}
			if d.long != "" {
				names = append(names, `\fB\-\-`+roffFlag(d.long)+`\fR`)
			}
			head := strings.Join(names, ", ")
			if d.arg != "" {
				head += ` \fI` + roffText(d.arg) + `\fR`
			}
			usage := d.usage
			if d.def != "" {
				usage += fmt.Sprintf(" (default %s)", d.def)
			}
			fmt.Fprintf(w, ".TP\n%s\n%s\n", head, roffText(usage))
		}
		if c.fs.example != "" {
			fmt.Fprintf(w, ".PP\n.nf\n%s\n.fi\n", roffText(strings.TrimRight(c.fs.example, "\n")))
		}
	}
	fmt.Fprintf(w, `.SH EXIT STATUS
.nf
%s
.fi
.SH ENVIRONMENT
.TP
.B TWINDEX_INDEX
the index directory, as \-\-index
.TP
.B TWINDEX_LOCK_WAIT
how long a command waits for an index another process holds (default 5s; 0 fails at once)
.TP
.B TWINDEX_SERVE
1: a search starts a server in the background, as search \-\-serve
.TP
.B NO_COLOR
no color in the output, even on a terminal
.TP
.B TWINDEX_TOKEN
the bearer token the HTTP API of twindex serve asks for
.TP
.B TWINDEX_EMBED_URL\fR, \fBTWINDEX_EMBED_MODEL\fR, \fBTWINDEX_EMBED_KEY
the embedding server, as \-\-embed\-url and \-\-embed\-model, and its API key
.TP
.B TWINDEX_RERANK_URL\fR, \fBTWINDEX_RERANK_MODEL\fR, \fBTWINDEX_RERANK_KEY
the rerank server, as \-\-rerank\-url and \-\-rerank\-model, and its API key
.SH FILES
.TP
.I .twindex/
the index of a folder, at the root of its git repository
.TP
.I ~/.cache/twindex/
the indexes of folders that cannot be written
`, roffText(helpExit))
}

// roffText escapes text for roff: backslashes, and a '.' or '\” that
// would start a line and read as a request.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// roffFlag escapes a flag name: its hyphens are minus signs, so that the
// name can be copied from the rendered page.
func roffFlag(s string) string {
	return strings.ReplaceAll(roffText(s), "-", `\-`)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
