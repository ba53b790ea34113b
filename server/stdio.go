package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound JSON-RPC message on stdio, as the SDK's
// default does.
const maxLine = mcp.DefaultMaxLineLength

// Stdio is the MCP transport over a process's standard streams:
// newline-delimited JSON-RPC, as mcp.IOTransport, except that a line that
// is not a JSON-RPC message (malformed JSON, a value that is no request,
// or a line over 16 MiB) is answered with a JSON-RPC error and skipped,
// where the SDK's transport would end the session. Neither stream is
// closed: the process owns them, and the goroutine that reads in runs
// until in ends.
func Stdio(in io.Reader, out io.Writer) mcp.Transport {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go filterLines(in, pw, w)
	return &mcp.IOTransport{Reader: pr, Writer: w}
}

// lockedWriter writes whole messages: the SDK writes each one in a
// single call, and so do parse errors, under the same lock.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// JSON-RPC error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// filterLines copies the valid messages of in to pw, one per line, and
// answers the others on out. It closes pw when in ends.
func filterLines(in io.Reader, pw *io.PipeWriter, out io.Writer) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if tooLong {
			replyError(out, codeInvalidRequest, "message over 16 MiB")
		} else if t := bytes.TrimSpace(line); len(t) > 0 {
			if code, msg := checkMessage(t); code != 0 {
				replyError(out, code, msg)
			} else if _, werr := pw.Write(append(t, '\n')); werr != nil {
				return // the session ended
			}
		}
		if err != nil {
			pw.CloseWithError(err)
			return
		}
	}
}

// readLine reads one line, without its newline, of at most maxLine
// bytes; a longer line is consumed and reported as tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		frag, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > maxLine {
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// checkMessage returns a JSON-RPC error code and message for a line that
// is not a message (or a batch of them), 0 otherwise.
func checkMessage(line []byte) (int, string) {
	if !json.Valid(line) {
		return codeParseError, "parse error: not JSON"
	}
	msgs := []json.RawMessage{line}
	if line[0] == '[' {
		// A fresh slice: unmarshaling into msgs[0] would write over line.
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
			return codeInvalidRequest, "invalid request: an empty or malformed batch"
		}
		msgs = batch
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return codeInvalidRequest, "invalid request: " + err.Error()
		}
	}
	return 0, ""
}

func replyError(out io.Writer, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	out.Write(append(b, '\n'))
}
