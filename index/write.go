package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// MaxIDBytes is the longest document ID accepted.
const MaxIDBytes = 1024

// replayChunk is how many documents go into one bleve batch when
// recovering or rebuilding.
const replayChunk = 1000

// Batch collects writes that Apply makes all-or-nothing. The zero value is
// an empty batch. Later operations on an ID override earlier ones. A Batch
// is not safe for concurrent use.
type Batch struct {
	ops   []op
	marks map[string]uint64 // see Mark
}

type opKind uint8

const (
	opUpsert opKind = iota
	opAdd
	opRemove
)

type op struct {
	kind opKind
	doc  Doc // for opRemove only doc.ID is set
}

// Add adds a new document; Apply fails with ErrExists if the ID exists.
func (b *Batch) Add(d Doc) { b.ops = append(b.ops, op{kind: opAdd, doc: d}) }

// Upsert adds a document or replaces the one with the same ID.
func (b *Batch) Upsert(d Doc) { b.ops = append(b.ops, op{kind: opUpsert, doc: d}) }

// Remove removes documents; absent IDs are ignored.
func (b *Batch) Remove(ids ...string) {
	for _, id := range ids {
		b.ops = append(b.ops, op{kind: opRemove, doc: Doc{ID: id}})
	}
}

// Len is the number of operations in the batch.
func (b *Batch) Len() int { return len(b.ops) }

// Reset empties the batch for reuse.
func (b *Batch) Reset() { b.ops, b.marks = b.ops[:0], nil }

// Applied tells what a write did.
type Applied struct {
	Written int // documents added or replaced
	Removed int // documents that existed and were removed
	// Warnings say what was written in a lesser form: documents stored
	// without vectors because the Embedder failed.
	Warnings []string
	// Seq is the write's sequence in a cluster's stream (package
	// cluster), for Request.MinSeq; 0 for an Index.
	Seq uint64
}

// Add stores new documents, all or none; it fails with ErrExists if any ID
// exists.
func (ix *Index) Add(ctx context.Context, docs ...Doc) error {
	var b Batch
	for _, d := range docs {
		b.Add(d)
	}
	_, err := ix.Apply(ctx, &b)
	return err
}

// Upsert adds or replaces documents, all or none.
func (ix *Index) Upsert(ctx context.Context, docs ...Doc) error {
	var b Batch
	for _, d := range docs {
		b.Upsert(d)
	}
	_, err := ix.Apply(ctx, &b)
	return err
}

// Remove removes documents and returns how many existed.
func (ix *Index) Remove(ctx context.Context, ids ...string) (int, error) {
	var b Batch
	b.Remove(ids...)
	a, err := ix.Apply(ctx, &b)
	return a.Removed, err
}

func (ix *Index) validate(d *Doc) error { return CheckDoc(d, ix.opts.MaxDocBytes) }

// CheckDoc reports, as an ErrInvalidDoc, what in d no index would store:
// an empty, oversized or non-UTF-8 ID, NUL bytes in IDs and link types,
// more than maxDocBytes of text, too many links, a vector with NaN or
// infinity or too many dimensions. It does not know an index's vector
// dimension, which Apply checks.
func CheckDoc(d *Doc, maxDocBytes int) error {
	switch {
	case d.ID == "":
		return fmt.Errorf("%w: empty ID", ErrInvalidDoc)
	case len(d.ID) > MaxIDBytes:
		return fmt.Errorf("%w: ID of %d bytes, the limit is %d", ErrInvalidDoc, len(d.ID), MaxIDBytes)
	case !utf8.ValidString(d.ID) || strings.IndexByte(d.ID, 0) >= 0:
		return fmt.Errorf("%w: ID %q is not valid UTF-8 or holds a NUL byte", ErrInvalidDoc, d.ID)
	case strings.IndexByte(d.Parent, 0) >= 0:
		return fmt.Errorf("%w: document %q: parent holds a NUL byte", ErrInvalidDoc, d.ID)
	case len(d.Title)+len(d.Body) > maxDocBytes:
		return fmt.Errorf("%w: document %q has %d bytes of text, the limit is %d (Options.MaxDocBytes)",
			ErrInvalidDoc, d.ID, len(d.Title)+len(d.Body), maxDocBytes)
	case len(d.Links) > MaxLinks:
		return fmt.Errorf("%w: document %q has %d links, the limit is %d", ErrInvalidDoc, d.ID, len(d.Links), MaxLinks)
	case len(d.Vector) > MaxDimensions:
		return fmt.Errorf("%w: document %q: vector of %d dimensions, the limit is %d", ErrInvalidDoc, d.ID, len(d.Vector), MaxDimensions)
	}
	for _, l := range d.Links {
		switch {
		case l.To == "" || len(l.To) > MaxIDBytes || strings.IndexByte(l.To, 0) >= 0 || !utf8.ValidString(l.To):
			return fmt.Errorf("%w: document %q: link to %q: not a valid ID (1..%d bytes of UTF-8, no NUL)", ErrInvalidDoc, d.ID, l.To, MaxIDBytes)
		case len(l.Type) > 64 || strings.IndexByte(l.Type, 0) >= 0:
			return fmt.Errorf("%w: document %q: link type %q: up to 64 bytes, no NUL", ErrInvalidDoc, d.ID, l.Type)
		}
	}
	zero := len(d.Vector) > 0
	for _, x := range d.Vector {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("%w: document %q: vector holds NaN or infinity", ErrInvalidDoc, d.ID)
		}
		zero = zero && x == 0
	}
	if zero {
		return fmt.Errorf("%w: document %q: a zero vector has no direction", ErrInvalidDoc, d.ID)
	}
	return nil
}

// Limits of a document's links and vector.
const (
	MaxLinks      = 10000
	MaxDimensions = 8192
)

// checkDimension fixes the index's vector dimension with the first vector
// written (or Options.Dimensions) and refuses any other.
func (ix *Index) checkDimension(tx storage.Tx, d *Doc) error {
	if len(d.Vector) == 0 {
		return nil
	}
	dim := int(getUint(tx, metaDim))
	if dim == 0 {
		dim = ix.opts.Dimensions
		if dim == 0 {
			dim = len(d.Vector)
		}
		if err := putUint(tx, metaDim, uint64(dim)); err != nil {
			return err
		}
	}
	if dim != len(d.Vector) {
		return fmt.Errorf("%w: document %q: vector of %d dimensions, the index's are %d", ErrInvalidDoc, d.ID, len(d.Vector), dim)
	}
	return nil
}

// linkKey is a key of the links bucket, the index of links by target:
// to 0x00 from 0x00 type.
func linkKey(to, from, typ string) []byte {
	k := make([]byte, 0, len(to)+len(from)+len(typ)+2)
	k = append(append(k, to...), 0)
	k = append(append(k, from...), 0)
	return append(k, typ...)
}

func putLinks(tx storage.Tx, from string, links []Link) error {
	for _, l := range links {
		if err := tx.Put(bucketLinks, linkKey(l.To, from, l.Type), nil); err != nil {
			return err
		}
	}
	return nil
}

// Apply makes the batch's writes, all or none: when it returns nil the
// batch is in the store (on disk, for an on-disk index) and in both bleve
// indexes; when it fails with a store error nothing was written. If the
// store committed but a bleve index failed, Apply returns the error, the
// batch stays durable, and the index is brought back in step by the next
// write or the next Open.
func (ix *Index) Apply(ctx context.Context, b *Batch) (Applied, error) {
	var a Applied
	if ix.opts.ReadOnly {
		return a, fmt.Errorf("write: %w", ErrReadOnly)
	}
	if b.Len() == 0 && len(b.marks) == 0 {
		return a, nil
	}
	for i := range b.ops {
		if b.ops[i].kind == opRemove {
			if b.ops[i].doc.ID == "" {
				return a, fmt.Errorf("%w: remove: empty ID", ErrInvalidDoc)
			}
			continue
		}
		if err := ix.validate(&b.ops[i].doc); err != nil {
			return a, err
		}
	}
	if err := ctx.Err(); err != nil {
		return a, err
	}
	warn := ix.embedDocs(ctx, b.ops)
	pre, err := ix.analyzeDocs(b.ops)
	if err != nil {
		return a, err
	}

	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	ix.mu.RLock()
	err = ix.ready(readsIndexes)
	stale := ix.stale
	cur := ix.view
	ix.mu.RUnlock()
	if err != nil {
		return a, fmt.Errorf("write: %w", err)
	}
	if stale != nil || cur.noTrigrams {
		if err := ix.buildTrigrams(ctx, nil); err != nil {
			return a, fmt.Errorf("write: %w", err)
		}
		if stale != nil {
			if err := ix.recover(ctx); err != nil {
				return a, fmt.Errorf("catch up after an earlier failure: %w", err)
			}
		}
		ix.mu.RLock()
		cur = ix.view
		ix.mu.RUnlock()
	}

	var seq uint64
	changed := map[string]*Doc{}
	var order []string
	err = ix.store.Update(func(wtx storage.Tx) error {
		a = Applied{}
		clear(changed)
		order = order[:0]
		// Searches read cur until this write is published, through the
		// values it changed as they were.
		undo := &storage.Undo{}
		tx := undo.Recording(wtx)
		defer cur.undo.Store(undo)
		seq = getUint(tx, metaSeq) + 1
		for i := range b.ops {
			o := &b.ops[i]
			id := []byte(o.doc.ID)
			old := tx.Get(bucketDocs, id)
			if o.kind == opAdd && old != nil {
				if _, seen := changed[o.doc.ID]; !seen {
					return fmt.Errorf("add %q: %w", o.doc.ID, ErrExists)
				}
			}
			if old != nil {
				h, rest, err := record.DecodeHeader(old)
				if err != nil {
					return fmt.Errorf("document %q: %w", o.doc.ID, err)
				}
				title, body, _ := record.DecodeText(rest)
				if err := addCounters(tx, -1, h.TitleTokens, h.BodyTokens, len(title), len(body)); err != nil {
					return err
				}
				if err := tx.Delete(bucketChildren, childKey(h.Parent, o.doc.ID)); err != nil {
					return err
				}
				for _, l := range h.Links {
					if err := tx.Delete(bucketLinks, linkKey(l.To, o.doc.ID, l.Type)); err != nil {
						return err
					}
				}
			}
			if _, seen := changed[o.doc.ID]; !seen {
				order = append(order, o.doc.ID)
			}
			if o.kind == opRemove {
				changed[o.doc.ID] = nil
				if old != nil {
					a.Removed++
					if err := tx.Delete(bucketDocs, id); err != nil {
						return err
					}
				}
				continue
			}
			d := &o.doc
			if err := ix.checkDimension(tx, d); err != nil {
				return err
			}
			if err := putLinks(tx, d.ID, d.Links); err != nil {
				return err
			}
			changed[d.ID] = d
			a.Written++
			titleTokens, bodyTokens := pre[i].title.AnalyzedLength(), pre[i].bodyTokens()
			if err := tx.Put(bucketDocs, id, encodeDoc(d, seq, titleTokens, bodyTokens, pre[i].pairs)); err != nil {
				return err
			}
			if err := addCounters(tx, 1, titleTokens, bodyTokens, len(d.Title), len(d.Body)); err != nil {
				return err
			}
			if err := tx.Put(bucketChildren, childKey(d.Parent, d.ID), nil); err != nil {
				return err
			}
		}
		if err := tx.Put(bucketLog, seqKey(seq), []byte(strings.Join(order, "\x00"))); err != nil {
			return err
		}
		for name, v := range b.marks {
			if err := putUint(tx, markKey(name), v); err != nil {
				return err
			}
		}
		if err := putUint(tx, metaSeq, seq); err != nil {
			return err
		}
		return putUint(tx, metaUpdated, uint64(time.Now().UnixNano()))
	})
	if err != nil {
		return Applied{}, fmt.Errorf("write: %w", err)
	}
	a.Warnings = warn
	if ix.pause != nil {
		ix.pause("store")
	}
	analyzed := make(map[*Doc]prepared, len(changed))
	for i := range b.ops {
		if d := &b.ops[i].doc; changed[d.ID] == d {
			analyzed[d] = pre[i]
		}
	}
	err = ix.freeze()
	if err == nil {
		err = ix.applyBoth(seq, order, changed, analyzed)
	}
	if err == nil && ix.pause != nil {
		ix.pause("indexes")
	}
	if err != nil {
		ix.mu.Lock()
		ix.stale = err
		ix.mu.Unlock()
		return a, fmt.Errorf("write committed to the store but not to the indexes (they catch up on the next write or Open): %w", err)
	}
	ix.updateVectors(order, changed)
	ix.publish(&view{seq: seq})
	return a, nil
}

// analyzeDocs analyzes the text of every non-remove op, on all cores. It
// is not cancelled: once Apply has checked its context, the batch is
// written (a cancel during the embeddings leaves their warning). Its error
// is a bug's panic (PanicError).
func (ix *Index) analyzeDocs(ops []op) ([]prepared, error) {
	out := make([]prepared, len(ops))
	err := inParts(context.Background(), len(ops), ix.workersFor(len(ops), 1), func(_, i int) error {
		if d := &ops[i].doc; ops[i].kind != opRemove {
			out[i] = ix.prepare(d, true)
		}
		return nil
	})
	return out, err
}

func addCounters(tx storage.Tx, docs, titleTokens, bodyTokens, titleBytes, bodyBytes int) error {
	sign := 1
	if docs < 0 {
		sign = -1
	}
	for _, c := range []struct {
		key []byte
		d   int
	}{{metaDocs, 1}, {metaTitleTokens, titleTokens}, {metaBodyTokens, bodyTokens}, {metaTitleBytes, titleBytes}, {metaBodyBytes, bodyBytes}} {
		v := int64(getUint(tx, c.key)) + int64(sign*c.d)
		if v < 0 {
			v = 0
		}
		if err := putUint(tx, c.key, uint64(v)); err != nil {
			return err
		}
	}
	return nil
}

func childKey(parent, child string) []byte {
	k := make([]byte, 0, len(parent)+1+len(child))
	k = append(k, parent...)
	k = append(k, 0)
	return append(k, child...)
}

func seqKey(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

// contentHash identifies the indexed text of a document; check compares it
// between the store and each bleve index.
func contentHash(title, body string) string {
	h := fnv.New64a()
	h.Write([]byte(title))
	h.Write([]byte{0})
	h.Write([]byte(body))
	return strconv.FormatUint(h.Sum64(), 16)
}

// applyBoth writes the current state of the given documents (nil: removed)
// to both bleve indexes concurrently, recording seq in each.
func (ix *Index) applyBoth(seq uint64, ids []string, docs map[string]*Doc, analyzed map[*Doc]prepared) error {
	var errText, errTri error
	var wg sync.WaitGroup
	textDoc := func(d *Doc, hash []byte) bleveindex.Document { return ix.preparedTextDoc(d, hash, analyzed[d]) }
	trigramDoc := func(d *Doc, hash []byte) bleveindex.Document {
		p, ok := analyzed[d]
		if !ok || p.title == nil {
			p.defines = folded(ix.scan(d).Names)
		}
		return ix.preparedTrigramDoc(d, seq, hash, p.defines)
	}
	wg.Go(func() { errText = ix.applyOne(ix.text, textDoc, seq, ids, docs) })
	wg.Go(func() { errTri = ix.applyHalves(ix.tri, trigramDoc, seq, ids, docs) })
	wg.Wait()
	if errText != nil {
		errText = fmt.Errorf("text index: %w", errText)
	}
	if errTri != nil {
		errTri = fmt.Errorf("trigram index: %w", errTri)
	}
	return errors.Join(errText, errTri)
}

func (ix *Index) applyOne(idx bleveindex.Index, mk func(*Doc, []byte) bleveindex.Document, seq uint64, ids []string, docs map[string]*Doc) (err error) {
	defer ix.guard(&err)
	ix.unflushed.Store(true)
	b := bleveindex.NewBatch()
	for _, id := range ids {
		if d := docs[id]; d != nil {
			b.Update(mk(d, []byte(contentHash(d.Title, d.Body))))
		} else {
			b.Delete(id)
		}
	}
	if seq > 0 {
		b.SetInternal(internalSeq, seqKey(seq))
	}
	return idx.Batch(b)
}

// splitBytes is the text a batch needs before applyHalves splits it.
const splitBytes = 512 << 10

// applyHalves is applyOne for the trigram index, which takes twice the
// text index's time to build a batch's segment: a large batch to an
// on-disk scorch index becomes two segments built at once, so that no
// core waits while one goroutine builds the trigram segment alone. The
// halves carry no sequence number: it is recorded after both, so that a
// crash between them leaves the batch to be replayed whole.
func (ix *Index) applyHalves(idx bleveindex.Index, mk func(*Doc, []byte) bleveindex.Document, seq uint64, ids []string, docs map[string]*Doc) error {
	var total int
	for _, id := range ids {
		if d := docs[id]; d != nil {
			total += len(d.Title) + len(d.Body)
		}
	}
	// Only scorch on disk: upsidedown writes one batch at a time, and an
	// in-memory scorch index never merges, so halves would stay halves.
	if ix.opts.Workers < 2 || total < splitBytes || ix.opts.Backend != Scorch || ix.dir == "" {
		return ix.applyOne(idx, mk, seq, ids, docs)
	}
	mid, half := 0, 0
	for mid < len(ids)-1 && half < total/2 {
		if d := docs[ids[mid]]; d != nil {
			half += len(d.Title) + len(d.Body)
		}
		mid++
	}
	var errA, errB error
	var wg sync.WaitGroup
	wg.Go(func() { errA = ix.applyOne(idx, mk, 0, ids[:mid], docs) })
	wg.Go(func() { errB = ix.applyOne(idx, mk, 0, ids[mid:], docs) })
	wg.Wait()
	if err := errors.Join(errA, errB); err != nil {
		return err
	}
	return ix.applyOne(idx, mk, seq, nil, docs)
}

func appliedSeq(idx bleveindex.Index) (uint64, error) {
	r, err := idx.Reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	v, err := r.GetInternal(internalSeq)
	if err != nil || len(v) == 0 {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("bad applied sequence %x", v)
	}
	return binary.BigEndian.Uint64(v), nil
}
