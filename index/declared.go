package index

import (
	"slices"

	"github.com/twindex/twindex/decl"
	"github.com/twindex/twindex/index/internal/grams"
	"github.com/twindex/twindex/index/internal/plan"
	"github.com/twindex/twindex/index/internal/snippet"
	"github.com/twindex/twindex/tokenize"
)

// definers returns, by positive leaf, the trigram index's internal IDs of
// the documents that declare the leaf's text as a name (fieldDefines),
// made on first use: a posting list per leaf, of few postings. Not safe
// for concurrent use: the substring leg, or texts before it spreads out,
// makes it.
func (s *search) definers() (map[*plan.Leaf]map[string]struct{}, error) {
	if s.defines != nil {
		return s.defines, nil
	}
	s.defines = map[*plan.Leaf]map[string]struct{}{}
	if s.allTriR == nil {
		return s.defines, nil // no trigram index yet (Options.TrigramsLater)
	}
	for _, l := range s.plan.Positive() {
		if l.Folded == "" {
			continue
		}
		ids, err := grams.Holders(s.ctx, s.allTriR, fieldDefines, l.Folded)
		if err != nil {
			return nil, err
		}
		if ids != nil {
			s.defines[l] = ids
		}
	}
	return s.defines, nil
}

// declared returns the query terms that the document with ID id declares
// (Explain.Defines).
func (s *search) declared(id string) ([]string, error) {
	if s.allTriR == nil {
		return s.declaredByScan(id)
	}
	defs, err := s.definers()
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	iid, err := s.allTriR.InternalID(id)
	if err != nil || iid == nil {
		return nil, err
	}
	var out []string
	for _, l := range s.plan.Positive() {
		if _, ok := defs[l][string(iid)]; ok {
			out = append(out, l.Text)
		}
	}
	return out, nil
}

// declaredByScan is declared without a trigram index (Options.TrigramsLater,
// until it is built): the document's declarations found in its text, as a
// write finds the names fieldDefines holds. Cost: reading and scanning the
// document.
func (s *search) declaredByScan(id string) ([]string, error) {
	rec, err := s.stored(id)
	if err != nil {
		return nil, err
	}
	d, _, err := decodeDoc(id, rec, true)
	if err != nil {
		return nil, err
	}
	names := folded(s.ix.scan(d).Names)
	var out []string
	for _, l := range s.plan.Positive() {
		if _, ok := slices.BinarySearch(names, l.Folded); ok && l.Folded != "" {
			out = append(out, l.Text)
		}
	}
	return out, nil
}

// declarations returns, for a hit's snippet, where the first declaration
// of a query term is in its body (-1: none; only the hits that declare
// one are read for it) and where its licence comment ends.
func (s *search) declarations(h *Hit, body *snippet.Field, declared []string, q *snippetQuery) (prefer, floor int) {
	lang := decl.LangOf(h.ID, h.Kind, h.Title)
	prefer = -1
	if len(declared) > 0 {
		*body = body.Restored()
		if n, ok := decl.Find(lang, body.Text, func(name string) bool { return q.defines[tokenize.Fold(name)] }); ok {
			prefer = n.Start
		}
	}
	// Boilerplate reads comment markers and lowers what it compares: the
	// folding's bytes give it what the text does.
	return prefer, decl.Boilerplate(lang, body.Shape())
}
