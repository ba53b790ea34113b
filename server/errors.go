package server

import "errors"

var (
	// ErrNoToken is returned by Own for an HTTP address other machines
	// can reach and no token to keep them out.
	ErrNoToken = errors.New("serving HTTP beyond this machine needs a token (TWINDEX_TOKEN)")

	// ErrNoOwner is returned by Dial when no live process owns the index:
	// there is no owner file, or its endpoint does not answer (the owner
	// was killed).
	ErrNoOwner = errors.New("no server owns the index")

	// ErrUnreachable is returned, wrapped, by a Client whose Owner stopped
	// answering mid-call (it exited or was killed).
	ErrUnreachable = errors.New("the server that owns the index is gone")

	// ErrProtocol is returned, wrapped, by Dial for an Owner that speaks
	// another version of the local endpoint's protocol.
	ErrProtocol = errors.New("the server that owns the index is another version of twindex")

	// ErrStarting is returned by an Owner's endpoints while it brings
	// the index up to date on start; a Client waits it out.
	ErrStarting = errors.New("the server is bringing the index up to date; try again in a moment")

	// ErrNoRoot is returned by Sync on an index that mirrors no folder.
	ErrNoRoot = errors.New("this index mirrors no folder: it was opened without one (a PATH or --root)")
)
