package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The completion scripts parse in their shells and complete commands,
// flags and flag values; zsh and fish are checked where installed (.ci/run
// installs them).
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	scripts := map[string]string{}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		r := twindex(t, dir, "completion", sh).want(t, 0)
		scripts[sh] = filepath.Join(dir, "twindex."+sh)
		if err := os.WriteFile(scripts[sh], []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	twindex(t, dir, "completion", "tcsh").want(t, 2)

	t.Run("bash", func(t *testing.T) {
		if out, err := exec.Command("bash", "-n", scripts["bash"]).CombinedOutput(); err != nil {
			t.Fatalf("bash -n: %v\n%s", err, out)
		}
		tests := []struct {
			words []string // the last is the word being completed
			want  []string
			not   []string
		}{
			{[]string{"se"}, []string{"search", "serve"}, []string{"stats"}},
			{[]string{"--index", "/tmp", "st"}, []string{"stats"}, []string{"search"}},
			{[]string{"search", "--mode", ""}, []string{"auto", "substring+text", "hybrid"}, []string{"--json"}},
			{[]string{"search", "--format", "j"}, []string{"json", "jsonl"}, []string{"text"}},
			{[]string{"search", "--li"}, []string{"--limit"}, nil},
			{[]string{"search", "-"}, []string{"-t", "-m", "--no-sync"}, []string{"--watch"}},
			{[]string{"links", "--format", ""}, []string{"text", "json"}, []string{"trec"}},
			{[]string{"help", "s"}, []string{"search", "stats"}, nil},
		}
		for _, tt := range tests {
			words := append([]string{"twindex"}, tt.words...)
			script := "source " + scripts["bash"] + "\nCOMP_WORDS=(" + quoteAll(words) + ")\nCOMP_CWORD=" +
				strconv.Itoa(len(words)-1) + "\n_twindex\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
			out, err := exec.Command("bash", "-c", script).CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %v\n%s", tt.words, err, out)
			}
			checkWords(t, tt.words, string(out), tt.want, tt.not)
		}
	})
	t.Run("zsh", func(t *testing.T) {
		zsh, err := exec.LookPath("zsh")
		if err != nil {
			t.Skip("zsh is not installed")
		}
		if out, err := exec.Command(zsh, "-n", scripts["zsh"]).CombinedOutput(); err != nil {
			t.Fatalf("zsh -n: %v\n%s", err, out)
		}
		// A real interactive zsh, driven through a pseudo-terminal.
		fdir := filepath.Join(dir, "zfunc")
		os.MkdirAll(fdir, 0o755)
		b, _ := os.ReadFile(scripts["zsh"])
		os.WriteFile(filepath.Join(fdir, "_twindex"), b, 0o644)
		// It waits for what it expects, not for fixed times: under CI's load
		// compinit can take seconds. "RE""ADY" echoes as typed and prints
		// as READY once the setup line has run.
		drive := `zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z 'PS1="> "; fpath=(` + fdir + ` $fpath); autoload -U compinit; compinit -u -d ` + filepath.Join(dir, "zdump") + `; setopt no_beep; print RE""ADY'
local out all
zpty -r z out '*READY*'
zpty -n -w z $'twindex search --mode \t'
for i in {1..300}; do
  while zpty -r -t z out; do all+=$out; done
  [[ $all == *substring+vector* && $all == *hybrid* ]] && break
  sleep 0.1
done
print -r -- "$all"
zpty -d z
`
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		out, _ := exec.CommandContext(ctx, zsh, "-f", "-c", drive).CombinedOutput()
		checkWords(t, []string{"zsh: search --mode"}, string(out), []string{"substring+vector", "hybrid"}, nil)
	})
	t.Run("fish", func(t *testing.T) {
		fish, err := exec.LookPath("fish")
		if err != nil {
			t.Skip("fish is not installed")
		}
		if out, err := exec.Command(fish, "--no-execute", scripts["fish"]).CombinedOutput(); err != nil {
			t.Fatalf("fish --no-execute: %v\n%s", err, out)
		}
		for _, tt := range []struct {
			line      string
			want, not []string
		}{
			{"twindex se", []string{"search", "serve"}, []string{"stats"}},
			{"twindex search --format ", []string{"jsonl", "trec"}, []string{"--json"}},
			{"twindex search -", []string{"-t", "--limit", "--no-sync"}, nil},
		} {
			out, err := exec.Command(fish, "-c", "source "+scripts["fish"]+"; complete -C '"+tt.line+"'").CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", tt.line, err, out)
			}
			checkWords(t, []string{tt.line}, string(out), tt.want, tt.not)
		}
	})
}

// checkWords fails unless every line-leading word in want is in out, and
// none in not.
func checkWords(t *testing.T, what []string, out string, want, not []string) {
	t.Helper()
	got := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		for _, f := range strings.Fields(l) {
			got[f] = true
		}
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("%v: no %q in\n%s", what, w, out)
		}
	}
	for _, w := range not {
		if got[w] {
			t.Errorf("%v: %q offered in\n%s", what, w, out)
		}
	}
}

func quoteAll(words []string) string {
	var q []string
	for _, w := range words {
		q = append(q, shellQuote(w))
	}
	return strings.Join(q, " ")
}

// The man page renders with man -l and groff without warnings, and holds
// every command and flag of --help.
func TestManPage(t *testing.T) {
	dir := t.TempDir()
	r := twindex(t, dir, "man").want(t, 0)
	page := filepath.Join(dir, "twindex.1")
	if err := os.WriteFile(page, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if groff, err := exec.LookPath("groff"); err == nil {
		out, err := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z", page).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("groff warnings: %v\n%s", err, out)
		}
	}
	man, err := exec.LookPath("man")
	if err != nil {
		t.Skip("man is not installed")
	}
	cmd := exec.Command(man, "-l", page)
	cmd.Env = append(os.Environ(), "MANWIDTH=100", "MANPAGER=cat", "PAGER=cat")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("man -l: %v\n%s", err, out)
	}
	text := string(out)
	for _, c := range describeCommands() {
		if !strings.Contains(text, "\n   "+c.name+"\n") {
			t.Errorf("no section for %s", c.name)
		}
		if c.fs == nil {
			continue
		}
		for _, d := range c.fs.docs() {
			name := "--" + d.long
			if d.long == "" {
				name = "-" + d.short
			}
			if !strings.Contains(text, name) {
				t.Errorf("%s: flag %s not in the page", c.name, name)
			}
		}
	}
	for _, want := range []string{"NAME\n       twindex - indexed", "-t, --kind kind", "EXIT STATUS", "TWINDEX_INDEX"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q:\n%s", want, text)
		}
	}
}
