package index

import "time"

// Doc is one searchable document. ID is required; Title and Body are the
// searched fields; the rest are filters and are returned with hits.
type Doc struct {
	ID      string            `json:"id"`
	Kind    string            `json:"kind,omitempty"`
	Title   string            `json:"title,omitempty"`
	Body    string            `json:"body,omitempty"`
	Parent  string            `json:"parent,omitempty"`
	Tags    []string          `json:"tags,omitempty"`
	Role    string            `json:"role,omitempty"`
	Project string            `json:"project,omitempty"`
	Source  string            `json:"source,omitempty"`
	Time    time.Time         `json:"ts,omitzero"`
	Meta    map[string]string `json:"meta,omitempty"`
	// Session is the conversation or work session the document belongs
	// to, for Boost.
	Session string `json:"session,omitempty"`
	// Links are the document's typed edges to other documents, which
	// need not exist yet.
	Links []Link `json:"links,omitempty"`
	// Vector is the document's embedding: all vectors of an index have
	// the dimension of the first one written (or Options.Dimensions).
	Vector []float32 `json:"vector,omitempty"`
}

// Link is a typed edge from a document to the document with ID To: e.g.
// contains, imports, extends, implements, depends_on, mentions.
type Link struct {
	To   string `json:"to"`
	Type string `json:"type,omitempty"`
}

// Backlink is a link into a document, from the document with ID From.
type Backlink struct {
	From string `json:"from"`
	Type string `json:"type,omitempty"`
}
