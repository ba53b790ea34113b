//go:build js || wasip1

package backend

import (
	"context"
	"fmt"
	"runtime"

	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/twindex/twindex/index/internal/terms"
)

// Default is the kind of index this build opens when asked for none.
const Default = Compact

func openScorch(string, *bleveindex.AnalysisQueue, Options) (bleveindex.Index, error) {
	return nil, fmt.Errorf("%w: %s is not in the %s/%s build", ErrUnavailable, Scorch, runtime.GOOS, runtime.GOARCH)
}

// ForceMerge does nothing: this build has no scorch.
func ForceMerge(context.Context, bleveindex.Index) error { return nil }

// PersistError returns nil: this build has no scorch.
func PersistError(string) error { return nil }

// PrefixCounts returns false: this build has no scorch.
func PrefixCounts(bleveindex.IndexReader, string, []byte, func(string, uint64)) (bool, error) {
	return false, nil
}

// EachPosting returns false: this build has no scorch.
func EachPosting(bleveindex.IndexReader, string, []byte, func(bleveindex.IndexInternalID, uint64)) (bool, error) {
	return false, nil
}

// NearTerms returns nil: this build has no scorch.
func NearTerms(bleveindex.IndexReader) terms.FuzzyWalk { return nil }

// snapshotRef identifies a scorch snapshot; there is none in this build.
type snapshotRef struct{}

// snapshotOf reports false: this build has no scorch.
func snapshotOf(bleveindex.IndexReader) (snapshotRef, bool) { return snapshotRef{}, false }

// UnionCounts counts on a compact reader (compactUnionCounts), the one
// backend of a build without scorch, and counts nothing on another.
func UnionCounts(r bleveindex.IndexReader, sets []Union) ([]uint64, uint64, bool, error) {
	each, union, ok := compactUnionCounts(r, sets)
	return each, union, ok, nil
}

// Holding answers on a compact reader (compactHolding), the one backend
// of a build without scorch, and returns false on another.
func Holding(r bleveindex.IndexReader, conjs []Conjunction) ([]uint64, bool, error) {
	out, ok := compactHolding(r, conjs)
	return out, ok, nil
}
