package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
)

// checkItem is a document to check, with its folded text, or its stored
// record to fold (rec, valid for the search's transaction, and its write
// sequence number), and, when it came from the trigram index, its
// candidate entry. Folding is left to the goroutines that check: in a
// process whose fold cache is cold, it is most of a search.
type checkItem struct {
	id   string
	dl   float64 // the folded length the trigram index holds; -1 when not read
	f    *record.Folded
	rec  []byte
	seq  uint64
	cand *grams.Candidate
}

// parallelChecks is the fewest documents checked by more than one goroutine.
const parallelChecks = 512

// textHead is how much of a candidate's body a check decodes and folds
// first when no fold cache keeps it: a common word occurs in most of a
// corpus, and mostly in a file's first lines (a licence, a package
// clause), where it is found without decoding the rest.
const textHead = 1024

// odds tells a worker whether a shortcut tried on each document still
// pays: one that fails costs its work again by the long way, one that
// succeeds saves the long way. Reading texts' heads first: a head that
// does not decide costs its decoding again with the rest (a quarter of
// a typical source file's). Looking for a phrase as written
// (record.Folded.HasRun): a document without it is scanned again for
// the windows. After oddsTrial tries, the shortcut is taken while at
// least one in oddsPay succeeds, and on every oddsProbe-th try skipped
// otherwise; past twice oddsTrial tries both counts are halved, so that
// the odds are those of the last few dozen. Documents come in runs (a
// folder of tests without the licence the others start with), and the
// odds must see the next run.
type odds struct{ tries, paid, skipped int }

const (
	oddsTrial = 32
	oddsPay   = 3
	oddsProbe = 16
)

func (o *odds) worth() bool {
	if o.tries < oddsTrial || o.paid*oddsPay >= o.tries {
		return true
	}
	o.skipped++
	return o.skipped%oddsProbe == 0
}

func (o *odds) add(paid bool) {
	o.tries++
	if paid {
		o.paid++
	}
	if o.tries == 2*oddsTrial {
		o.tries, o.paid = o.tries/2, o.paid/2
	}
}

// checkFunc judges a document whose folded text, or its head's, is fd
// (see newCheck in substringLeg).
type checkFunc func(id string, fd *record.Folded, cand *grams.Candidate, head bool, dl float64) (rank.Scored, plan.Verdict)

// checkStream checks the items that produce adds, about n in all, on up
// to Options.Workers goroutines, each with its own check function, and
// returns the matches in no set order. produce runs on the caller's
// goroutine, which alone reads the store for it; the other workers check
// the items in chunks of checkChunk as they come, and the caller checks
// a chunk itself when they have enough waiting, then what is left once
// produce returns. With head more than 0, a candidate that is not folded
// into the cache is first judged by its text's head, of head bytes
// (record.DecodeTextHead), and decoded whole only when that does not
// decide it.
func (s *search) checkStream(n int, newCheck func() checkFunc, head int, produce func(add func(checkItem)) error) ([]rank.Scored, error) {
	workers := make([]checkWorker, s.ix.workersFor(n, parallelChecks))
	for w := range workers {
		workers[w] = checkWorker{s: s, check: newCheck(), head: head}
	}
	errs := make([]error, len(workers))
	// check checks a chunk on worker w, unless one of its chunks failed
	// or the search is cancelled. A check reads no bleve data: a panic
	// in one is a bug, the search's error (recovered).
	check := func(w int, chunk []checkItem) {
		defer recovered(&errs[w])
		if errs[w] != nil {
			return
		}
		if errs[w] = s.ctx.Err(); errs[w] != nil {
			return
		}
		for i := range chunk {
			if errs[w] = workers[w].item(&chunk[i]); errs[w] != nil {
				return
			}
		}
	}
	// With one worker, chunks stays nil: the select below never sends on
	// it, and the caller checks every chunk itself.
	var chunks chan []checkItem
	var wg sync.WaitGroup
	if len(workers) > 1 {
		chunks = make(chan []checkItem, 2*len(workers))
		for w := 1; w < len(workers); w++ {
			wg.Go(func() {
				for chunk := range chunks {
					check(w, chunk)
				}
			})
		}
	}
	// Should produce panic (a damaged index, for guard), the other
	// workers still end before the search's reads are closed.
	stop := sync.OnceFunc(func() {
		if chunks != nil {
			close(chunks)
		}
		wg.Wait()
	})
	defer stop()
	chunk := make([]checkItem, 0, checkChunk)
	err := produce(func(it checkItem) {
		if chunk = append(chunk, it); len(chunk) < checkChunk {
			return
		}
		select {
		case chunks <- chunk:
			chunk = make([]checkItem, 0, checkChunk)
		default:
			check(0, chunk)
			chunk = chunk[:0]
		}
	})
	check(0, chunk)
	stop()
	// A bug's panic first, before an error of produce's (a cancellation).
	for _, e := range errs {
		if _, bug := e.(*PanicError); bug {
			return nil, e
		}
	}
	for _, e := range errs {
		err = cmp.Or(err, e)
	}
	if err != nil {
		return nil, err
	}
	outs := make([][]rank.Scored, len(workers))
	for w := range workers {
		outs[w] = workers[w].out
	}
	if out := slices.Concat(outs...); out != nil {
		return out, nil
	}
	return []rank.Scored{}, nil
}

// checkChunk is how many items a worker of checkStream takes at a time.
const checkChunk = 64

// checkWorker is one goroutine of checkStream: its check function, its
// matches, and the buffers it decompresses and folds texts into, used
// again from item to item (a check keeps nothing of the text).
type checkWorker struct {
	s         *search
	check     checkFunc
	head      int // see checkStream
	out       []rank.Scored
	dec, fold []byte
	fd        record.Folded
	heads     odds
}

// item checks one item. A text the index's fold cache has room for is
// folded into it; else, with no cache or a full one, into the worker's
// buffer: evicting one folded text for another would cost a fold with
// masks and maps and gain no hit, the entries being arbitrary.
func (cw *checkWorker) item(it *checkItem) error {
	s := cw.s
	f := it.f
	if f == nil {
		t, decided, err := cw.text(it)
		if err != nil || decided {
			return err
		}
		if s.ix.fold.Keeps() && s.ix.fold.Room(t.Len()) {
			f, err = s.ix.fold.Get(it.id, it.seq, func() (record.Text, error) { return t, nil })
		} else {
			f, cw.fold, err = record.FoldInto(&cw.fd, cw.fold, t, false)
		}
		if err != nil {
			return fmt.Errorf("document %q: %w", it.id, err)
		}
	}
	cw.add(cw.check(it.id, f, it.cand, false, float64(len(f.Title)+len(f.Body))))
	return nil
}

// text returns an item's text as stored, decompressed into the worker's
// buffer, unless the head of its text decided it (decided): tried when
// heads are asked for and still pay, the item is a candidate whose folded
// length is known, and its text would not go into the fold cache whole.
func (cw *checkWorker) text(it *checkItem) (t record.Text, decided bool, err error) {
	if cw.head > 0 && it.cand != nil && it.dl >= 0 && cw.heads.worth() {
		var h record.TextHead
		if h, cw.dec, err = record.DecodeTextHead(it.rec, cw.dec, cw.head); err != nil {
			return t, false, fmt.Errorf("document %q: %w", it.id, err)
		}
		if h.Whole {
			return h.Text, false, nil
		}
		if fc := cw.s.ix.fold; !fc.Keeps() || !fc.Room(h.TitleLen+h.BodyLen) {
			var hf *record.Folded
			if hf, cw.fold, err = record.FoldHeadInto(&cw.fd, cw.fold, h, false); err != nil {
				return t, false, fmt.Errorf("document %q: %w", it.id, err)
			}
			v := cw.add(cw.check(it.id, hf, it.cand, true, it.dl))
			cw.heads.add(v != plan.Abstain)
			if v != plan.Abstain {
				return t, true, nil
			}
		}
	}
	if t, cw.dec, err = record.DecodeRecordStored(it.rec, cw.dec); err != nil {
		return t, false, fmt.Errorf("document %q: %w", it.id, err)
	}
	return t, false, nil
}

// add keeps a check's match and returns its verdict.
func (cw *checkWorker) add(m rank.Scored, v plan.Verdict) plan.Verdict {
	if v == plan.Yes {
		cw.out = append(cw.out, m)
	}
	return v
}

// workersFor is the goroutines that share n items: up to
// Options.Workers, each with at least minPer items, and at least one.
func (ix *Index) workersFor(n, minPer int) int {
	return max(1, min(ix.opts.Workers, n/minPer))
}

// inParts calls item(w, i) for every i in [0, n), the range cut into
// workers consecutive parts, part w on goroutine w (the caller's own when
// there is one part). A part stops at its first error or when ctx is
// cancelled (checked every 64 items); inParts returns the first part's
// error in part order. The items must read no bleve data: a panic in one
// is a bug, returned as a *PanicError (recovered).
func inParts(ctx context.Context, n, workers int, item func(w, i int) error) error {
	errs := make([]error, workers)
	part := func(w int) {
		defer recovered(&errs[w])
		lo, hi := w*n/workers, (w+1)*n/workers
		for i := lo; i < hi; i++ {
			if (i-lo)%64 == 0 {
				if errs[w] = ctx.Err(); errs[w] != nil {
					return
				}
			}
			if errs[w] = item(w, i); errs[w] != nil {
				return
			}
		}
	}
	if workers == 1 {
		part(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { part(w) })
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
