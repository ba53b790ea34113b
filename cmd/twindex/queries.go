package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// batchQuery is one line of a --queries file.
type batchQuery struct {
	ID   *string `json:"id"`
	BID  *string `json:"_id"`
	Text *string `json:"text"`
	Q    *string `json:"query"`
}

// runQueries runs every query of a --queries file. Exit status: 2 if a
// line was bad, else 1 if no query found anything, else 0.
func runQueries(ctx context.Context, e *env, eng server.Engine, out *output, name string, base index.Request) error {
	var r io.Reader = e.stdin
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return usageErr("", "%w", err)
		}
		defer fh.Close()
		r = fh
	}
	lr := newLineReader(r, 1<<20)
	bad, anyHits := 0, false
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		where := fmt.Sprintf("%s:%d", name, lr.n)
		if err != nil {
			if !errors.Is(err, errLineTooLong) {
				return usageErr("", "read %s: %w", name, err)
			}
			bad++
			fmt.Fprintf(e.stderr, "%s: query line too long\n", where)
			continue
		}
		id, text, err := parseQueryLine(line, lr.n)
		if err != nil {
			bad++
			fmt.Fprintf(e.stderr, "%s: %s\n", where, err)
			continue
		}
		if text == "" && id == "" {
			continue
		}
		req := base
		req.Query, req.Prefix = lastWordPrefix(text, req)
		start := time.Now()
		res, err := eng.Search(ctx, req)
		if err != nil {
			xe := searchErr(err, text)
			var ee *exitError
			if !errors.As(xe, &ee) || ee.code != exitUsage {
				return xe
			}
			bad++
			fmt.Fprintf(e.stderr, "%s: %s\n", where, xe)
			res = &index.Result{Mode: req.Mode}
		}
		anyHits = anyHits || res.Total > 0
		if err := out.result(id, text, res, time.Since(start)); err != nil {
			return err
		}
	}
	if bad > 0 {
		return usageErr("", "%d bad query line(s) in %s (reported above); the others ran", bad, name)
	}
	if !anyHits {
		return errNoResults
	}
	return nil
}

// parseQueryLine reads one --queries line: JSON {"id","text"} (or "_id",
// "query") or plain text, whose ID is its line number.
func parseQueryLine(line []byte, n int) (id, text string, err error) {
	s := strings.TrimSpace(string(line))
	if s == "" {
		return "", "", nil
	}
	if !strings.HasPrefix(s, "{") {
		return fmt.Sprint(n), s, nil
	}
	var bq batchQuery
	if err := jsonUnmarshal([]byte(s), &bq); err != nil {
		return "", "", err
	}
	switch {
	case bq.ID != nil:
		id = *bq.ID
	case bq.BID != nil:
		id = *bq.BID
	default:
		id = fmt.Sprint(n)
	}
	switch {
	case bq.Text != nil:
		text = *bq.Text
	case bq.Q != nil:
		text = *bq.Q
	default:
		return "", "", errors.New(`no "text" field`)
	}
	if strings.ContainsAny(id, " \t\n") {
		return "", "", fmt.Errorf("query id %q holds whitespace", id)
	}
	return id, text, nil
}
