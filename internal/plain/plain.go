// Package plain renders values as the plain text that the CLI prints and
// the MCP tools return: one line per value, no control characters. It
// needs nothing of the engine, so the CLI and package server share it.
package plain

import (
	"fmt"
	"strings"
)

// Clean replaces control characters and runs of whitespace by one space.
func Clean(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == ' ' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// Base is the last element of a slash-separated ID.
func Base(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[i+1:]
	}
	return id
}

// OrDash is s, or "-" for an empty s.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// List joins the first max of l with commas and says how many it left out.
func List(l []string, max int) string {
	if len(l) <= max {
		return strings.Join(l, ", ")
	}
	return strings.Join(l[:max], ", ") + fmt.Sprintf(", and %d more", len(l)-max)
}

// Bytes is n in B, KiB, MiB or GiB, with one decimal above B.
func Bytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
