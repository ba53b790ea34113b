package record

import (
	"slices"
	"time"
)

// Filter is a search's filters on stored fields: a header passes when its
// kind, project and role are among those asked, it holds one of the tags,
// and its time is in [Since, Until). A nil set or a zero value asks
// nothing of its field; a header without a time fails a time bound.
type Filter struct {
	Kinds, Projects, Tags map[string]bool
	Role                  string
	Since, Until          time.Time
}

// NewFilter is the filter of the given values (nil or empty: any).
func NewFilter(kinds, projects, tags []string, role string, since, until time.Time) Filter {
	return Filter{Kinds: set(kinds), Projects: set(projects), Tags: set(tags), Role: role, Since: since, Until: until}
}

// set returns vals as a set; nil for none.
func set(vals []string) map[string]bool {
	if len(vals) == 0 {
		return nil
	}
	m := make(map[string]bool, len(vals))
	for _, v := range vals {
		m[v] = true
	}
	return m
}

// Active reports whether f asks anything.
func (f *Filter) Active() bool {
	return f.Kinds != nil || f.Projects != nil || f.Tags != nil || f.Role != "" || !f.Since.IsZero() || !f.Until.IsZero()
}

// Match reports whether h passes f.
func (f *Filter) Match(h *Header) bool {
	if f.Kinds != nil && !f.Kinds[h.Kind] {
		return false
	}
	if f.Projects != nil && !f.Projects[h.Project] {
		return false
	}
	if f.Role != "" && h.Role != f.Role {
		return false
	}
	if f.Tags != nil && !slices.ContainsFunc(h.Tags, func(t string) bool { return f.Tags[t] }) {
		return false
	}
	if !f.Since.IsZero() && (h.Time.IsZero() || h.Time.Before(f.Since)) {
		return false
	}
	if !f.Until.IsZero() && (h.Time.IsZero() || !h.Time.Before(f.Until)) {
		return false
	}
	return true
}
