package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progress draws a one-line progress report (docs/s, ETA) on stderr, but
// only on a terminal, only once the work has taken more than a second, and
// at most a few times a second. The zero total means unknown (no ETA).
type progress struct {
	w       io.Writer
	on      bool
	what    string
	total   int
	start   time.Time
	last    time.Time
	drawn   bool
	prevLen int
}

func newProgress(e *env, quiet bool, what string, total int) *progress {
	return &progress{w: e.stderr, on: !quiet && isTerminal(e.stderr), what: what, total: total, start: time.Now()}
}

// update reports that done units are finished.
func (p *progress) update(done int) {
	if !p.on {
		return
	}
	now := time.Now()
	el := now.Sub(p.start)
	if el < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	rate := float64(done) / el.Seconds()
	line := fmt.Sprintf("%s: %d", p.what, done)
	if p.total > 0 {
		line += fmt.Sprintf("/%d (%d%%)", p.total, done*100/p.total)
	}
	line += fmt.Sprintf("  %.0f docs/s", rate)
	if p.total > 0 && rate > 0 && done < p.total {
		eta := time.Duration(float64(p.total-done) / rate * float64(time.Second)).Round(time.Second)
		line += "  ETA " + eta.String()
	}
	pad := p.prevLen - len(line)
	if pad < 0 {
		pad = 0
	}
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
	p.prevLen = len(line)
	p.drawn = true
}

// done clears the progress line.
func (p *progress) done() {
	if p.drawn {
		fmt.Fprintf(p.w, "\r%*s\r", p.prevLen, "")
		p.drawn = false
	}
}
