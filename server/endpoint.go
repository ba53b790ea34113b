package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The local endpoint: a unix socket (Linux, macOS, Windows 10 and later)
// in a folder only the owner may enter, serve/ in the index directory,
// and beside it owner.json, which says who serves the index and where.
// Only the process holding the index's lock (its Owner) makes them, so a
// process that holds the lock itself knows any it finds are stale.
const (
	endpointDir  = "serve"
	ownerFile    = "owner.json"
	socketName   = "sock"
	sunPathLimit = 104 // bytes of a socket path, with its NUL: macOS's, the smallest
	tempPrefix   = "twindex-"
)

// protocol is the version of the local endpoint's requests: a Client
// refuses an Owner that speaks another.
const protocol = 1

// Owned says which process owns an index and where it serves it, as its
// owner file records.
type Owned struct {
	PID      int       `json:"pid"`
	Socket   string    `json:"socket"`         // the local endpoint
	HTTP     string    `json:"http,omitempty"` // http://HOST:PORT, when serving HTTP too
	Version  string    `json:"version"`        // of twindex
	Protocol int       `json:"protocol"`
	Started  time.Time `json:"started"`
	Info
}

// endpoint is a listening local endpoint and what to remove at close.
type endpoint struct {
	ln      net.Listener
	dir     string // the index directory
	tempDir string // a folder under os.TempDir holding the socket, or ""
}

// listenLocal makes the local endpoint of the index in dir, which the
// caller holds open: stale endpoint files are removed first.
func listenLocal(dir string) (*endpoint, error) {
	ed := filepath.Join(dir, endpointDir)
	if err := os.RemoveAll(ed); err != nil {
		return nil, fmt.Errorf("remove the stale endpoint: %w", err)
	}
	if err := os.Mkdir(ed, 0o700); err != nil {
		return nil, fmt.Errorf("make the endpoint folder: %w", err)
	}
	ep := &endpoint{dir: dir}
	sock := filepath.Join(ed, socketName)
	if len(sock) >= sunPathLimit {
		// Too long a path for a socket: a short one under the temporary
		// folder, also in a folder only we may enter.
		t, err := os.MkdirTemp("", tempPrefix+"*")
		if err != nil {
			return nil, fmt.Errorf("make the endpoint folder: %w", err)
		}
		ep.tempDir, sock = t, filepath.Join(t, socketName)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		ep.remove()
		return nil, fmt.Errorf("listen on %s: %w", sock, err)
	}
	ep.ln = ln
	if err := os.Chmod(sock, 0o600); err != nil {
		ln.Close()
		ep.remove()
		return nil, fmt.Errorf("listen on %s: %w", sock, err)
	}
	return ep, nil
}

// record writes the owner file, atomically.
func (ep *endpoint) record(o *Owned) error {
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return err
	}
	name := filepath.Join(ep.dir, endpointDir, ownerFile)
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write the owner file: %w", err)
	}
	if err := os.Rename(tmp, name); err != nil {
		return fmt.Errorf("write the owner file: %w", err)
	}
	return nil
}

func (ep *endpoint) remove() {
	os.RemoveAll(filepath.Join(ep.dir, endpointDir))
	if ep.tempDir != "" {
		os.RemoveAll(ep.tempDir)
	}
}

// readOwned reads the owner file of the index in dir: ErrNoOwner when
// there is none.
func readOwned(dir string) (*Owned, error) {
	b, err := os.ReadFile(filepath.Join(dir, endpointDir, ownerFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoOwner
	}
	if err != nil {
		return nil, fmt.Errorf("read the owner file: %w", err)
	}
	var o Owned
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("read the owner file: %w", err)
	}
	return &o, nil
}

// RemoveStale removes the endpoint files a killed Owner left in the
// index directory dir. Call it only while holding the index open: then
// no live Owner can have made them.
func RemoveStale(dir string) {
	if o, err := readOwned(dir); err == nil {
		// The short path under the temporary folder, and nothing else.
		t := filepath.Dir(o.Socket)
		if filepath.Dir(t) == filepath.Clean(os.TempDir()) && strings.HasPrefix(filepath.Base(t), tempPrefix) {
			os.RemoveAll(t)
		}
	}
	os.RemoveAll(filepath.Join(dir, endpointDir))
}
