package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/twindex/twindex/index"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3";
// otherwise the module version or VCS revision from the build info is used.
var version = ""

func runVersion(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "version", "twindex version", "  twindex version")
	if _, err := fs.parse(args); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "twindex %s (index schema %d, %s, %s/%s)\n", buildVersion(), index.SchemaVersion, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

// buildVersion is version, or else what the build info says.
func buildVersion() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "" {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 && (v == "" || v == "(devel)") {
				v = "devel-" + s.Value[:12]
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return v
}
