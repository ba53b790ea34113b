package remote

import "errors"

var (
	// ErrInvalid is returned, wrapped with the reason, by NewEmbedder and
	// NewReranker for a URL that is not http(s)://host[:port][/path], an
	// unknown API or an empty embedding model.
	ErrInvalid = errors.New("remote: invalid argument")

	// ErrBadResponse is returned, wrapped with the reason, by Embed and
	// Rerank when a server answered 200 with a body they cannot use: not
	// JSON of the API's shape, over 64 MiB, the wrong number of vectors or
	// scores, an index out of range or repeated, an empty vector, or
	// vectors of different dimensions.
	ErrBadResponse = errors.New("remote: bad response")
)
