package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/twindex/twindex/server"
)

// autoIdle is how long a server that 'twindex search --serve' started
// waits for requests before it exits.
const autoIdle = 15 * time.Minute

// serveStartWait bounds how long a search waits for the server it started
// to make its endpoint: the server opens the index (for writing, which
// checks its segments) before it does.
const serveStartWait = 10 * time.Second

// serveLog is the file, in the index folder, that a server started by a
// search logs to.
const serveLog = "serve.log"

// serveEnv parses $TWINDEX_SERVE, the default of search's --serve.
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

// startServer starts 'twindex serve' for the folder index at l in the
// background, unless a server owns it already, and waits until the server
// takes requests (the search then sends its own there) or has exited. The
// server logs to serveLog in the index folder and exits after autoIdle
// without requests. A server that cannot start is reported on stderr and
// the search goes on without one.
func startServer(e *env, l *location, f *searchFlags) {
	if c, err := server.Dial(l.Dir); err == nil {
		c.Close()
		return
	}
	warn := func(err error) {
		fmt.Fprintf(e.stderr, "twindex: no server started (%v); searching without one\n", err)
	}
	exe, err := os.Executable()
	if err != nil {
		warn(err)
		return
	}
	args := []string{"serve", l.Root, "--index", l.Dir, "--idle", autoIdle.String(), "--max-size", strconv.FormatInt(f.maxSize, 10)}
	if *f.lang != "" {
		args = append(args, "--lang", *f.lang)
	}
	args = append(append(args, f.emb.args()...), f.rr.args()...)
	logPath := filepath.Join(l.Dir, serveLog)
	log, err := os.Create(logPath)
	if err != nil {
		warn(err)
		return
	}
	defer log.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = log, log
	detach(cmd)
	if err := cmd.Start(); err != nil {
		warn(err)
		return
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for deadline := time.Now().Add(serveStartWait); time.Now().Before(deadline); {
		if c, err := server.Dial(l.Dir); err == nil {
			c.Close()
			if !f.quiet {
				fmt.Fprintf(e.stderr, "twindex: started a server (pid %d) for %s; it exits after %s without requests (log: %s)\n",
					cmd.Process.Pid, l.Root, autoIdle, logPath)
			}
			return
		}
		select {
		case err := <-exited:
			warn(fmt.Errorf("the server exited: %v; see %s", err, logPath))
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
	warn(fmt.Errorf("the server (pid %d) did not serve within %s; see %s", cmd.Process.Pid, serveStartWait, logPath))
}
