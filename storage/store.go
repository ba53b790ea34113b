package storage

// Store is a transactional bucketed key/value store. See the package doc
// for the guarantees every implementation gives.
type Store interface {
	// View runs fn in a read-only transaction.
	View(fn func(Tx) error) error
	// Update runs fn in a read-write transaction: commit on nil, roll back
	// on error.
	Update(fn func(Tx) error) error
	// Size is the store's size in bytes (the file for Bolt, the sum of keys
	// and values for Memory).
	Size() (int64, error)
	// Close releases the store. Transactions must not be running.
	Close() error
}

// Tx is a transaction. Methods that write return an error in a read-only
// transaction. Buckets are created on first Put.
type Tx interface {
	// Get returns the value of key in bucket, or nil when it is absent.
	// It does not keep key, which the caller may change once it returns.
	Get(bucket, key []byte) []byte
	Put(bucket, key, value []byte) error
	// Delete removes key; deleting an absent key is not an error.
	Delete(bucket, key []byte) error
	// Scan calls fn for each key with the given prefix in bucket, in byte
	// order, until fn returns an error (which Scan returns). A nil prefix
	// visits every key. fn must not write to the bucket it scans.
	Scan(bucket, prefix []byte, fn func(k, v []byte) error) error
}

// FaultFunc, when set in Options, is called before every write a
// transaction makes, before every commit and before a Memory.Load, with a
// short description of the step ("put docs", "delete log", "commit",
// "load docs"); a non-nil error fails that step
// as a disk error would. It exists to test that callers recover from I/O
// errors; leave it nil in production.
type FaultFunc func(step string) error

// Options configure a store. A nil *Options means the defaults.
type Options struct {
	// Fault injects write errors; see FaultFunc.
	Fault FaultFunc
	// NoSync skips fsync on commit (Bolt only): faster, but a power loss
	// may lose recent commits. For bulk loads that can be redone.
	NoSync bool
	// CheckRecord names a small file where Open (Bolt only) notes the
	// store file's size, modification time and transaction ID after
	// CheckFile found it sound, and skips the walk while all three are
	// unchanged: a file that was walked clean and not written since, or
	// written since only by commits that Close noted (see Bolt). Damage
	// that changes none of them (a bit flipped on the disk) then goes
	// unseen until the next change not noted. Empty: Open always walks.
	CheckRecord string
}
