package server

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// arg adds to an inferred input schema what struct tags cannot say: bounds,
// allowed values and a default, and tells an agent how to fix a bad value.
type arg struct {
	min, max           *float64
	minItems, maxItems *int
	enum               []string
	def                any
	fix                string // what a valid value is; ends the error message
}

func num(f float64) *float64 { return &f }
func count(n int) *int       { return &n }

// inputSchema infers the schema of T (descriptions come from jsonschema
// tags) and applies args to its top-level properties. It panics on a
// programming error: a type without a schema or an arg for no property.
func inputSchema[T any](args map[string]arg) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	dropNull(s)
	for name, a := range args {
		p, ok := s.Properties[name]
		if !ok {
			panic(fmt.Sprintf("input schema %T: no property %q", *new(T), name))
		}
		p.Minimum, p.Maximum, p.MinItems, p.MaxItems = a.min, a.max, a.minItems, a.maxItems
		for _, v := range a.enum {
			p.Enum = append(p.Enum, v)
		}
		if a.def != nil {
			b, err := json.Marshal(a.def)
			if err != nil {
				panic(err)
			}
			p.Default = b
		}
	}
	return s
}

// dropNull makes every ["null", T] type of s and below it a plain T. The
// inference gives slices, maps and pointers a null alternative; clients
// that build arguments from the schema (the MCP Inspector) cannot send
// arrays or numbers for such a union, and an omitted argument already
// says "none".
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	dropNull(s.AdditionalProperties)
}

// The SDK validates arguments against the input schema before a handler
// runs and reports failures as `validating "arguments": validating root:
// validating /properties/limit: maximum: 51/1 is greater than 50.000000`.
var (
	reProperty   = regexp.MustCompile(`/properties/([A-Za-z_]+)`)
	reMissing    = regexp.MustCompile(`missing properties: \["?([^"\]]*)`)
	reAdditional = regexp.MustCompile(`unexpected additional properties \["?([^"\]]*)`)
)

const sdkValidationPrefix = `validating "arguments"`

// argError rewrites the SDK's validation message for a tool into one that
// names the argument, echoes the value and says what a valid one is.
func argError(tool string, args map[string]arg, props []string, raw json.RawMessage, msg string) string {
	var given map[string]json.RawMessage
	_ = json.Unmarshal(raw, &given)
	ms := reProperty.FindAllStringSubmatch(msg, -1)
	if ms == nil {
		if m := reMissing.FindStringSubmatch(msg); m != nil {
			return strings.TrimSpace(fmt.Sprintf("%s: missing required argument %q. %s", tool, m[1], args[m[1]].fix))
		}
		if m := reAdditional.FindStringSubmatch(msg); m != nil {
			return fmt.Sprintf("%s: unknown argument %q; the arguments are %s", tool, m[1], strings.Join(props, ", "))
		}
		return fmt.Sprintf("%s: invalid arguments: %s; see the tool's input schema", tool, cleanValidation(msg))
	}
	name := ms[0][1]
	var out string
	if len(ms) > 1 || strings.Contains(msg, "/items") {
		// Inside a list: the SDK's message locates the problem; the
		// value would be the whole list.
		out = fmt.Sprintf("%s: invalid %s: %s", tool, name, cleanValidation(msg))
	} else {
		val := string(given[name])
		if val == "null" {
			return strings.TrimSuffix(fmt.Sprintf("%s: no %s: %s", tool, name, args[name].fix), ": ")
		}
		if len(val) > 60 {
			val = val[:57] + "..."
		}
		out = fmt.Sprintf("%s: invalid %s %s", tool, name, val)
	}
	if fix := args[name].fix; fix != "" {
		out += ". " + fix
	}
	return out
}

// cleanValidation keeps the innermost part of a validation message.
func cleanValidation(msg string) string {
	if i := strings.LastIndex(msg, "validating "); i >= 0 {
		msg = msg[i+len("validating "):]
	}
	return strings.TrimSpace(msg)
}
