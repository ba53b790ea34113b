// The text leg's judges of word positions: phrases, ^ and NEAR read a
// document's positions from its stored text, since the text index keeps
// none; a phrase found as written needs none (record.Folded.HasRun), and
// one that is not is looked for in windows of its text around the places
// where one of its words can start (package window), not in all of it.
// Before any of that, a document whose record's filter of adjacent term
// pairs (record.Header.Pairs) lacks two of the phrase's words side by
// side is passed over: it cannot hold the phrase (phrasepairs.go).

package index

import (
	"fmt"
	"slices"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/rank"
	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/index/internal/slots"
	"github.com/twindex/twindex/index/internal/window"
	"github.com/twindex/twindex/tokenize"
)

// docText returns the stored title and body of a document, ok false when
// the store has no such document.
func (s *search) docText(id string) (title, body []byte, ok bool, err error) {
	rec := s.tx.Get(bucketDocs, []byte(id))
	if rec == nil {
		return nil, nil, false, nil
	}
	if title, body, err = record.DecodeRecordText(rec); err != nil {
		return nil, nil, false, fmt.Errorf("document %q: %w", id, err)
	}
	return title, body, true, nil
}

// textMatch judges one document against a strict plan, reading its
// stored text only when a phrase, NEAR or ^ needs word positions.
func (s *search) textMatch(j *runJudge, id string, pres []uint64, nw int) (bool, error) {
	d := docRuns{runJudge: j, id: id}
	v, err := j.tp.Judge(s.plan, func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }, d.held, d.positions)
	return v == plan.Yes, err
}

// runJudge is what the judges of a query's runs of words share: its
// text plan, the terms whose positions they read, and where each leaf
// that needs positions can occur (nil for a leaf whose text is
// analyzed whole).
type runJudge struct {
	s        *search
	tp       *plan.Text
	posTerms []string
	starts   map[*plan.TextLeaf]*window.Starts
	// pairs holds, for each leaf that needs positions, a list for each
	// two of its words side by side: the PairHash of each pair of their
	// terms, one of which a document that holds the leaf pairs.
	pairs map[*plan.TextLeaf][][]uint64
	// pairsSince is the first write whose records' pairs filters are of
	// this analysis (metaPairsSince).
	pairsSince uint64
}

// newRunJudge returns the judge of tp's runs of words.
func (s *search) newRunJudge(tp *plan.Text) *runJudge {
	j := &runJudge{s: s, tp: tp, posTerms: tp.PositionTerms(), starts: map[*plan.TextLeaf]*window.Starts{}, pairs: map[*plan.TextLeaf][][]uint64{},
		pairsSince: getUint(s.tx, metaPairsSince)}
	for _, tl := range tp.Leaves {
		if tl.NeedsPositions() {
			j.starts[tl] = leafStarts(s.ix.textA, tp, tl)
			j.pairs[tl] = leafPairs(tp, tl)
		}
	}
	return j
}

// leafStarts returns where a phrase's words start (window.New).
func leafStarts(text *tokenize.Text, tp *plan.Text, tl *plan.TextLeaf) *window.Starts {
	words := make([]window.Word, len(tl.Groups))
	for i, g := range tl.Groups {
		words[i] = window.Word{Rel: g.Rel, Terms: tp.GroupTerms(g), Stop: g.Stop != ""}
	}
	return window.New(text, words)
}

// docRuns judges runs of words in one document: its record, folded text
// and word positions are each read once, when first needed.
type docRuns struct {
	*runJudge
	id      string
	rec     []byte // the stored record; nil until read
	text    [2]string
	decoded bool // text holds the record's title and body
	fd      *record.Folded
	mapped  *record.Folded // fd with its maps back to text, once needed
	scratch *foldScratch   // where fd is made, when not in the fold cache
	noRun   bool           // the document holds the phrases in no run as written (search.runsAll)
	// runOdds, when not nil, is the worker's odds of finding a phrase
	// as written: once they fall, a document goes to the windows
	// without that look, which scans the text of one without it twice.
	runOdds *odds
	head    *record.Folded // the fold of the text's head, when read and not whole
	// headRead is set once the head was read: after fold, head is not
	// valid (it shares the scratch buffers).
	headRead bool
	pos      [2]map[string][]int
	// filter is the record's filter of adjacent term pairs, once
	// filterRead; nil for none.
	filter     []byte
	filterRead bool
}

// held reports whether field f (0 title, 1 body) holds tl, a leaf that
// needs positions, as a run of its words: found as written, else in
// windows of the text (inWindows), else by the positions of the field's
// terms. Once the look as written seldom finds it (runOdds), the look
// is skipped where the windows decide and made after them where they do
// not. A leaf under ^ is looked for in the field's first words alone.
func (d *docRuns) held(tl *plan.TextLeaf, f int) (bool, error) {
	if ok, err := d.mayHold(tl); !ok || err != nil {
		return false, err
	}
	s := d.s
	if !s.ix.analyzeRuns {
		if tl.Initial {
			return d.atStart(tl, f)
		}
		// A document without the run as written (search.runsAll) can
		// hold the phrase only in other forms: windows or positions.
		if d.fd == nil && !d.noRun && d.scratch != nil && !d.headRead && d.scratch.heads.worth() {
			// Most phrases of common words are in a file's first lines.
			if err := d.foldHead(); err != nil {
				return false, err
			}
			if d.fd == nil {
				held := d.head.HasRun(f == 1, tl.Text, tl.Find)
				d.scratch.heads.add(held)
				if held {
					return true, nil
				}
			}
		}
		if d.fd == nil {
			if err := d.fold(); err != nil {
				return false, err
			}
		}
		// As written first while that pays (runOdds); where no windows
		// can decide, always, the analysis costing far more than a look.
		looked := d.noRun
		if !looked && (d.runOdds == nil || d.starts[tl] == nil || d.runOdds.worth()) {
			looked = true
			as := d.fd.HasRun(f == 1, tl.Text, tl.Find)
			if d.runOdds != nil {
				d.runOdds.add(as)
			}
			if as {
				return true, nil
			}
		}
		held, decided, err := d.inWindows(tl, f)
		if err != nil || decided {
			return held, err
		}
		if !looked && d.fd.HasRun(f == 1, tl.Text, tl.Find) {
			return true, nil
		}
	}
	pos, err := d.positions(f)
	if err != nil {
		return false, err
	}
	return len(tl.Occurrences(d.tp, pos)) > 0, nil
}

// atStart reports whether field f starts with tl (^): its first word at
// the field's first position. Only the first runs of the field are
// analyzed, as many as the leaf has positions and one more
// (tokenize.RunWindow from the field's start; each run takes a position
// at least), not the whole field.
func (d *docRuns) atStart(tl *plan.TextLeaf, f int) (bool, error) {
	if err := d.decode(); err != nil {
		return false, err
	}
	text := d.text[f]
	_, hi := tokenize.RunWindow(text, 0, 0, tl.Groups[len(tl.Groups)-1].Rel+1)
	return len(tl.Occurrences(d.tp, d.termPositions(text, [][2]int{{0, hi}}))) > 0, nil
}

// positions returns the positions of the terms of posTerms in field f,
// analyzed from the stored text.
func (d *docRuns) positions(f int) (map[string][]int, error) {
	if d.pos[0] == nil {
		if err := d.decode(); err != nil {
			return nil, err
		}
		for i, text := range d.text {
			d.pos[i] = d.termPositions(text, [][2]int{{0, len(text)}})
		}
	}
	return d.pos[f], nil
}

// termPositions returns the positions of the terms of posTerms in the
// spans of text (tokenize.Text.PositionsIn).
func (d *docRuns) termPositions(text string, spans [][2]int) map[string][]int {
	pos := make(map[string][]int, len(d.posTerms))
	for k, l := range d.s.ix.textA.PositionsIn(text, spans, d.posTerms) {
		if l != nil {
			pos[d.posTerms[k]] = l
		}
	}
	return pos
}

// foldHead folds the head of the document's text (record.DecodeTextHead)
// into the worker's buffers, once: as fd when the head is the whole text,
// else as head, until fold uses the buffers again.
func (d *docRuns) foldHead() error {
	d.headRead = true
	if err := d.read(); err != nil {
		return err
	}
	sc := d.scratch
	h, dec, err := record.DecodeTextHead(d.rec, sc.dec, textHead)
	sc.dec = dec
	if err != nil {
		return fmt.Errorf("document %q: %w", d.id, err)
	}
	fd, fold, err := record.FoldHeadInto(&sc.fd, sc.fold, h, true)
	sc.fold = fold
	if err != nil {
		return fmt.Errorf("document %q: %w", d.id, err)
	}
	if h.Whole {
		d.fd = fd
	} else {
		d.head = fd
	}
	return nil
}

// fold folds the document's title and body: into the worker's buffers
// when the index keeps no fold cache, else through it.
func (d *docRuns) fold() error {
	if err := d.read(); err != nil {
		return err
	}
	if sc := d.scratch; sc != nil {
		t, dec, err := record.DecodeRecordStored(d.rec, sc.dec)
		sc.dec = dec
		if err == nil {
			d.fd, sc.fold, err = record.FoldInto(&sc.fd, sc.fold, t, true)
		}
		if err != nil {
			return fmt.Errorf("document %q: %w", d.id, err)
		}
		return nil
	}
	seq, err := record.Seq(d.rec)
	if err != nil {
		return fmt.Errorf("document %q: %w", d.id, err)
	}
	d.fd, err = d.s.ix.fold.Get(d.id, seq, func() (record.Text, error) {
		t, _, err := record.DecodeRecordStored(d.rec, nil)
		return t, err
	})
	if err != nil {
		return fmt.Errorf("document %q: %w", d.id, err)
	}
	return nil
}

// foldScratch is a worker's buffers for the folds of the documents whose
// phrases it judges, used again from one to the next, in a process whose
// index keeps no fold cache (a one-search CLI process): a fold allocated
// for each would cost more than the folding does.
type foldScratch struct {
	dec, fold []byte
	fd        record.Folded
	heads     odds
}

// decode decodes the document's title and body from its record.
func (d *docRuns) decode() error {
	if d.decoded {
		return nil
	}
	if err := d.read(); err != nil {
		return err
	}
	title, body, err := record.DecodeRecordStrings(d.rec)
	if err != nil {
		return fmt.Errorf("document %q: %w", d.id, err)
	}
	d.text, d.decoded = [2]string{title, body}, true
	return nil
}

// read reads the document's record, unless it was given.
func (d *docRuns) read() error {
	if d.rec != nil {
		return nil
	}
	var err error
	d.rec, err = d.s.stored(d.id)
	return err
}

// heldPhrases judges the quoted phrases of a simple query, which every
// match holds, in each document of the tally that judge(k) asks for:
// held[k] reports whether document k holds them. A phrase whose words'
// terms are present (the presence bits) needs the document's text only
// when it has several words and no compound term covers them; those
// documents are read and judged on up to Options.Workers goroutines,
// and, when filters are active, only those the filters keep. ids[k] is
// the external ID of each document that was read, "" for the others.
//
// Cost: for each document read, a look for the phrase as written in its
// folded text (record.Folded.HasRun) while that pays (docRuns.runOdds),
// else or failing that a look in the windows around its words' places,
// and where they cannot decide, an analysis of its text for the
// positions of the phrases' terms.
func (s *search) heldPhrases(tp *plan.Text, t *rank.Tally, slot *slots.Table, judge func(k int) bool) (held []bool, ids []string, err error) {
	n := len(t.Docs())
	held = make([]bool, n)
	ids = make([]string, n)
	j := s.newRunJudge(tp)
	var todo []int
	for k := range n {
		if !judge(k) {
			continue
		}
		switch phrasesPresent(tp, t.Present(k)) {
		case plan.Yes:
			held[k] = true
			continue
		case plan.No:
			continue
		}
		id, err := s.textIDs.ExternalID(bleveindex.IndexInternalID(slot.ID(int32(k))))
		if err != nil {
			return nil, nil, err
		}
		if s.filter.active && !s.keep(id) {
			continue
		}
		ids[k] = id
		if s.runsHeld(tp, id, t.Present(k)) {
			held[k] = true
			continue
		}
		todo = append(todo, k)
	}
	want := make([]string, len(todo))
	for i, k := range todo {
		want[i] = ids[k]
	}
	recs, err := s.records(want)
	if err != nil {
		return nil, nil, err
	}
	workers := s.ix.workersFor(len(todo), parallelPhrases)
	var scratch []foldScratch
	if !s.ix.fold.Keeps() {
		scratch = make([]foldScratch, workers)
	}
	runOdds := make([]odds, workers)
	err = inParts(s.ctx, len(todo), workers, func(w, i int) error {
		k := todo[i]
		var sc *foldScratch
		if scratch != nil {
			sc = &scratch[w]
		}
		var err error
		held[k], err = s.phrasesIn(j, ids[k], recs[i], t.Present(k), sc, &runOdds[w])
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return held, ids, nil
}

// runsHeld reports whether the substring leg found each required phrase
// of tp as written in a field of the document id that it may match in and
// whose presence bits (pres) hold its words (search.runs): what
// phrasesIn would find by HasRun, without reading the document.
func (s *search) runsHeld(tp *plan.Text, id string, pres []uint64) bool {
	bits, ok := s.runs[id]
	if !ok {
		return false
	}
	nw := len(pres) / 2
	for _, tl := range tp.Required {
		i := slices.Index(s.plan.Leaves, tl.Leaf)
		if i < 0 || i >= 32 {
			return false
		}
		held := false
		for f := range 2 {
			fb := pres[f*nw : (f+1)*nw]
			if tl.Fields&(1<<f) != 0 && tl.Present(fb) && (!tl.NeedsPositions() || tl.Compound(fb) || bits&(1<<(2*i+f)) != 0) {
				held = true
				break
			}
		}
		if !held {
			return false
		}
	}
	return true
}

// records returns the stored records of the documents ids, distinct, in
// their order: by one scan of the store when that pays (scanPays; a
// phrase of common words, "all rights", reads most of the store).
func (s *search) records(ids []string) ([][]byte, error) {
	recs := make([][]byte, len(ids))
	if !s.scanPays(len(ids)) {
		for i, id := range ids {
			var err error
			if recs[i], err = s.stored(id); err != nil {
				return nil, err
			}
		}
		return recs, nil
	}
	err := s.scanStored(ids, func(i int, rec []byte) error {
		recs[i] = rec
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, rec := range recs {
		if rec == nil {
			return nil, notStored(ids[i])
		}
	}
	return recs, nil
}

// scanPays reports whether reading n documents' records costs less by
// one scan of the store in key order than by a lookup from its root for
// each: for a quarter of the documents or more, at least 64.
func (s *search) scanPays(n int) bool {
	return n >= 64 && uint64(n) >= getUint(s.tx, metaDocs)/4
}

// scanStored calls fn with the place in ids and the stored record of
// each of the documents ids (distinct) that the store holds, by one scan
// of the store in key order, checking the search's context every 256
// records.
func (s *search) scanStored(ids []string, fn func(i int, rec []byte) error) error {
	at := make(map[string]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	n := 0
	return s.tx.Scan(bucketDocs, nil, func(k, v []byte) error {
		if n++; n%256 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		if i, ok := at[string(k)]; ok {
			return fn(i, v)
		}
		return nil
	})
}

// parallelPhrases is the fewest documents whose phrases are judged by
// more than one goroutine.
const parallelPhrases = 64

// phrasesPresent judges the required phrases by the presence bits alone:
// Yes when each is satisfied without positions, No when one's words are
// missing from every field it may match in, Abstain when the text must
// tell.
func phrasesPresent(tp *plan.Text, pres []uint64) plan.Verdict {
	nw := len(pres) / 2
	v := plan.Yes
	for _, tl := range tp.Required {
		present, decided := false, false
		for f := range 2 {
			bits := pres[f*nw : (f+1)*nw]
			if tl.Fields&(1<<f) == 0 || !tl.Present(bits) {
				continue
			}
			present = true
			if !tl.NeedsPositions() || tl.Compound(bits) {
				decided = true
				break
			}
		}
		if !present {
			return plan.No
		}
		if !decided {
			v = plan.Abstain
		}
	}
	return v
}

// phrasesIn reports whether a document, whose stored record is rec,
// holds every required phrase of a simple query: its words' terms
// present (pres), then, for a phrase of several words, as a run, found as
// written or from the positions of its terms. It may run on any
// goroutine; sc, when not nil, is its buffers for the document's fold,
// and ro its odds of finding a phrase as written (docRuns.runOdds).
func (s *search) phrasesIn(j *runJudge, id string, rec []byte, pres []uint64, sc *foldScratch, ro *odds) (bool, error) {
	nw := len(pres) / 2
	bits := func(f int) []uint64 { return pres[f*nw : (f+1)*nw] }
	_, matched := s.runs[id]
	d := docRuns{runJudge: j, id: id, rec: rec, scratch: sc, noRun: s.runsAll && !matched, runOdds: ro}
	for _, tl := range j.tp.Required {
		ok := false
		for f := range 2 {
			if tl.Fields&(1<<f) == 0 || !tl.Present(bits(f)) {
				continue
			}
			if !tl.NeedsPositions() || tl.Compound(bits(f)) {
				ok = true
				break
			}
			var err error
			if ok, err = d.held(tl, f); err != nil {
				return false, err
			}
			if ok {
				break
			}
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// inWindows judges a phrase of several words (a leaf that needs
// positions) in field f (0 title, 1 body) of the document from its
// folded text, without analyzing the field whole: only the windows where
// the phrase can occur are (package window). A field that folding did
// more to than lower its letters (record.Folded.Plain) is decoded from
// the record and folded again with its map back. decided is false when
// the phrase has no starts or the field is better analyzed whole
// (window.Starts.Find): then the caller does.
//
// Cost: a scan of the folded field per prefix, and the analysis of the
// windows (a few words around each place a prefix occurs); for a field
// not folded plainly, a decoding of the record and a folding of the
// field.
func (d *docRuns) inWindows(tl *plan.TextLeaf, f int) (held, decided bool, err error) {
	st := d.starts[tl]
	if st == nil {
		return false, false, nil
	}
	var spans [][2]int
	var text string
	folded, upper, ok := d.fd.Plain(f == 1)
	stored, kept := d.fd.Stored(f == 1)
	switch {
	case kept:
		text = stored
		spans, ok = st.Find(text, folded, nil)
	case ok:
		if spans, ok = st.FindPlain(folded, upper); ok && len(spans) > 0 {
			text, spans = d.fd.RestoredSpans(f == 1, spans)
		}
	default:
		if err := d.decode(); err != nil {
			return false, false, err
		}
		text = d.text[f]
		if d.mapped == nil {
			d.mapped = d.fd.WithMaps(d.text[0], d.text[1])
		}
		folded, offsets := d.mapped.Title, d.mapped.TitleMap
		if f == 1 {
			folded, offsets = d.mapped.Body, d.mapped.BodyMap
		}
		spans, ok = st.Find(text, folded, offsets)
	}
	if !ok {
		return false, false, nil
	}
	if len(spans) == 0 {
		return false, true, nil
	}
	return len(tl.Occurrences(d.tp, d.termPositions(text, spans))) > 0, true, nil
}
