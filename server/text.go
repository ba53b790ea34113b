package server

import (
	"fmt"
	"strings"
)

// The tools' text renderings read like the CLI's; these helpers are the
// few lines cmd/twindex has for the same, kept here rather than exported
// from a package that does not own them.

// clean replaces control characters and runs of whitespace by one space.
func clean(s string) string {
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

func pathBase(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[i+1:]
	}
	return id
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func listSome(l []string, max int) string {
	if len(l) <= max {
		return strings.Join(l, ", ")
	}
	return strings.Join(l[:max], ", ") + fmt.Sprintf(", and %d more", len(l)-max)
}

func formatBytes(n int64) string {
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
