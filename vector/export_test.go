package vector

// SetEfSearch lets BenchmarkSearch sweep the search beam over one built
// graph instead of rebuilding it per setting.
func (v *Set) SetEfSearch(ef int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.opts.EfSearch = ef
}
