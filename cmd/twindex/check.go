package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/twindex/twindex/index"
)

func runCheck(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "check", "twindex check [flags]", `  twindex check && echo in step

Verifies that the store and both indexes agree: document counts, writes
applied, and each document's content hash; and that each record's filter
of adjacent word pairs, which quoted phrases consult, holds every pair its
text makes (an analysis of every document: seconds for ten thousand
files). Prints what drifted (missing, extra and changed IDs per index,
records whose filter lacks a pair) and exits 3 on drift; 'twindex
rebuild' repairs it.`)
	idx := fs.indexFlag()
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if _, err := fs.parse(args); err != nil {
		return err
	}
	eng, loc, err := openEngine(e, *idx)
	if err != nil {
		return err
	}
	defer eng.Close()
	rep, err := eng.Check(ctx)
	if err != nil {
		return indexErr(err, loc.Dir)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(struct {
			OK bool `json:"ok"`
			*index.Report
		}{rep.OK(), rep}, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		fmt.Fprint(e.stdout, rep.String())
	}
	if !rep.OK() {
		return &exitError{code: exitIndex, err: fmt.Errorf("%s is out of step with its store", loc.Dir),
			hint: "run 'twindex rebuild' to rebuild both indexes from the store"}
	}
	return nil
}
