package psconfig

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// varRE is a template variable: {% address[0] %}, {% scheduled_by_address %}, {% flip %}.
var varRE = regexp.MustCompile(`\{%\s*(.*?)\s*%\}`)

// vars are the values of a pair's template variables.
type vars struct {
	pair  []*endpoint
	sched *endpoint
	flip  bool
}

// value of one variable; ok false for one the plan cannot know (jq, an index past the pair).
func (v vars) value(name string) (any, error) {
	idx := func(prefix string) (*endpoint, bool, error) {
		rest, ok := strings.CutPrefix(name, prefix+"[")
		if !ok || !strings.HasSuffix(rest, "]") {
			return nil, false, nil
		}
		i, err := strconv.Atoi(strings.TrimSuffix(rest, "]"))
		if err != nil || i < 0 || i >= len(v.pair) {
			return nil, true, fmt.Errorf("{%% %s %%}: the group gives %d address(es)", name, len(v.pair))
		}
		return v.pair[i], true, nil
	}
	for _, f := range []struct {
		prefix string
		get    func(*endpoint) string
	}{
		{"address", func(e *endpoint) string { return e.Address }},
		{"pscheduler_address", func(e *endpoint) string { return e.PSched }},
		{"lead_bind_address", func(e *endpoint) string { return e.LeadBind }},
	} {
		e, ok, err := idx(f.prefix)
		if err != nil {
			return nil, err
		}
		if ok {
			return f.get(e), nil
		}
	}
	switch {
	case name == "scheduled_by_address":
		return v.sched.Address, nil
	case name == "flip":
		return v.flip, nil
	case name == "localhost":
		return "localhost", nil
	case strings.HasPrefix(name, "jq "):
		return nil, fmt.Errorf("{%% %s %%}: jq variables are not evaluated", name)
	}
	return nil, fmt.Errorf("{%% %s %%}: unknown template variable", name)
}

// expand substitutes the variables in a JSON value (a test spec, a reference). A string that
// is one variable alone takes the variable's value (so {% flip %} is a JSON boolean); embedded
// ones are written into the string.
func (v vars) expand(x any) (any, error) {
	switch x := x.(type) {
	case string:
		if m := varRE.FindStringSubmatch(x); m != nil && m[0] == x {
			return v.value(m[1])
		}
		var err error
		out := varRE.ReplaceAllStringFunc(x, func(s string) string {
			val, e := v.value(varRE.FindStringSubmatch(s)[1])
			if e != nil {
				err = e
				return s
			}
			return fmt.Sprint(val)
		})
		return out, err
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			e, err := v.expand(val)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = e
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			e, err := v.expand(val)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	return x, nil
}
