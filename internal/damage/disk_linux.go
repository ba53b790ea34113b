package damage

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size bytes on a fresh temporary directory
// and returns it, for tests of a full disk; the mount goes away with the
// test. It skips the test when it cannot mount (not root, or no mount
// permission in a container).
func SmallDisk(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("disk-full test mounts a small tmpfs, which needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("disk-full test cannot mount a small tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
