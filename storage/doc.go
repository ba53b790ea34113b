// Package storage is twindex's document store: the source of truth from
// which the search indexes are derived.
//
// A Store is a small transactional key/value store with named buckets. Bolt
// keeps it in one bbolt file on disk; Memory keeps it in the process (tests
// and the browser build). Both give the same guarantees:
//
//   - Update runs its function in a read-write transaction that commits
//     when the function returns nil and rolls back entirely otherwise; a
//     committed Bolt transaction is on disk (fsynced) when Update returns.
//   - View runs its function in a read-only transaction that sees one
//     consistent state for its whole life.
//   - Byte slices returned by a Tx are valid only for the life of that
//     transaction; copy what you keep.
//   - Only one Update runs at a time; Views run concurrently with each other
//     and (in Bolt) with an Update.
//
// A damaged file is an error, never a crash: bbolt keeps no checksums on
// its pages and follows the page IDs it reads through a memory map, so
// Open first walks the file's pages with bounds-checked reads (CheckFile)
// and returns a *CorruptError naming the file and page; panics of bbolt
// on damage it meets later become errors wrapping ErrCorrupt. CheckFile
// serves other bbolt files too (scorch's root.bolt). The walk comes
// before bbolt takes the file's lock, so a walk that fails while another
// process holds it, and may be committing, is not the verdict: Open waits
// for the lock as bbolt would and walks again, or returns ErrLocked.
//
// The engine decides what goes in the buckets (documents, the parent index,
// the write log, sequence numbers, counters, the schema version); this
// package only stores bytes.
package storage
