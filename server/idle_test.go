package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

// newHost returns the Host of a new index, and the index, closed when the
// test ends.
func newHost(t *testing.T) (*Host, *index.Index) {
	t.Helper()
	ix, err := index.Open(filepath.Join(t.TempDir(), "idx"), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHost(ix, nil)
	t.Cleanup(func() { h.Close() })
	return h, ix
}

// An Owner with OwnOptions.Idle closes Idle only once no request has been
// in progress for that long: not while one is (a request whose body is
// still coming, over HTTP), and soon after the last one ends.
func TestOwnerIdle(t *testing.T) {
	h, _ := newHost(t)
	const idle = 300 * time.Millisecond
	ow, err := Own(h, &OwnOptions{NoWatch: true, HTTP: "127.0.0.1:0", Idle: idle})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ow.Close(context.Background()) })

	body, send := io.Pipe()
	t.Cleanup(func() { send.Close() }) // before the Owner's Close, which waits for the request
	done := make(chan error, 1)
	go func() {
		resp, err := http.Post(ow.HTTPAddr()+"/v1/search", "application/json", body)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	// Held open for 4 idle periods, from before the first ends.
	select {
	case <-ow.Idle():
		t.Fatal("Idle closed while a request was in progress")
	case <-time.After(4 * idle):
	}
	io.WriteString(send, `{"query": "x"}`)
	send.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ended := time.Now()
	select {
	case <-ow.Idle():
		// The Owner's clock of the request stops before the client's:
		// a little under idle is on time.
		if took := time.Since(ended); took < idle*3/4 {
			t.Errorf("Idle closed %s after the last request, before %s", took, idle)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Idle not closed 10 s after the last request")
	}
}

// An Owner fills its index's cache of folded text once it is ready, and
// logs how many documents it folded.
func TestOwnerWarmsFolds(t *testing.T) {
	h, ix := newHost(t)
	if err := ix.Upsert(context.Background(), index.Doc{ID: "a", Body: "Alpha"}, index.Doc{ID: "b", Body: "Beta"}); err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	ow, err := Own(h, &OwnOptions{NoWatch: true, Log: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ow.Close(context.Background()) })
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(log.String(), `msg="warmed the cache of folded text" documents=2 `); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no warm-up logged after 10 s:\n%s", log.String())
		}
	}
}
