package record

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// TextHead is the start of a record's text as stored: its title whole
// and its body's first bytes, for a reader that can often judge a
// document by them (a search verifying that a common word occurs, which
// it mostly does in a file's first lines), and decodes the rest only when
// they do not tell. FoldHeadInto folds it. TitleLen and BodyLen are the
// lengths of the title and body, whole.
type TextHead struct {
	Text
	Whole             bool // the body is whole
	TitleLen, BodyLen int
}

// DecodeTextHead decodes a record's title and at least n bytes of its
// body (all of it when shorter), into buf when it is large enough; it
// returns the buffer it used, to be passed again. A body cut short ends at
// a rune's start, so that its folding is a prefix of the whole body's.
// The head is valid until the buffer is used again, or for text stored
// raw or lowered, as long as the record is.
//
// Cost: for compressed text, the decompression of the title and n bytes
// of the body, and a few more (snappy's elements are decoded whole), not
// of the rest; none for raw or lowered text.
func DecodeTextHead(rec, buf []byte, n int) (h TextHead, used []byte, err error) {
	end, err := scanHeader(rec, nil, nil)
	if err != nil {
		return TextHead{}, buf, err
	}
	rest := end.rest
	if len(rest) == 0 {
		return TextHead{}, buf, ErrCorrupt
	}
	switch rest[0] {
	case textRaw, textLower:
		t, _, err := decodeStored(rest, nil)
		if err != nil {
			return TextHead{}, buf, err
		}
		h := TextHead{Text: t, Whole: true, TitleLen: len(t.title), BodyLen: len(t.body)}
		if len(t.body) > n {
			// Whole or not, it costs nothing here; cut, it costs its
			// caller a fold of n bytes instead of the body's.
			h.body, h.Whole = runeStartCut(t.body[:n]), false
		}
		return h, buf, nil
	case textSnappy:
	default:
		return TextHead{}, buf, ErrCorrupt
	}
	src := rest[1:]
	size, k := binary.Uvarint(src)
	if k <= 0 || size > uint64(len(src))*maxSnappyRatio {
		return TextHead{}, buf, ErrCorrupt
	}
	src = src[k:]
	// The title's length, the title and the body's length come first:
	// a title longer than the body's first n bytes is decoded whole.
	want := n + 2*binary.MaxVarintLen64
	for {
		out, err := snappyPrefix(buf[:0], src, int(size), want)
		if cap(out) > cap(buf) {
			buf = out
		}
		if err != nil {
			return TextHead{}, buf, err
		}
		r := reader{b: out}
		tl := r.uvarint()
		if r.err == nil && tl <= uint64(len(r.b)) {
			title := r.b[:tl]
			r.b = r.b[tl:]
			bl := r.uvarint()
			if r.err == nil {
				if bl > size {
					return TextHead{}, buf, ErrCorrupt
				}
				h = TextHead{Text: Text{title: title, body: r.b}, TitleLen: int(tl), BodyLen: int(bl)}
				switch {
				case uint64(len(h.body)) >= bl:
					// As DecodeText, bytes after the body are not read.
					h.body, h.Whole = h.body[:bl], true
					return h, buf, nil
				case len(out) == int(size):
					return TextHead{}, buf, ErrCorrupt // the body cut short
				case len(h.body) >= n:
					h.body = runeStartCut(h.body)
					return h, buf, nil
				}
			}
		}
		if len(out) == int(size) {
			return TextHead{}, buf, ErrCorrupt
		}
		want = 2*len(out) + n
	}
}

// maxSnappyRatio bounds a snappy block's claimed decoded length by its
// encoded one: no element makes more than 64 bytes of 3 (a copy with a
// 16-bit offset), so a larger claim is damage, not text.
const maxSnappyRatio = 32

// runeStartCut returns b without the start of a rune that b cuts short:
// up to three bytes.
func runeStartCut(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// snappyPrefix decodes the elements of a snappy block (src, past its
// length) into dst until it holds want bytes or size, the block's
// decoded length, whichever is less. It allocates when dst's capacity is
// less than size. Damage it reads is ErrCorrupt; the elements after it
// stops are not read.
func snappyPrefix(dst, src []byte, size, want int) ([]byte, error) {
	// d has copySlack bytes past size, which a copy of eight bytes at a
	// time may write into before later elements overwrite them.
	if cap(dst) < size+copySlack {
		dst = make([]byte, 0, size+copySlack)
	}
	d := dst[:size+copySlack]
	o := 0
	for s := 0; s < len(src) && o < want && o < size; {
		tag := src[s]
		var length, offset int
		switch tag & 3 {
		case 0: // a literal
			length = int(tag >> 2)
			s++
			if length >= 60 {
				extra := length - 59
				if s+extra > len(src) {
					return nil, corruptSnappy
				}
				length = 0
				for k := extra - 1; k >= 0; k-- {
					length = length<<8 | int(src[s+k])
				}
				s += extra
			}
			length++
			if length > len(src)-s || length > size-o {
				return nil, corruptSnappy
			}
			copy(d[o:], src[s:s+length])
			o += length
			s += length
			continue
		case 1: // a copy with an 11-bit offset
			if s+2 > len(src) {
				return nil, corruptSnappy
			}
			length = 4 + int(tag>>2)&7
			offset = int(tag&0xe0)<<3 | int(src[s+1])
			s += 2
		default: // a copy with a 16-bit (2) or 32-bit (3) offset
			w := 2 << (tag&3 - 2) // the offset's bytes
			if s+1+w > len(src) {
				return nil, corruptSnappy
			}
			length = 1 + int(tag>>2)
			for k := w; k > 0; k-- {
				offset = offset<<8 | int(src[s+k])
			}
			s += 1 + w
		}
		if offset <= 0 || offset > o || length > size-o {
			return nil, corruptSnappy
		}
		switch {
		case offset >= 8 && length <= copySlack:
			// Eight bytes at a time, each read from bytes already final
			// (offset >= 8), the last store past the element into d's
			// slack or the next element's place.
			for k := 0; k < length; k += 8 {
				binary.LittleEndian.PutUint64(d[o+k:], binary.LittleEndian.Uint64(d[o-offset+k:]))
			}
		case offset >= length:
			copy(d[o:o+length], d[o-offset:])
		default:
			// Overlapping: a run repeats its last offset bytes.
			for k := range length {
				d[o+k] = d[o-offset+k]
			}
		}
		o += length
	}
	if o < want && o < size {
		return nil, corruptSnappy // the elements end before the length they claim
	}
	return d[:o], nil
}

// copySlack is how far past a block's decoded length snappyPrefix may
// write: a copy element is at most 64 bytes long.
const copySlack = 64

// corruptSnappy is the error of damaged compressed text.
var corruptSnappy = fmt.Errorf("%w: damaged compressed text", ErrCorrupt)
