//go:build linux

package index_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/internal/damage"
)

const lowercase = "abcdefghijklmnopqrstuvwxyz"

// TestDiskFull writes to an index on an 8 MiB tmpfs until the disk is
// full, with the free space at the start varied so that the disk fills
// at different points of a write. Every failed write must report ENOSPC
// and the file it was writing; Close must not hang on scorch, which
// retries a failed persist forever; every acknowledged batch must survive
// Close and reopen (first on the full disk, then after a filler file is
// deleted) with Check clean; and then writes must succeed again.
func TestDiskFull(t *testing.T) {
	for _, free := range []int{1 << 20, 3 << 20} {
		t.Run(fmt.Sprintf("%dMiB", free>>20), func(t *testing.T) { diskFull(t, free) })
	}
}

func diskFull(t *testing.T, free int) {
	const size = 8 << 20
	disk := damage.SmallDisk(t, size)
	filler := filepath.Join(disk, "filler")
	if err := os.WriteFile(filler, make([]byte, size-free), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(disk, "ix")
	ix := mustOpen(t, dir, nil)
	rng := rand.New(rand.NewPCG(uint64(free), 6))
	var acked []string
	failed := 0
	start := time.Now()
	// Write until the disk is full, then a few batches more: space the
	// store freed when a commit failed may take a smaller one.
	for k := 0; failed < 5; k++ {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("%d batches in %v and the disk is not full", k, time.Since(start))
		}
		var b index.Batch
		var batch []string
		for i := range 10 {
			id := fmt.Sprintf("b%d-%d", k, i)
			b.Upsert(index.Doc{ID: id, Title: crashWord(k), Body: damage.Noise(rng, 2000+rng.IntN(4000), lowercase)})
			batch = append(batch, id)
		}
		_, err := ix.Apply(ctx, &b)
		if err == nil {
			acked = append(acked, batch...)
			continue
		}
		failed++
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), dir) {
			t.Errorf("write on a full disk: %v, want ENOSPC naming a file in %s", err, dir)
		}
	}
	t.Logf("%d documents acknowledged before the disk filled", len(acked))
	closeBounded := func(ix *index.Index) {
		t.Helper()
		t0 := time.Now()
		err := ix.Close()
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("Close on a full disk took %v: %v", d, err)
		}
		if err != nil && !strings.Contains(err.Error(), "no space left on device") {
			t.Errorf("Close on a full disk: %v, want the cause", err)
		}
	}
	closeBounded(ix)

	// Reopening on the still-full disk replays the unpersisted batches
	// into memory, or fails for want of space; never a *CorruptError.
	if full, err := index.Open(dir, nil); err != nil {
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("reopen on a full disk: %v, want ENOSPC", err)
		}
	} else {
		if rep, err := full.Check(ctx); err != nil || !rep.OK() {
			t.Errorf("Check on a full disk: %v\n%s", err, rep)
		}
		closeBounded(full)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	ix = mustOpen(t, dir, nil)
	if rep, err := ix.Check(ctx); err != nil || !rep.OK() {
		t.Errorf("Check after freeing space: %v\n%s", err, rep)
	}
	for _, id := range acked {
		if _, err := ix.Get(id); err != nil {
			t.Errorf("acknowledged %s lost: %v", id, err)
		}
	}
	if err := ix.Upsert(ctx, index.Doc{ID: "after", Body: "roomagain"}); err != nil {
		t.Fatalf("write after freeing space: %v", err)
	}
	if r := search(t, ix, index.Request{Query: "roomagain"}); r.Total != 1 {
		t.Errorf("write after freeing space not searchable: %v", ids(r))
	}
}
