package extract

import "errors"

// ErrTooLarge is returned, wrapped, by Gunzip and Read when the
// decompressed text is over the limit.
var ErrTooLarge = errors.New("decompressed text over the size limit")

// ErrGzip is returned, wrapped, by Gunzip and Read for data that is not
// valid gzip: a bad header, a bad checksum, or cut short.
var ErrGzip = errors.New("not valid gzip")
