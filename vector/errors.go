package vector

import "errors"

var (
	// ErrInvalidDim is returned (wrapped) by New for a dimension below 1.
	ErrInvalidDim = errors.New("invalid dimension")
	// ErrEmptyID is returned by Put for an empty ID.
	ErrEmptyID = errors.New("empty ID")
	// ErrInvalidVector is returned (wrapped) by Put and Search for a vector
	// of the wrong dimension, a zero vector, or one with NaN or infinite
	// components.
	ErrInvalidVector = errors.New("invalid vector")
)
