package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
)

// errUsage is returned by a command whose flags were wrong or asked for help;
// the flag package has already printed why.
var errUsage = errors.New("usage")

// errHelp is returned by a command asked for its help with -h.
var errHelp = errors.New("help")

// parseFlags parses args and maps -h and flag errors to errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return errHelp
	} else if err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected arguments: %q\n", fs.Args())
		fs.Usage()
		return errUsage
	}
	return nil
}

// eachJSONL decodes every non-blank line of the file at path into a fresh T
// and hands it to fn, streaming, so a corpus never has to fit in memory twice.
func eachJSONL[T any](path string, fn func(*T) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			v := new(T)
			if jerr := json.Unmarshal(b, v); jerr != nil {
				return fmt.Errorf("%s:%d: %w", path, line, jerr)
			}
			if ferr := fn(v); ferr != nil {
				return fmt.Errorf("%s:%d: %w", path, line, ferr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
}

// benchDoc is one line of a shared/bench corpus (make_corpus.py).
type benchDoc struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Title   string          `json:"title"`
	Body    string          `json:"body"`
	Parent  string          `json:"parent"`
	Tags    []string        `json:"tags"`
	Project string          `json:"project"`
	TS      json.RawMessage `json:"ts"`
}

func (d *benchDoc) doc() (index.Doc, error) {
	t, err := parseTS(d.TS)
	if err != nil {
		return index.Doc{}, fmt.Errorf("doc %q: ts: %w", d.ID, err)
	}
	return index.Doc{ID: d.ID, Kind: d.Kind, Title: d.Title, Body: d.Body, Parent: d.Parent,
		Tags: d.Tags, Project: d.Project, Time: t}, nil
}

// parseTS reads a timestamp written as an RFC 3339 string (make_corpus.py
// writes "2006-01-02T15:04:05Z") or as Unix seconds.
func parseTS(raw json.RawMessage) (time.Time, error) {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "" || s == "null" || s == `""`:
		return time.Time{}, nil
	case s[0] == '"':
		var str string
		if err := json.Unmarshal(raw, &str); err != nil {
			return time.Time{}, err
		}
		if sec, err := strconv.ParseFloat(str, 64); err == nil {
			return unixFloat(sec), nil
		}
		return time.Parse(time.RFC3339Nano, str)
	default:
		sec, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return time.Time{}, err
		}
		return unixFloat(sec), nil
	}
}

func unixFloat(sec float64) time.Time {
	whole := int64(sec)
	return time.Unix(whole, int64((sec-float64(whole))*1e9)).UTC()
}

// benchQuery is one line of queries.jsonl (make_queries.py).
type benchQuery struct {
	ID    string `json:"id"`
	Class string `json:"class"`
	Text  string `json:"text"`
}

func readQueries(path string) ([]benchQuery, error) {
	var qs []benchQuery
	err := eachJSONL(path, func(q *benchQuery) error {
		if q.ID == "" {
			return errors.New(`query without "id"`)
		}
		qs = append(qs, *q)
		return nil
	})
	return qs, err
}

// dirBytes sums the sizes of the regular files under dir. A file removed
// while it walks (an open index's merger deletes the segments it
// merged) is not counted.
func dirBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path != dir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	return n, err
}

// procStatusBytes reads a "kB" field such as VmHWM (peak resident set) or
// VmRSS from /proc/self/status; it returns 0 where there is no /proc.
func procStatusBytes(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// loadavg is /proc/loadavg's first three fields, or "" where there is none.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
