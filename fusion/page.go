package fusion

// Page returns the items in [offset, offset+limit) and the offset of the
// next page, or nil when this page reaches the end. A negative offset counts
// as 0; a limit of 0 or less means no limit. An offset at or past the end
// gives an empty page and a nil next.
//
// The page shares items' backing array but has its capacity clipped, so
// appending to it never overwrites items.
func Page[T any](items []T, offset, limit int) (page []T, next *int) {
	offset = max(offset, 0)
	if offset >= len(items) {
		return items[len(items):], nil
	}
	end := len(items)
	if limit > 0 && limit < len(items)-offset {
		end = offset + limit
	}
	if end < len(items) {
		next = &end
	}
	return items[offset:end:end], next
}
