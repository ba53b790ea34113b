package record

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/golang/snappy"

	"github.com/twindex/twindex/tokenize"
)

// Text encodings, the byte that starts a record's text. textRaw stores
// the title and body as written; textSnappy, of stores written before
// text was stored raw, compressed together with snappy; textLower stores
// each field whose folding only lowers ASCII letters (tokenize.FoldCase
// with no changed mask: all ASCII text, code and most prose) lowered,
// with a mask of the letters it lowered, and any other field raw:
//
//	flags                 (byte: bit 0 the title is lowered, bit 1 the body)
//	title, body           (uvarint length + bytes each)
//	title mask, body mask (each lowered field's: uvarint count of words, then
//	                       the words, little-endian uint64; bit i%64 of word
//	                       i/64 marks byte i as a letter lowered from A-Z;
//	                       trailing zero words left out)
//
// A search checks a substring's candidates against their folded text.
// Stored lowered, that is the text as it lies in the store (bbolt's
// mmap), which a process with no fold cache (a CLI search) no longer
// folds: folding was 45% of a cold search's CPU for a common substring
// of the Go tree. The original is the lowered text with the mask's
// letters raised, for the few hits a page shows and for Get. Cost: the
// masks, an eighth of a field's bytes at most; nothing for lower-case
// text.
const (
	textRaw    = 0
	textSnappy = 1
	textLower  = 2
)

// Text is a record's title and body as stored: raw, or lowered with the
// masks that restore them (textLower). From a record's bytes, it views
// them and is valid as long as they are.
type Text struct {
	title, body []byte
	lowered     uint8     // bit 0: the title is stored lowered, bit 1: the body
	masks       [2][]byte // a lowered field's mask, as stored
}

// NewText returns the Text of a title and body as written.
func NewText(title, body []byte) Text { return Text{title: title, body: body} }

// Len is the length of the title and body: stored, folded and written
// alike for a lowered field.
func (t Text) Len() int { return len(t.title) + len(t.body) }

// Raw returns the title and body when both are stored as written (views
// of t's bytes), ok false when a field is stored lowered.
func (t Text) Raw() (title, body []byte, ok bool) {
	return t.title, t.body, t.lowered == 0
}

// field returns the title (k 0) or the body (k 1) as stored, and its
// mask when it is stored lowered.
func (t Text) field(k int) (text, mask []byte, lowered bool) {
	if k == 0 {
		return t.title, t.masks[0], t.lowered&1 != 0
	}
	return t.body, t.masks[1], t.lowered&2 != 0
}

// appendText appends the text of a record, as textLower when a field
// can be stored lowered, else raw. Cost: a fold of each field.
func appendText(b []byte, title, body string) []byte {
	var folded [2]string
	var upper [2][]uint64
	flags := uint8(0)
	for k, field := range [2]string{title, body} {
		f, offsets, up, changed := tokenize.FoldCase(unsafe.Slice(unsafe.StringData(field), len(field)))
		if offsets == nil && changed == nil && len(f) == len(field) {
			folded[k], upper[k], flags = f, up, flags|1<<k
		} else {
			folded[k] = field
		}
	}
	if flags == 0 {
		return appendString(appendString(append(b, textRaw), title), body)
	}
	b = appendString(appendString(append(b, textLower, flags), folded[0]), folded[1])
	for k := range 2 {
		if flags&(1<<k) == 0 {
			continue
		}
		words := upper[k]
		for len(words) > 0 && words[len(words)-1] == 0 {
			words = words[:len(words)-1]
		}
		b = binary.AppendUvarint(b, uint64(len(words)))
		for _, w := range words {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	return b
}

// decodeStored returns the text of a record's rest as stored,
// decompressing compressed text into buf when it is large enough; used
// is the buffer it decompressed into, else buf. A mask with a bit past
// its field is ErrCorrupt; its bits are checked against the letters
// where they are read (maskWords, raise).
func decodeStored(rest, buf []byte) (t Text, used []byte, err error) {
	if len(rest) == 0 {
		return Text{}, buf, ErrCorrupt
	}
	used = buf
	var r reader
	switch rest[0] {
	case textRaw:
		r.b = rest[1:]
	case textSnappy:
		if r.b, err = snappy.Decode(buf[:cap(buf)], rest[1:]); err != nil {
			return Text{}, buf, fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		used = r.b
	case textLower:
		if len(rest) < 2 || rest[1] == 0 || rest[1]&^3 != 0 {
			return Text{}, buf, ErrCorrupt
		}
		t.lowered = rest[1]
		r.b = rest[2:]
	default:
		return Text{}, buf, ErrCorrupt
	}
	t.title, t.body = r.bytes(), r.bytes()
	for k := range 2 {
		if t.lowered&(1<<k) == 0 {
			continue
		}
		field, _, _ := t.field(k)
		n := r.count(8)
		if r.err != nil || n > uint64(len(field)+63)/64 {
			return Text{}, buf, ErrCorrupt
		}
		mask := r.b[:8*n]
		r.b = r.b[8*n:]
		if n > 0 && bits.Len64(binary.LittleEndian.Uint64(mask[8*(n-1):])) > len(field)-64*int(n-1) {
			return Text{}, buf, ErrCorrupt // a bit past the field
		}
		t.masks[k] = mask
	}
	return t, used, r.err
}

// restore returns the title and body as written: t's own bytes for a
// field stored raw, else restored into buf (grown when too small); used
// is buf. Cost: a copy of the text when a field is lowered.
func (t Text) restore(buf []byte) (title, body, used []byte, err error) {
	if t.lowered == 0 {
		return t.title, t.body, buf, nil
	}
	n := t.Len()
	used = slices.Grow(buf[:0], n)[:n]
	copy(used, t.title)
	copy(used[len(t.title):], t.body)
	title, body = used[:len(t.title):len(t.title)], used[len(t.title):]
	for k, field := range [2][]byte{title, body} {
		if _, mask, lowered := t.field(k); lowered {
			if err := raise(field, mask); err != nil {
				return nil, nil, buf, err
			}
		}
	}
	return title, body, used, nil
}

// raise raises the letters of b, a lowered field or the start of one,
// that its stored mask marks. A bit on a byte that is not a lower-case
// letter is ErrCorrupt; bits past b are of the rest of the field, not
// read.
func raise(b, mask []byte) error {
	for w := 0; w+8 <= len(mask); w += 8 {
		for m := binary.LittleEndian.Uint64(mask[w:]); m != 0; m &= m - 1 {
			i := w*8 + bits.TrailingZeros64(m)
			if i >= len(b) {
				return nil
			}
			if b[i] < 'a' || b[i] > 'z' {
				return corruptMask
			}
			b[i] -= 'a' - 'A'
		}
	}
	return nil
}

// maskWords returns the upper-case mask of field, a lowered field or the
// start of one, from its stored mask (a bit per byte, as
// tokenize.FoldCase makes it), in dst when it has room, and ErrCorrupt
// for a bit on a byte that is not a lower-case letter. Bits past field
// are of the rest of the field, not read. Cost: a word per 64 bytes of
// field, allocated when dst is too small; a look at each letter marked.
func maskWords(dst []uint64, field, mask []byte) ([]uint64, error) {
	words := dst[:0]
	if n := (len(field) + 63) / 64; cap(words) >= n {
		words = words[:n]
	} else {
		words = make([]uint64, n)
	}
	stored := min(len(words), len(mask)/8)
	for w := range stored {
		m := binary.LittleEndian.Uint64(mask[8*w:])
		if rest := len(field) - 64*w; rest < 64 {
			m &= 1<<rest - 1
		}
		words[w] = m
		for ; m != 0; m &= m - 1 {
			if c := field[64*w+bits.TrailingZeros64(m)]; c < 'a' || c > 'z' {
				return nil, corruptMask
			}
		}
	}
	clear(words[stored:])
	return words, nil
}

// corruptMask is the error of a damaged mask of a lowered field.
var corruptMask = fmt.Errorf("%w: a case mask marks a byte that is not a letter", ErrCorrupt)

// DecodeStored returns the text of a record's rest (DecodeHeader's) as
// stored, for FoldInto and the fold cache, which fold it no further
// where it is stored lowered. Cost: none for text stored raw or lowered;
// a decompression for compressed text.
func DecodeStored(rest []byte) (Text, error) {
	t, _, err := decodeStored(rest, nil)
	return t, err
}

// DecodeRecordStored is DecodeStored for a whole record, decompressing
// compressed text into buf when it is large enough, and returns the
// buffer it used, to be passed again, as DecodeRecordTextTo does.
func DecodeRecordStored(rec, buf []byte) (Text, []byte, error) {
	end, err := scanHeader(rec, nil, nil)
	if err != nil {
		return Text{}, buf, err
	}
	return decodeStored(end.rest, buf)
}
