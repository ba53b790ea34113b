package collection

import "github.com/twindex/twindex/fusion"

// ShardOptions say what index.Index.SearchShard and Index.Gather return.
type ShardOptions struct {
	// Depth is how many hits of each leg to list: the first Depth by
	// score. The vector leg lists its whole ranking.
	Depth int `json:"depth"`
	// All lists every hit of every leg with its time: for an order other
	// than by score.
	All bool `json:"all,omitempty"`
	// Fallback makes the text leg the fallback's tolerant pass (the
	// collection found fewer hits than index.Request.Fallback); with Unknown,
	// that of a word no document holds, which tolerates only such words
	// (see ShardResult.Unknown).
	Fallback bool `json:"fallback,omitempty"`
	Unknown  bool `json:"unknown,omitempty"`
	// Feedback are the text leg's best hits in the collection, by score
	// then ID, of a query that gets pseudo-relevance feedback
	// (ShardResult.Feedback): the text leg adds the terms they hold
	// most, as index.Search does. Gather collects what feedback reads of them
	// (Stats.Feedback).
	Feedback []ShardHit `json:"feedback,omitempty"`
}

// ShardResult is one shard's answer to index.Index.SearchShard.
type ShardResult struct {
	// Legs are the exact legs that ran, each with its first hits.
	Legs []ShardLeg `json:"legs"`
	// Matches is the number of documents the substring or text leg
	// matched (the vector leg's are counted by the caller, which knows
	// which of them are in the collection's first ranks).
	Matches int `json:"matches"`
	// Unknown: bit i, the query's word i (a leaf of its plan) is in no
	// document of the shard's; a word that every shard lacks makes the
	// collection's fallback run (ShardOptions.Unknown).
	Unknown uint64 `json:"unknown,omitempty"`
	// Feedback: the query gets pseudo-relevance feedback, which the
	// caller asks for with the collection's best text hits
	// (ShardOptions.Feedback).
	Feedback bool `json:"feedback,omitempty"`
	// Scores are, for each listed document, its scores in every leg that
	// matched it.
	Scores map[string]map[string]float64 `json:"scores"`
	// Times are the listed documents' times (Unix nanoseconds), with
	// ShardOptions.All.
	Times map[string]int64 `json:"times,omitempty"`
	// Attrs are the listed documents' project, session and time, when the
	// request boosts.
	Attrs map[string]fusion.Attrs `json:"attrs,omitempty"`
}

// ShardLeg is one leg's first hits on one shard.
type ShardLeg struct {
	Leg   string     `json:"leg"`
	Total int        `json:"total"` // the leg's matches on the shard
	Hits  []ShardHit `json:"hits"`  // by score, best first, ties by ID
}

// ShardHit is a document and its score in one leg.
type ShardHit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
	// Fuzzy: the text leg's tolerant pass matched some word of the
	// document only approximately (the hit's leg is then index.LegFuzzy).
	Fuzzy bool `json:"fuzzy,omitempty"`
}

// RenderOptions say how index.Index.RenderShard renders hits.
type RenderOptions struct {
	Best     float64 `json:"best"`               // the page's best score, for Hit.Norm: the collection's first hit's
	Fallback bool    `json:"fallback,omitempty"` // the fallback's tolerant pass ran: its words mark fuzzy hits
	Unknown  bool    `json:"unknown,omitempty"`  // that of a word no document holds (ShardOptions.Unknown)
	// Feedback are the best text hits feedback read (ShardOptions.Feedback).
	Feedback []ShardHit `json:"feedback,omitempty"`
}
