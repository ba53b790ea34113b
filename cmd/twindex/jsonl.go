package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/server"
)

// jsonDoc is one JSONL line as written: the engine's field names, plus the
// BEIR names (_id, text) so test collections load as they are.
type jsonDoc struct {
	ID      *string           `json:"id"`
	BEIRID  *string           `json:"_id"`
	Kind    string            `json:"kind"`
	Title   string            `json:"title"`
	Body    *string           `json:"body"`
	Text    *string           `json:"text"`
	Parent  string            `json:"parent"`
	Tags    []string          `json:"tags"`
	Role    string            `json:"role"`
	Project string            `json:"project"`
	Source  string            `json:"source"`
	TS      *string           `json:"ts"`
	Meta    map[string]string `json:"meta"`
	Session string            `json:"session"`
	Links   []index.Link      `json:"links"`
	Vector  []float32         `json:"vector"`
}

// parseDocLine parses one JSONL line into a document and checks it as the
// engine will, so a bad line is reported by its number instead of failing
// a whole batch. maxText is the engine's MaxDocBytes.
func parseDocLine(line []byte, maxText int) (index.Doc, error) {
	var j jsonDoc
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&j); err != nil {
		return index.Doc{}, jsonErr(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return index.Doc{}, errors.New("more than one JSON value on the line")
	}
	d := index.Doc{Kind: j.Kind, Title: j.Title, Parent: j.Parent, Tags: j.Tags, Role: j.Role,
		Project: j.Project, Source: j.Source, Meta: j.Meta, Session: j.Session, Links: j.Links, Vector: j.Vector}
	switch {
	case j.ID != nil:
		d.ID = *j.ID
	case j.BEIRID != nil:
		d.ID = *j.BEIRID
	}
	switch {
	case j.Body != nil:
		d.Body = *j.Body
	case j.Text != nil:
		d.Body = *j.Text
	}
	if j.TS != nil && *j.TS != "" {
		t, err := server.ParseTime(*j.TS)
		if err != nil {
			return index.Doc{}, fmt.Errorf("field ts: %w", err)
		}
		d.Time = t
	}
	return d, server.CheckDoc(d, maxText)
}

func jsonErr(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte %d: %s", se.Offset, se.Error())
	case errors.As(err, &te):
		return fmt.Errorf("field %s: want %s, got JSON %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("truncated JSON")
	}
	return err
}

// lineReader reads lines of any length up to max bytes; a longer line is
// skipped and reported as such rather than held in memory.
type lineReader struct {
	r   *bufio.Reader
	max int
	n   int // number of the last line read, from 1
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

var errLineTooLong = errors.New("line too long")

// next returns the next line without its newline. At the end it returns
// io.EOF; for an over-long line it returns errLineTooLong and moves on.
func (lr *lineReader) next() ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		frag, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(frag) > lr.max+1 {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(buf) == 0 && !tooLong {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		lr.n++
		if tooLong {
			return nil, errLineTooLong
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if lr.n == 1 {
			buf = bytes.TrimPrefix(buf, []byte("\xef\xbb\xbf"))
		}
		return buf, nil
	}
}
