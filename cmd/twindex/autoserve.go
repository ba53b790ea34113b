package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// autoIdle is how long a server that 'twindex search --serve' started
// waits for requests before it exits.
const autoIdle = 15 * time.Minute

// serveLog is the file, in the index folder, that a server started by a
// search logs to.
const serveLog = "serve.log"

// serveEnv parses $TWINDEX_SERVE, which stands for search's --serve when
// the flag is not given.
func serveEnv(e *env) (bool, error) {
	v := e.getenv("TWINDEX_SERVE")
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, usageErr("set TWINDEX_SERVE to 1 or 0", "TWINDEX_SERVE=%q is not a boolean", v)
	}
	return on, nil
}

// maxServeLog is the size past which serveLog is emptied when a server
// is started: each start appends to it.
const maxServeLog = 1 << 20

// startServer starts 'twindex serve' for the folder index at l in the
// background, in a session of its own, once this search has closed the
// index (the server opens it for writing), and does not wait for it: the
// next command finds it serving, or starting (its lock taken), and waits
// for it then; a command that takes the lock first delays it (the server
// waits for the lock as any command does). The server appends its
// warnings and errors to serveLog in the index folder and exits after
// autoIdle without requests. A server that cannot be started is reported
// on stderr.
func startServer(e *env, l *location, f *searchFlags) {
	warn := func(err error) {
		fmt.Fprintf(e.stderr, "twindex: no server started: %v\n", err)
	}
	exe, err := os.Executable()
	if err != nil {
		warn(err)
		return
	}
	args := []string{"serve", l.Root, "--index", l.Dir, "--idle", autoIdle.String(), "--log-level", "warn",
		"--max-size", strconv.FormatInt(f.maxSize, 10)}
	if *f.lang != "" {
		args = append(args, "--lang", *f.lang)
	}
	args = append(append(args, f.emb.args()...), f.rr.args()...)
	logPath := filepath.Join(l.Dir, serveLog)
	if fi, err := os.Stat(logPath); err == nil && fi.Size() > maxServeLog {
		os.Truncate(logPath, 0)
	}
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		warn(err)
		return
	}
	defer log.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = l.Root // not the caller's folder, which it would keep in use
	cmd.Stdout, cmd.Stderr = log, log
	detach(cmd)
	if err := cmd.Start(); err != nil {
		warn(err)
		return
	}
	if !f.quiet {
		fmt.Fprintf(e.stderr, "twindex: started a server (pid %d) for %s; the next searches go through it, until %s pass without one (log: %s)\n",
			cmd.Process.Pid, l.Root, autoIdle, logPath)
	}
	cmd.Process.Release()
}
