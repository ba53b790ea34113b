//go:build !js && !wasip1

package index_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
)

// The crash child writes batch k as docs "b<k>-0".."b<k>-9", all holding
// crashWord(k) (every odd batch over 512 KiB), and removes batch k-removeLag in the same batch, then
// prints "committed k". The parent kills it with SIGKILL at a random
// moment, reopens the index and checks every acknowledged batch.
const (
	crashBatchDocs = 10
	removeLag      = 5
	// crashLargeFiller makes the first document of every odd batch over
	// 512 KiB, so that half the batches take the path on which the
	// trigram index builds a batch as two segments.
	crashLargeFiller = 80000
)

func crashDocID(k, i int) string { return fmt.Sprintf("b%d-%d", k, i) }

// crashWord is a word unique to batch k in both legs: digits spelled as
// letters, since the text leg splits words at letter/digit boundaries.
func crashWord(k int) string {
	return "tk" + strings.Map(func(r rune) rune { return 'a' + r - '0' }, strconv.Itoa(k)) + "q"
}

func TestMain(m *testing.M) {
	if dir := os.Getenv("TWINDEX_CRASH_CHILD"); dir != "" {
		os.Exit(crashChild(dir))
	}
	os.Exit(m.Run())
}

func crashChild(dir string) int {
	start, _ := strconv.Atoi(os.Getenv("TWINDEX_CRASH_START"))
	ix, err := index.Open(dir, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "ready")
	out.Flush()
	for k := start; ; k++ {
		var b index.Batch
		for i := range crashBatchDocs {
			filler := 50 + i
			if k%2 == 1 && i == 0 {
				filler = crashLargeFiller // a batch the trigram index writes in halves
			}
			b.Upsert(index.Doc{
				ID:    crashDocID(k, i),
				Title: fmt.Sprintf("batch %d doc %d", k, i),
				Body:  fmt.Sprintf("%s crash safety %s %d", crashWord(k), strings.Repeat("filler ", filler), i),
			})
		}
		if k-removeLag >= 0 {
			for i := range crashBatchDocs {
				b.Remove(crashDocID(k-removeLag, i))
			}
		}
		if _, err := ix.Apply(ctx, &b); err != nil {
			fmt.Fprintln(os.Stderr, "child apply:", err)
			return 1
		}
		fmt.Fprintf(out, "committed %d\n", k)
		out.Flush()
	}
}

func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	kills := 20
	if v := os.Getenv("TWINDEX_CRASH_KILLS"); v != "" {
		kills, _ = strconv.Atoi(v)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	acked := -1 // highest batch the child reported committed
	for round := range kills {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), "TWINDEX_CRASH_CHILD="+dir, fmt.Sprintf("TWINDEX_CRASH_START=%d", acked+1))
		cmd.Stderr = os.Stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Kill at a random moment: sometimes during Open and recovery,
		// mostly while batches are being written.
		var deadline <-chan time.Time
		if rng.IntN(5) == 0 {
			deadline = time.After(time.Duration(rng.IntN(30)) * time.Millisecond)
		}
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("round %d: child exited early: %v", round, cmd.Wait())
				}
				if l == "ready" && deadline == nil {
					deadline = time.After(time.Duration(5+rng.IntN(300)) * time.Millisecond)
				}
				if n, ok := strings.CutPrefix(l, "committed "); ok {
					acked, _ = strconv.Atoi(n)
				}
			case <-deadline:
				break read
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for l := range lines { // what was printed before death counts
			if n, ok := strings.CutPrefix(l, "committed "); ok {
				acked, _ = strconv.Atoi(n)
			}
		}
		cmd.Wait()
		acked = verifyCrash(t, dir, round, acked)
	}
	t.Logf("%d kills, %d batches acknowledged", kills, acked+1)
}

// verifyCrash reopens the index and checks it against the acknowledged
// batches. The batch after the last acknowledged one may or may not have
// committed; it must be all there or not at all. It returns the highest
// batch that is in the index.
func verifyCrash(t *testing.T, dir string, round, acked int) int {
	t.Helper()
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatalf("round %d: reopen: %v", round, err)
	}
	defer ix.Close()
	rep, err := ix.Check(ctx)
	if err != nil || !rep.OK() {
		t.Fatalf("round %d: Check: %v\n%s", round, err, rep)
	}
	present := func(k int) int {
		n := 0
		for i := range crashBatchDocs {
			if _, err := ix.Get(crashDocID(k, i)); err == nil {
				n++
			}
		}
		return n
	}
	last := acked
	switch n := present(acked + 1); n {
	case crashBatchDocs:
		last = acked + 1 // committed, killed before it said so
	case 0:
	default:
		t.Fatalf("round %d: batch %d is partial: %d of %d docs", round, acked+1, n, crashBatchDocs)
	}
	if last < 0 {
		return last
	}
	for k := max(0, last-removeLag-2); k <= last; k++ {
		want := []string{}
		if k > last-removeLag {
			for i := range crashBatchDocs {
				want = append(want, crashDocID(k, i))
			}
		}
		if got := present(k); got != len(want) {
			t.Fatalf("round %d: batch %d (last %d): %d docs in the store, want %d", round, k, last, got, len(want))
		}
		for _, m := range []index.Mode{index.ModeSubstring, index.ModeText} {
			r, err := ix.Search(ctx, index.Request{Query: crashWord(k), Mode: m, Fallback: -1})
			if err != nil {
				t.Fatal(err)
			}
			got := ids(r)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: batch %d in %s leg: %v, want %v", round, k, m, got, want)
			}
		}
	}
	if n, _ := ix.Count(); n != min(last+1, removeLag)*crashBatchDocs {
		t.Fatalf("round %d: Count %d, want %d", round, n, min(last+1, removeLag)*crashBatchDocs)
	}
	return last
}
