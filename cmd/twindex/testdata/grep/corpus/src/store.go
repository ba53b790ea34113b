package store

import "os"

// OpenStore opens the pelican store at path.
func OpenStore(path string) (*Store, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &Store{f: f}, nil
}

// Store holds the pelican's catch.
type Store struct {
	f *os.File
}

// Close closes the store.
func (s *Store) Close() error { return s.f.Close() }
