package index

import (
	"context"
	"fmt"

	"github.com/twindex/twindex/index/internal/record"
	"github.com/twindex/twindex/storage"
)

// The store keeps a document as a record in the format of package record.
// encodeDoc and decodeDoc are the only places that copy fields between a
// Doc and a record's Header.

// encodeDoc returns the record of d as the write seq stores it, with the
// analyzed lengths of its title and body and its pairs filter (prepare).
func encodeDoc(d *Doc, seq uint64, titleTokens, bodyTokens int, pairs []byte) []byte {
	h := record.Header{
		Seq: seq, Kind: d.Kind, Parent: d.Parent, Role: d.Role, Project: d.Project, Source: d.Source,
		Time: d.Time, Tags: d.Tags, Meta: d.Meta, Session: d.Session,
		TitleTokens: titleTokens, BodyTokens: bodyTokens, Pairs: pairs,
	}
	if len(d.Links) > 0 {
		h.Links = make([]record.Link, len(d.Links))
		for i, l := range d.Links {
			h.Links[i] = record.Link(l)
		}
	}
	return record.Encode(&h, d.Vector, d.Title, d.Body)
}

// decodeDoc decodes a record in full, or with text false all but the
// title and body, which are then never read.
func decodeDoc(id string, b []byte, text bool) (*Doc, record.Header, error) {
	h, rest, err := record.DecodeHeader(b)
	if err != nil {
		return nil, h, fmt.Errorf("document %q: %w", id, err)
	}
	d := &Doc{
		ID: id, Kind: h.Kind, Parent: h.Parent, Tags: h.Tags, Role: h.Role, Project: h.Project,
		Source: h.Source, Time: h.Time, Meta: h.Meta, Session: h.Session, Vector: h.Vector(),
	}
	if len(h.Links) > 0 {
		d.Links = make([]Link, len(h.Links))
		for i, l := range h.Links {
			d.Links[i] = Link(l)
		}
	}
	if text {
		title, body, err := record.DecodeText(rest)
		if err != nil {
			return nil, h, fmt.Errorf("document %q: %w", id, err)
		}
		d.Title, d.Body = string(title), string(body)
	}
	return d, h, nil
}

// eachDoc calls fn with every stored document in ID order, decoded as
// decodeDoc does, and the write that stored its record, until fn fails or
// ctx ends.
func eachDoc(ctx context.Context, tx storage.Tx, text bool, fn func(d *Doc, seq uint64) error) error {
	return tx.Scan(bucketDocs, nil, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, h, err := decodeDoc(string(k), v, text)
		if err != nil {
			return err
		}
		return fn(d, h.Seq)
	})
}
