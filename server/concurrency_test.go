package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPConcurrent runs parallel searches while upserts commit batches
// through the same session: no call fails or waits for the writes, and
// no search sees part of a batch.
func TestMCPConcurrent(t *testing.T) {
	mt := newMCPTest(t)
	const batches, perBatch, searchers = 20, 25, 16
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	report := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	for g := range searchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				b := (g + n) % batches
				res, err := mt.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search",
					Arguments: object{"query": batchToken(b), "limit": 7, "offset": n % 3 * 7, "fallback": 0}})
				if err != nil || res.IsError {
					report(fmt.Errorf("search: %v %s", err, resultText(res)))
					return
				}
				var out searchOutput
				bs, _ := json.Marshal(res.StructuredContent)
				if err := json.Unmarshal(bs, &out); err != nil {
					report(err)
					return
				}
				off := n % 3 * 7
				wantHits := max(0, min(7, out.Total-off))
				switch {
				case out.Total != 0 && out.Total != perBatch:
					report(fmt.Errorf("batch %d: total %d, a half-applied batch", b, out.Total))
				case len(out.Hits) != wantHits:
					report(fmt.Errorf("batch %d offset %d: %d hits of total %d", b, off, len(out.Hits), out.Total))
				case (out.NextOffset != nil) != (off+len(out.Hits) < out.Total) || out.Truncated != (out.NextOffset != nil):
					report(fmt.Errorf("batch %d: nextOffset %v truncated %v with %d of %d", b, out.NextOffset, out.Truncated, len(out.Hits), out.Total))
				}
				for _, h := range out.Hits {
					if !strings.HasPrefix(h.ID, fmt.Sprintf("b%d-", b)) {
						report(fmt.Errorf("search %s found %s", batchToken(b), h.ID))
					}
				}
			}
		}()
	}
	for b := range batches {
		var docs []object
		for i := range perBatch {
			docs = append(docs, object{"id": fmt.Sprintf("b%d-%d", b, i), "body": fmt.Sprintf("document %d of %s", i, batchToken(b))})
		}
		mt.upsert(docs...)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var st statsOutput
	mt.ok("stats", object{}, &st)
	if st.Docs != batches*perBatch || st.Searches.Served == 0 {
		t.Errorf("stats %+v", st)
	}
}

// batchToken is a word only batch b's documents hold, in both legs: all
// letters, of one length and ending in no suffix a stemmer removes, so
// no token is part of another or shares a stem with it.
func batchToken(b int) string {
	return fmt.Sprintf("batch%c%cqz", 'a'+b/26, 'a'+b%26)
}

// TestMCPSearchDuringIndexPath checks that a long index_path does not
// hold up searches on the same session.
func TestMCPSearchDuringIndexPath(t *testing.T) {
	mt := newMCPTest(t)
	mt.upsert(object{"id": "note", "body": "searchable while indexing"})
	root := mt.root
	for i := range 2000 {
		name := filepath.Join(root, fmt.Sprintf("d%02d", i%30), fmt.Sprintf("f%04d.txt", i))
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte(fmt.Sprintf("file %d says %s\n", i, strings.Repeat("lorem ipsum ", 40))), 0o644)
	}
	done := make(chan *mcp.CallToolResult, 1)
	params := &mcp.CallToolParams{Name: "index_path", Arguments: object{"path": root}}
	params.SetProgressToken(7)
	start := time.Now()
	go func() {
		res, err := mt.cs.CallTool(context.Background(), params)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case <-mt.progress: // the sync has walked the folder and started writing
	case res := <-done:
		t.Fatalf("index_path returned before any progress: %s", resultText(res))
	}
	during := 0
	for {
		var out searchOutput
		mt.ok("search", object{"query": "searchable"}, &out)
		if out.Total < 1 {
			t.Fatalf("search during index_path: %+v", out)
		}
		select {
		case res := <-done:
			if res.IsError {
				t.Fatalf("index_path: %s", resultText(res))
			}
			t.Logf("%d searches while index_path ran for %s", during, time.Since(start))
			if during == 0 {
				t.Errorf("no search finished while index_path ran")
			}
			return
		default:
			during++
		}
	}
}
