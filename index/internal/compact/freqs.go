package compact

import "bytes"

// freqList is a field's postings' frequencies, a byte each; those of 255
// and more are in big, by posting. Most are small (a gram's or a word's
// in one document): at four bytes each they were a tenth of the browser
// page's memory after loading the demo's snapshot.
type freqList struct {
	small []uint8
	big   map[uint32]uint32
}

// at returns the frequency of posting p.
func (l *freqList) at(p uint32) uint32 {
	if v := l.small[p]; v < 255 {
		return uint32(v)
	}
	return l.big[p]
}

// set sets the frequency of posting p, which small holds.
func (l *freqList) set(p, v uint32) {
	if v < 255 {
		l.small[p] = uint8(v)
		return
	}
	l.small[p] = 255
	if l.big == nil {
		l.big = map[uint32]uint32{}
	}
	l.big[p] = v
}

// add appends a posting's frequency.
func (l *freqList) add(v uint32) {
	l.small = append(l.small, 0)
	l.set(uint32(len(l.small)-1), v)
}

// addRange appends the frequencies of src's postings [start, end).
func (l *freqList) addRange(src *freqList, start, end uint32) {
	at := uint32(len(l.small))
	part := src.small[start:end]
	l.small = append(l.small, part...)
	for i := 0; ; i++ {
		j := bytes.IndexByte(part[i:], 255)
		if j < 0 {
			return
		}
		i += j
		l.set(at+uint32(i), src.big[start+uint32(i)])
	}
}
