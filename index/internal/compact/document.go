package compact

import bleveindex "github.com/blevesearch/bleve_index_api"

// Document is a document as Reader.Document returns it: its stored
// fields.
type Document struct {
	id     string
	fields []bleveindex.Field
}

var _ bleveindex.Document = (*Document)(nil)

func (d *Document) ID() string { return d.id }

func (d *Document) Size() int {
	n := 48 + len(d.id)
	for _, f := range d.fields {
		n += 48 + len(f.Name()) + len(f.Value())
	}
	return n
}

func (d *Document) VisitFields(visit bleveindex.FieldVisitor) {
	for _, f := range d.fields {
		visit(f)
	}
}

func (d *Document) VisitComposite(bleveindex.CompositeFieldVisitor) {}
func (d *Document) HasComposite() bool                              { return false }
func (d *Document) AddIDField()                                     {}
func (d *Document) Indexed() bool                                   { return false }

func (d *Document) NumPlainTextBytes() uint64 {
	var n uint64
	for _, f := range d.fields {
		n += f.NumPlainTextBytes()
	}
	return n
}

func (d *Document) StoredFieldsBytes() uint64 { return d.NumPlainTextBytes() }

// StoredField is a stored field of a Document: a name and a value, not
// indexed.
type StoredField struct {
	name  string
	value []byte
}

var _ bleveindex.Field = (*StoredField)(nil)

func (f *StoredField) Name() string                             { return f.name }
func (f *StoredField) Value() []byte                            { return f.value }
func (f *StoredField) Text() string                             { return string(f.value) }
func (f *StoredField) ArrayPositions() []uint64                 { return nil }
func (f *StoredField) EncodedFieldType() byte                   { return 't' }
func (f *StoredField) Analyze()                                 {}
func (f *StoredField) Options() bleveindex.FieldIndexingOptions { return bleveindex.StoreField }
func (f *StoredField) AnalyzedLength() int                      { return 0 }
func (f *StoredField) NumPlainTextBytes() uint64                { return uint64(len(f.value)) }

func (f *StoredField) AnalyzedTokenFrequencies() bleveindex.TokenFrequencies { return nil }
