package fusion

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Defaults of Boost's factors.
const (
	DefaultProjectFactor = 1.5
	DefaultSessionFactor = 1.2
	DefaultRecencyFactor = 1.2
)

// Boost raises hits from the current project and session, and optionally
// recent ones. The zero value boosts nothing.
type Boost struct {
	// Project is the current project: hits from it are multiplied by
	// ProjectFactor. Empty means no project boost.
	Project string
	// Session is the current session: hits from it are multiplied by
	// SessionFactor. Empty means no session boost.
	Session string
	// ProjectFactor and SessionFactor default to DefaultProjectFactor and
	// DefaultSessionFactor when zero, negative, NaN or infinite.
	ProjectFactor, SessionFactor float64

	// HalfLife turns the recency boost on when positive and Now is set: a
	// hit of age a is multiplied by 1 + (RecencyFactor-1)·2^(-a/HalfLife),
	// so RecencyFactor when brand new, halfway there at one HalfLife, and
	// 1 when old. A hit with a zero Attrs.Time gets no recency boost; one
	// dated after Now counts as brand new.
	HalfLife time.Duration
	// RecencyFactor defaults to DefaultRecencyFactor when zero, negative,
	// NaN or infinite.
	RecencyFactor float64
	// Now is the time ages are measured from.
	Now time.Time
}

// Attrs are what Boost needs to know of a document.
type Attrs struct {
	Project, Session string
	Time             time.Time // zero means unknown: no recency boost
}

// Boosted records what ApplyBoost did to a hit, for explain: Score is
// Base·Project·Session·Recency. Each factor is 1 when it did not apply.
type Boosted struct {
	Base    float64 `json:"base"` // the score before boosting
	Project float64 `json:"project"`
	Session float64 `json:"session"`
	Recency float64 `json:"recency"`
}

// Factor returns the product of the factors.
func (b Boosted) Factor() float64 { return b.Project * b.Session * b.Recency }

// ApplyBoost returns a copy of hits with each Score multiplied by the
// factors b gives it, recorded in Boosted, sorted by Score descending then
// ID. attrs tells a document's project, session and time; it is called once
// per hit, and not at all when b boosts nothing. Legs and Via are shared
// with hits.
//
// Boosting is meant for after fusion and Expand, and for searches with no
// strict filter on project or session, where it would change nothing.
// The scores it gives exceed 1 on Normalize's scale; Normalize again to
// bring them back. ApplyBoost runs in O(N log N) time and stops at the
// first error of attrs.
func ApplyBoost(hits []Hit, b Boost, attrs func(id string) (Attrs, error)) ([]Hit, error) {
	out := slices.Clone(hits)
	pf := factor(b.ProjectFactor, DefaultProjectFactor)
	sf := factor(b.SessionFactor, DefaultSessionFactor)
	rf := factor(b.RecencyFactor, DefaultRecencyFactor)
	recency := b.HalfLife > 0 && !b.Now.IsZero()
	ask := attrs != nil && (b.Project != "" || b.Session != "" || recency)
	rec := make([]Boosted, len(out))
	for i := range out {
		r := &rec[i]
		*r = Boosted{Base: out[i].Score, Project: 1, Session: 1, Recency: 1}
		if ask {
			a, err := attrs(out[i].ID)
			if err != nil {
				return nil, fmt.Errorf("boost %q: %w", out[i].ID, err)
			}
			if b.Project != "" && a.Project == b.Project {
				r.Project = pf
			}
			if b.Session != "" && a.Session == b.Session {
				r.Session = sf
			}
			if recency && !a.Time.IsZero() {
				age := max(b.Now.Sub(a.Time), 0)
				r.Recency = 1 + (rf-1)*math.Exp2(-age.Seconds()/b.HalfLife.Seconds())
			}
		}
		out[i].Score = r.Base * r.Factor()
		out[i].Boosted = r
	}
	Sort(out)
	return out, nil
}

func factor(f, def float64) float64 {
	if !(f > 0) || math.IsInf(f, 1) {
		return def
	}
	return f
}
