package server

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twindex/twindex/index"
)

// CheckDoc checks a document as the engine will (Options.MaxDocBytes
// maxText), so a caller can name the bad one instead of failing a whole
// batch. The error says what is wrong, without the ErrInvalidDoc prefix.
func CheckDoc(d index.Doc, maxText int) error {
	switch {
	case d.ID == "":
		return errors.New(`missing or empty "id"`)
	case len(d.ID) > index.MaxIDBytes:
		return fmt.Errorf("id of %d bytes, the limit is %d", len(d.ID), index.MaxIDBytes)
	case strings.IndexByte(d.ID, 0) >= 0 || !utf8.ValidString(d.ID):
		return errors.New("id holds a NUL byte or invalid UTF-8")
	case strings.IndexByte(d.Parent, 0) >= 0:
		return errors.New("parent holds a NUL byte")
	case len(d.Title)+len(d.Body) > maxText:
		return fmt.Errorf("title and body hold %d bytes, the limit is %d", len(d.Title)+len(d.Body), maxText)
	}
	if err := index.CheckDoc(&d, maxText); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), index.ErrInvalidDoc.Error()+": "))
	}
	return nil
}

// ParseTime accepts RFC 3339 and the ISO 8601 forms people write: a date,
// or a date and time without a zone (UTC).
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO-8601 date or datetime (e.g. 2024-05-01 or 2024-05-01T12:00:00Z)", s)
}
