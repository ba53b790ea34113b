//go:build !js && !wasip1

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
)

// The kill tests run the real binary, SIGKILL it at a random moment, open
// the index in the test process and check that every acknowledged write
// is in the store and both legs, that no batch is partly visible, and that
// Check finds no drift. TWINDEX_KILLS sets the number of kills (20; the
// soak runs 100).

// killRounds is the number of kills per test.
func killRounds(t *testing.T) int {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns and kills processes")
	}
	v := os.Getenv("TWINDEX_KILLS")
	if v == "" {
		return 20
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("TWINDEX_KILLS=%q: want a positive number", v)
	}
	return n
}

// spell writes n in width digits spelled as the letters a..j: the text
// leg splits words at letter/digit boundaries, so the words are letters.
func spell(n, width int) string {
	return strings.Map(func(r rune) rune { return 'a' + r - '0' }, fmt.Sprintf("%0*d", width, n))
}

// Words unique to one line, one round of the CLI test, and one MCP
// document. Each has a fixed prefix and a terminator outside a..j, so no
// word is part of another in the substring leg and no stemmer shortens it.
func lineWord(n int) string  { return "w" + spell(n, 5) + "q" }
func roundWord(r int) string { return "gen" + spell(r, 3) + "x" }
func mcpWord(n int) string   { return "m" + spell(n, 6) + "z" }

func lineID(n int) string { return fmt.Sprintf("l%05d", n) }

// childEnv is the environment without TWINDEX_ variables, so neither
// TWINDEX_INDEX nor TWINDEX_KILLS reaches the child.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TWINDEX_") {
			env = append(env, kv)
		}
	}
	return append(env, "NO_COLOR=1")
}

// findsExactly fails unless word finds exactly want (sorted IDs) in the
// substring and the text leg.
func findsExactly(t *testing.T, ix *index.Index, word string, want ...string) {
	t.Helper()
	for _, m := range []index.Mode{index.ModeSubstring, index.ModeText} {
		r, err := ix.Search(t.Context(), index.Request{Query: word, Mode: m, Limit: index.MaxLimit, Fallback: -1})
		if err != nil {
			t.Fatalf("search %s in the %s leg: %v", word, m, err)
		}
		got := make([]string, 0, len(r.Hits))
		for _, h := range r.Hits {
			got = append(got, h.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || r.Total != len(want) {
			t.Fatalf("search %s in the %s leg: %v (total %d), want %v", word, m, got, r.Total, want)
		}
	}
}

// total is the number of documents word finds, the same in both legs.
func total(t *testing.T, ix *index.Index, word string) int {
	t.Helper()
	n := -1
	for _, m := range []index.Mode{index.ModeSubstring, index.ModeText} {
		r, err := ix.Search(t.Context(), index.Request{Query: word, Mode: m, Limit: 1, Fallback: -1})
		if err != nil {
			t.Fatalf("search %s in the %s leg: %v", word, m, err)
		}
		if n >= 0 && r.Total != n {
			t.Fatalf("search %s: %d in the substring leg, %d in the text leg", word, n, r.Total)
		}
		n = r.Total
	}
	return n
}

func checkIndex(t *testing.T, ix *index.Index) {
	t.Helper()
	rep, err := ix.Check(t.Context())
	if err != nil || !rep.OK() {
		t.Fatalf("Check: %v\n%s", err, rep)
	}
}

// cliKillLines is the size of the JSONL file: 16 batches.
const cliKillLines = 16 * folder.BatchDocs

// writeRound writes the JSONL file for a round: the same IDs and line
// words every round, plus the round's word and number, so each run
// replaces every document and a batch half-replaced would show.
func writeRound(t *testing.T, path string, round int) {
	t.Helper()
	var b strings.Builder
	for n := 1; n <= cliKillLines; n++ {
		fmt.Fprintf(&b, `{"id":%q,"title":"line %d","body":"%s %s crash filler","meta":{"round":"%d"}}`+"\n",
			lineID(n), n, lineWord(n), roundWord(round), round)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKillCLIIngest kills `twindex index --jsonl` at random moments while
// it re-ingests the same documents, and checks the index after each kill
// against the "committed through line N" lines the process printed.
func TestKillCLIIngest(t *testing.T) {
	kills := killRounds(t)
	start := time.Now()
	tmp := t.TempDir()
	dir, path := filepath.Join(tmp, "idx"), filepath.Join(tmp, "docs.jsonl")
	const batches = cliKillLines / folder.BatchDocs
	// Timing estimates for the kill moment, refined as runs report.
	firstAck, gap := 300*time.Millisecond, 100*time.Millisecond
	rounds, killed, ackedEver, stored := 0, 0, 0, 0
	// A run killed after its last batch may exit first; it does not count.
	for round := 1; killed < kills; round++ {
		if round > 2*kills+10 {
			t.Fatalf("%d runs for %d kills: the kills come too late", round, kills)
		}
		writeRound(t, path, round)
		cmd := exec.Command(bin, "index", "--jsonl", path, "--index", dir)
		cmd.Env = childEnv()
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		began := time.Now()
		// The reader never blocks: a run prints at most batches lines.
		acks := make(chan int, batches+1)
		var other []string // stderr lines that are not acknowledgements
		go func() {
			defer close(acks)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				if n, ok := strings.CutPrefix(sc.Text(), "twindex: committed through line "); ok {
					v, err := strconv.Atoi(n)
					if err != nil {
						v = -1
					}
					acks <- v
					continue
				}
				other = append(other, sc.Text())
			}
		}()
		// Kill after a random number of acknowledged batches and a random
		// part of the next batch's time: target 0 kills during startup or
		// the first batch, target batches while the index closes.
		target := rand.IntN(batches + 1)
		jitter := func(d time.Duration) <-chan time.Time { return time.After(rand.N(d) + time.Millisecond) }
		var fire <-chan time.Time
		if target == 0 {
			fire = jitter(firstAck + gap)
		}
		acked, seen := 0, 0
		var lastAck time.Time
		timeout := time.After(2 * time.Minute)
	run:
		for {
			select {
			case n, ok := <-acks:
				if !ok {
					break run // it finished before the kill
				}
				if n <= acked || n%folder.BatchDocs != 0 && n != cliKillLines {
					t.Fatalf("round %d: acknowledged line %d after line %d", round, n, acked)
				}
				acked, seen, lastAck = n, seen+1, time.Now()
				if seen == 1 {
					firstAck = lastAck.Sub(began)
				} else {
					gap = lastAck.Sub(began) - firstAck
					gap /= time.Duration(seen - 1)
				}
				if seen == target {
					fire = jitter(gap)
				}
			case <-fire:
				break run
			case <-timeout:
				t.Fatalf("round %d: no kill after 2 minutes, %d batches acknowledged", round, seen)
			}
		}
		cmd.Process.Kill() // SIGKILL
		// What it printed before it died counts as acknowledged.
		for n := range acks {
			acked = n
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		} else if err != nil || acked != cliKillLines {
			// Not killed (it may finish just before the kill fires): it
			// must have exited cleanly with every line acknowledged.
			t.Fatalf("round %d: exit %v after line %d\n%s", round, err, acked, strings.Join(other, "\n"))
		}
		if acked < 0 {
			t.Fatalf("round %d: unreadable acknowledgement", round)
		}
		ackedEver = max(ackedEver, acked)
		stored = verifyCLIKill(t, dir, round, acked, ackedEver, stored, killed == kills)
		rounds = round
	}
	twindex(t, tmp, "check", "--index", dir).want(t, 0)
	t.Logf("%d runs, %d killed by SIGKILL, %d of %d lines stored, 0 acknowledged writes lost, %s",
		rounds, killed, stored, cliKillLines, time.Since(start).Round(time.Millisecond))
}

// verifyCLIKill opens the index after round's run, which acknowledged
// lines 1..acked, and checks it. Each run writes a prefix of the file, so
// the stored lines are a prefix of whole batches covering every line ever
// acknowledged and at least the previous prefix (stored), and the rounds
// along the file never increase, changing only at batch boundaries. At
// most the one batch after the last acknowledgement may have committed
// unannounced. It returns the length of the stored prefix.
func verifyCLIKill(t *testing.T, dir string, round, acked, ackedEver, stored int, all bool) int {
	t.Helper()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatalf("round %d: open after kill: %v", round, err)
	}
	defer ix.Close()
	rounds := make([]int, cliKillLines+1) // per line; 0 means absent
	for n := 1; n <= cliKillLines; n++ {
		d, err := ix.Get(lineID(n))
		if errors.Is(err, index.ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatalf("round %d: get line %d: %v", round, n, err)
		}
		if rounds[n], err = strconv.Atoi(d.Meta["round"]); err != nil || rounds[n] < 1 || rounds[n] > round {
			t.Fatalf("round %d: line %d holds round %q", round, n, d.Meta["round"])
		}
		if !strings.Contains(d.Body, lineWord(n)+" "+roundWord(rounds[n])+" ") {
			t.Fatalf("round %d: line %d body %q does not match its round %d", round, n, d.Body, rounds[n])
		}
	}
	prefix, current := 0, 0 // lines stored, lines of this round
	counts := map[int]int{}
	for n := 1; n <= cliKillLines; n++ {
		r := rounds[n]
		if r == 0 {
			break
		}
		prefix++
		counts[r]++
		if r == round {
			current++
		}
		if n > 1 && r > rounds[n-1] || (n-1)%folder.BatchDocs != 0 && r != rounds[n-1] {
			t.Fatalf("round %d: line %d holds round %d, line %d round %d: a batch is partly written", round, n, r, n-1, rounds[n-1])
		}
	}
	for n := prefix + 1; n <= cliKillLines; n++ {
		if rounds[n] != 0 {
			t.Fatalf("round %d: line %d is stored but line %d is not: not a prefix", round, n, prefix+1)
		}
	}
	whole := func(n int) bool { return n%folder.BatchDocs == 0 || n == cliKillLines }
	switch {
	case !whole(prefix) || !whole(current):
		t.Fatalf("round %d: %d lines stored, %d of this round: not whole batches", round, prefix, current)
	case prefix < ackedEver || prefix < stored:
		t.Fatalf("round %d: %d lines stored; acknowledged through %d, %d stored before: acknowledged writes lost", round, prefix, ackedEver, stored)
	case current < acked:
		t.Fatalf("round %d: %d lines of this round, acknowledged through %d: acknowledged writes lost", round, current, acked)
	case current > acked+folder.BatchDocs:
		t.Fatalf("round %d: %d lines of this round, acknowledged through %d: more than one batch unannounced", round, current, acked)
	}
	if n, err := ix.Count(); err != nil || n != prefix {
		t.Fatalf("round %d: Count %d (%v), want %d", round, n, err, prefix)
	}
	for r := 1; r <= round; r++ {
		if got := total(t, ix, roundWord(r)); got != counts[r] {
			t.Fatalf("round %d: %s finds %d, want %d", round, roundWord(r), got, counts[r])
		}
	}
	// Every line by its own word after the last kill; before, the first
	// and last line of each batch and a sample, to keep CI fast (a search
	// pair costs ~0.1 ms; the round words above count every line).
	for n := 1; n <= prefix; n++ {
		if all || n%folder.BatchDocs <= 1 || n%97 == round%97 {
			findsExactly(t, ix, lineWord(n), lineID(n))
		}
	}
	checkIndex(t, ix)
	return prefix
}

// MCP load: mcpWriters clients calls in parallel, each upserting batches
// of mcpBatchDocs new documents, each document with its own word.
const (
	mcpWriters   = 3
	mcpBatchDocs = 20
)

// mcpBatch is one upsert call: documents first..first+mcpBatchDocs-1.
type mcpBatch struct {
	first  int
	round  int
	acked  bool // the call returned without error
	stored bool // all its documents were found after a kill
}

func mcpID(n int) string { return fmt.Sprintf("m%06d", n) }

// TestKillMCPUpserts kills `twindex mcp` with SIGKILL 5-300 ms into an
// upsert load from parallel clients and checks the index after each kill
// against the calls that returned.
func TestKillMCPUpserts(t *testing.T) {
	kills := killRounds(t)
	start := time.Now()
	dir := filepath.Join(t.TempDir(), "idx")
	var all []mcpBatch
	for round := 1; round <= kills; round++ {
		all = mcpKillRound(t, dir, round, all)
		verifyMCPKill(t, dir, round, all)
	}
	acked, stored := 0, 0
	for _, b := range all {
		if b.acked {
			acked++
		}
		if b.stored {
			stored++
		}
	}
	t.Logf("%d kills, %d upsert calls: %d acknowledged, %d stored (%d documents), 0 acknowledged writes lost, %s",
		kills, len(all), acked, stored, stored*mcpBatchDocs, time.Since(start).Round(time.Millisecond))
}

// mcpKillRound starts the server on dir, runs the load, kills the server
// and returns all with this round's calls appended.
func mcpKillRound(t *testing.T, dir string, round int, all []mcpBatch) []mcpBatch {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--index", dir, "--log-level", "error")
	cmd.Env = childEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "twindex-kill-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("round %d: connect: %v", round, err)
	}
	defer cmd.Process.Kill() // on a failure; a no-op after the kill

	var (
		mu       sync.Mutex
		killed   bool
		failures []string // calls that failed while the server was alive
		next     = len(all) * mcpBatchDocs
		wg       sync.WaitGroup
	)
	for range mcpWriters {
		wg.Go(func() {
			for ctx.Err() == nil {
				mu.Lock()
				i, first := len(all), next
				all = append(all, mcpBatch{first: first, round: round})
				next += mcpBatchDocs
				mu.Unlock()
				docs := make([]object, mcpBatchDocs)
				for j := range docs {
					n := first + j
					docs[j] = object{"id": mcpID(n), "title": fmt.Sprintf("doc %d", n), "body": mcpWord(n) + " crash filler"}
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "upsert", Arguments: object{"docs": docs}})
				mu.Lock()
				switch {
				case err == nil && !res.IsError:
					all[i].acked = true
				case err == nil:
					failures = append(failures, resultText(res))
				case !killed:
					failures = append(failures, err.Error())
				}
				mu.Unlock()
				if err != nil {
					return // the server is gone
				}
			}
		})
	}
	time.Sleep(5*time.Millisecond + rand.N(296*time.Millisecond))
	mu.Lock()
	killed = true
	mu.Unlock()
	cmd.Process.Kill() // SIGKILL
	wg.Wait()
	cs.Close() // reaps the process
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("round %d: server exited before the kill: %v\n%s", round, cmd.ProcessState, stderr.String())
	}
	if len(failures) > 0 {
		t.Fatalf("round %d: calls failed before the kill: %q\n%s", round, failures, stderr.String())
	}
	return all
}

// verifyMCPKill opens the index after round's kill and checks every call
// ever made: all of its documents or none are stored; all of them if it
// returned or was stored before; this round's stored documents are found
// by their words in both legs; nothing else is stored.
func verifyMCPKill(t *testing.T, dir string, round int, all []mcpBatch) {
	t.Helper()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatalf("round %d: open after kill: %v", round, err)
	}
	defer ix.Close()
	docs := 0
	for i := range all {
		b := &all[i]
		n := 0
		for j := range mcpBatchDocs {
			_, err := ix.Get(mcpID(b.first + j))
			switch {
			case err == nil:
				n++
			case !errors.Is(err, index.ErrNotFound):
				t.Fatalf("round %d: get %s: %v", round, mcpID(b.first+j), err)
			}
		}
		switch {
		case n != 0 && n != mcpBatchDocs:
			t.Fatalf("round %d: call %d (round %d) is partly stored: %d of %d documents", round, i, b.round, n, mcpBatchDocs)
		case n == 0 && b.acked:
			t.Fatalf("round %d: call %d (round %d) returned but its documents are missing: acknowledged writes lost", round, i, b.round)
		case n == 0 && b.stored:
			t.Fatalf("round %d: call %d (round %d) was stored after an earlier kill and is gone", round, i, b.round)
		}
		b.stored = n == mcpBatchDocs
		docs += n
		if b.stored && b.round == round {
			for j := range mcpBatchDocs {
				findsExactly(t, ix, mcpWord(b.first+j), mcpID(b.first+j))
			}
		}
	}
	if n, err := ix.Count(); err != nil || n != docs {
		t.Fatalf("round %d: Count %d (%v), want %d", round, n, err, docs)
	}
	checkIndex(t, ix)
}
