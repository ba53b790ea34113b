package compact

import "errors"

var (
	// ErrClosed is returned by writes to a closed index.
	ErrClosed = errors.New("compact: index closed")

	// ErrUnsupported is returned for what the index does not keep:
	// composite fields and doc values.
	ErrUnsupported = errors.New("compact: not supported")

	// ErrCorrupt is returned, wrapped with the reason, by Decode for bytes
	// that are not an index Encode wrote.
	ErrCorrupt = errors.New("compact: corrupt index")
)
