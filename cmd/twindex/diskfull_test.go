//go:build linux

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twindex/twindex/folder"
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/damage"
)

// TestDiskFullCLIIngest runs `twindex index --jsonl` into an index on a
// small tmpfs that fills up part way. The run must exit 3 naming ENOSPC
// and the file; every batch it acknowledged ("committed through line N")
// must be in the store and both indexes; and once a filler file is
// deleted, `twindex check` passes and the same command finishes the job.
func TestDiskFullCLIIngest(t *testing.T) {
	const size, free = 32 << 20, 2 << 20
	disk := damage.SmallDisk(t, size)
	filler := filepath.Join(disk, "filler")
	if err := os.WriteFile(filler, make([]byte, size-free), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	dir, path := filepath.Join(disk, "idx"), filepath.Join(tmp, "docs.jsonl")
	const lines = 3 * folder.BatchDocs
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for n := 1; n <= lines; n++ {
		fmt.Fprintf(&b, `{"id":%q,"title":"line %d","body":"%s %s"}`+"\n", lineID(n), n, lineWord(n), damage.Noise(rng, 1000, "klmnoprstuvxyz"))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	began := time.Now()
	r := twindex(t, tmp, "index", "--jsonl", path, "--index", dir).want(t, exitIndex)
	// Closing must not wait on scorch, which retries a failed persist
	// forever.
	if d := time.Since(began); d > time.Minute {
		t.Errorf("the run on a full disk took %v", d)
	}
	if !strings.Contains(r.stderr, "no space left on device") || !strings.Contains(r.stderr, dir) || !strings.Contains(r.stderr, "hint: free disk space") {
		t.Errorf("stderr does not name ENOSPC and a file in %s, with a hint:\n%s", dir, r.stderr)
	}
	acked := 0
	for _, m := range regexp.MustCompile(`(?m)^twindex: committed through line (\d+)$`).FindAllStringSubmatch(r.stderr, -1) {
		acked, _ = strconv.Atoi(m[1])
	}
	t.Logf("disk full after %d acknowledged lines in %v:\n%s", acked, time.Since(began), r.stderr)

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	twindex(t, tmp, "check", "--index", dir).want(t, 0)
	ix, err := index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= acked; n++ {
		if _, err := ix.Get(lineID(n)); err != nil {
			t.Fatalf("acknowledged line %d lost: %v", n, err)
		}
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	twindex(t, tmp, "index", "--jsonl", path, "--index", dir).want(t, 0)
	twindex(t, tmp, "check", "--index", dir).want(t, 0)
	ix, err = index.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if n, err := ix.Count(); err != nil || n != lines {
		t.Errorf("after freeing space: %d documents, %v; want %d", n, err, lines)
	}
}
