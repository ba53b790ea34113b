package folder

import (
	"bytes"
	"regexp"
	"strings"
)

// ignoreRule is one line of a .gitignore or .twindexignore file.
type ignoreRule struct {
	base    string // folder ID of the file holding the rule; "" at the root
	negate  bool   // "!pattern": re-include
	dirOnly bool   // "pattern/": folders only
	re      *regexp.Regexp
}

// ignorer decides which paths a folder walk skips. It holds the rules of
// every ignore file from the root down to the current folder, shallow
// first; the last rule that matches a path decides, so deeper files and
// later lines win, as in git. An ignorer is immutable: with returns a new one.
type ignorer struct {
	rules []ignoreRule
}

// with returns an ignorer that also applies the rules in data, read from
// an ignore file in folder base.
func (ig *ignorer) with(base string, data []byte) *ignorer {
	rules := parseIgnore(base, data)
	if len(rules) == 0 {
		return ig
	}
	n := &ignorer{rules: make([]ignoreRule, 0, len(ig.rules)+len(rules))}
	n.rules = append(append(n.rules, ig.rules...), rules...)
	return n
}

// ignored reports whether the path with ID id (relative to the root, '/'
// separators) is excluded. Folders are tested before the walk enters
// them, so a file inside an ignored folder is never asked about.
func (ig *ignorer) ignored(id string, isDir bool) bool {
	for i := len(ig.rules) - 1; i >= 0; i-- {
		r := &ig.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		rel := id
		if r.base != "" {
			if !strings.HasPrefix(id, r.base+"/") {
				continue
			}
			rel = id[len(r.base)+1:]
		}
		if r.re.MatchString(rel) {
			return !r.negate
		}
	}
	return false
}

// parseIgnore reads gitignore syntax: comments, blank lines, "!" negation,
// trailing "/" for folders, a leading or inner "/" anchoring the pattern to
// the file's folder, "*", "?", "[...]" and "**". Lines that cannot be
// compiled are skipped.
func parseIgnore(base string, data []byte) []ignoreRule {
	var rules []ignoreRule
	for _, line := range bytes.Split(data, []byte("\n")) {
		p := strings.TrimSuffix(string(line), "\r")
		p = trimTrailingSpace(p)
		if p == "" || p[0] == '#' {
			continue
		}
		r := ignoreRule{base: base}
		if p[0] == '!' {
			r.negate = true
			p = p[1:]
		} else if strings.HasPrefix(p, `\!`) || strings.HasPrefix(p, `\#`) {
			p = p[1:]
		}
		if strings.HasSuffix(p, "/") {
			r.dirOnly = true
			p = strings.TrimRight(p, "/")
		}
		if p == "" {
			continue
		}
		anchored := strings.Contains(p, "/")
		p = strings.TrimPrefix(p, "/")
		expr := globRegexp(p)
		if !anchored {
			expr = "(?:.*/)?" + expr
		}
		re, err := regexp.Compile("^" + expr + "$")
		if err != nil {
			continue
		}
		r.re = re
		rules = append(rules, r)
	}
	return rules
}

// trimTrailingSpace drops trailing spaces unless escaped with a backslash.
func trimTrailingSpace(p string) string {
	for strings.HasSuffix(p, " ") && !strings.HasSuffix(p, `\ `) {
		p = p[:len(p)-1]
	}
	return p
}

// globRegexp translates a gitignore glob into a regular expression body.
func globRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' && strings.HasPrefix(p[i:], "**"):
			atStart := i == 0 || p[i-1] == '/'
			rest := p[i+2:]
			switch {
			case atStart && strings.HasPrefix(rest, "/"):
				b.WriteString("(?:.*/)?") // "**/": zero or more folders
				i += 2
			case atStart && rest == "":
				b.WriteString(".*") // "/**": everything inside
				i++
			default:
				b.WriteString("[^/]*") // "**" inside a name acts like "*"
				i++
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := classEnd(p, i)
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : end]
			b.WriteByte('[')
			if class != "" && (class[0] == '!' || class[0] == '^') {
				b.WriteByte('^')
				class = class[1:]
			}
			for j := 0; j < len(class); j++ {
				switch class[j] {
				case '\\', '[', ']', '^':
					b.WriteByte('\\')
				}
				b.WriteByte(class[j])
			}
			b.WriteByte(']')
			i = end
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
	}
	return b.String()
}

// classEnd returns the index of the "]" closing the class opened at p[i],
// or -1. A "]" right after "[" or "[!" is a member, not the end.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		if p[j] == ']' {
			return j
		}
	}
	return -1
}
