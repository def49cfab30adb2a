package psconfig

import (
	"fmt"
	"sort"
)

// check finds every dangling reference and bad value, each with its field path.
func (t *Template) check() []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, m := range []struct {
		name string
		keys []string
	}{
		{"addresses", keys(t.Addresses)}, {"address-classes", keys(t.AddressClasses)}, {"groups", keys(t.Groups)},
		{"tests", keys(t.Tests)}, {"schedules", keys(t.Schedules)}, {"tasks", keys(t.Tasks)},
		{"archives", keys(t.Archives)}, {"hosts", keys(t.Hosts)}, {"contexts", keys(t.Contexts)}, {"subtasks", keys(t.Subtasks)},
	} {
		for _, k := range m.keys {
			if k == "" {
				bad("%s: an empty name", m.name)
			}
		}
	}
	errs = append(errs, t.checkNames()...)
	for _, name := range keys(t.Addresses) {
		a := t.Addresses[name]
		p := "addresses." + name
		if a == nil {
			bad("%s: must be an object", p)
			continue
		}
		if a.Address == "" {
			bad("%s.address: required", p)
		}
		if a.Host != "" && t.Hosts[a.Host] == nil {
			bad("%s.host: unknown host %q", p, a.Host)
		}
		for _, l := range keys(a.Labels) {
			if a.Labels[l] == nil || a.Labels[l].Address == "" {
				bad("%s.labels.%s.address: required", p, l)
			}
		}
		for _, r := range keys(a.RemoteAddresses) {
			ra := a.RemoteAddresses[r]
			if ra == nil {
				bad("%s.remote-addresses.%s: must be an object", p, r)
				continue
			}
			for _, l := range keys(ra.Labels) {
				if ra.Labels[l] == nil || ra.Labels[l].Address == "" {
					bad("%s.remote-addresses.%s.labels.%s.address: required", p, r, l)
				}
			}
		}
	}
	for _, name := range keys(t.Groups) {
		g := t.Groups[name]
		p := "groups." + name
		if g == nil {
			bad("%s: must be an object", p)
			continue
		}
		sels := map[string][]Selector{}
		switch g.Type {
		case GroupMesh, GroupList:
			sels["addresses"] = g.Addresses
		case GroupDisjoint:
			sels["a-addresses"], sels["b-addresses"] = g.AAddresses, g.BAddresses
		case "":
			bad("%s.type: required (mesh, disjoint or list)", p)
		default:
			bad("%s.type: unknown group type %q (mesh, disjoint or list)", p, g.Type)
		}
		for _, f := range keys(sels) {
			if len(sels[f]) == 0 {
				bad("%s.%s: required: at least one address", p, f)
			}
			for i, s := range sels[f] {
				errs = append(errs, t.checkSelector(fmt.Sprintf("%s.%s[%d]", p, f, i), s)...)
			}
		}
		switch g.ExcludesSelf {
		case "", ExcludeSelfHost, ExcludeSelfAddress, ExcludeSelfDisabled:
		default:
			bad("%s.excludes-self: %q (host, address or disabled)", p, g.ExcludesSelf)
		}
		if g.Type == GroupList && (len(g.Excludes) > 0 || g.ExcludesSelf != "") {
			bad("%s: a list group has no excludes or excludes-self", p)
		}
		for i, e := range g.Excludes {
			errs = append(errs, checkSelectorForm(fmt.Sprintf("%s.excludes[%d].local-address", p, i), e.LocalAddress)...)
			for j, s := range e.TargetAddresses {
				errs = append(errs, checkSelectorForm(fmt.Sprintf("%s.excludes[%d].target-addresses[%d]", p, i, j), s)...)
			}
		}
	}
	for _, name := range keys(t.Tests) {
		x := t.Tests[name]
		switch {
		case x == nil:
			bad("tests.%s: must be an object", name)
		case x.Type == "":
			bad("tests.%s.type: required", name)
		case x.Spec == nil:
			bad("tests.%s.spec: required", name)
		}
	}
	for _, name := range keys(t.Schedules) {
		s := t.Schedules[name]
		if s == nil {
			bad("schedules.%s: must be an object", name)
			continue
		}
		for _, d := range []struct{ field, v string }{{"repeat", s.Repeat}, {"slip", s.Slip}} {
			if d.v == "" {
				continue
			}
			if _, err := ParseDuration(d.v); err != nil {
				bad("schedules.%s.%s: %v", name, d.field, err)
			}
		}
	}
	for _, name := range keys(t.Tasks) {
		k := t.Tasks[name]
		p := "tasks." + name
		if k == nil {
			bad("%s: must be an object", p)
			continue
		}
		switch {
		case k.Group == "":
			bad("%s.group: required", p)
		case t.Groups[k.Group] == nil:
			bad("%s.group: unknown group %q", p, k.Group)
		}
		switch {
		case k.Test == "":
			bad("%s.test: required", p)
		case t.Tests[k.Test] == nil:
			bad("%s.test: unknown test %q", p, k.Test)
		}
		if k.Schedule != "" && t.Schedules[k.Schedule] == nil {
			bad("%s.schedule: unknown schedule %q", p, k.Schedule)
		}
		if k.ScheduledBy != nil && *k.ScheduledBy < 0 {
			bad("%s.scheduled-by: must be 0 or more, got %d", p, *k.ScheduledBy)
		}
	}
	errs = append(errs, t.checkRefs()...)
	if len(errs) > 0 {
		return errs // classes are evaluated on a template whose references hold
	}
	return t.checkClasses()
}

// checkSelector checks a selector of a group's addresses as pSConfig's Config.validate_refs
// does: the address it names exists, and so does its label, on the address or on one of its
// remote-addresses entries. A class must exist, and be one the planner can evaluate.
// checkRequired: the schema's required top-level maps (they may be empty).
func (t *Template) checkRequired() []string {
	var errs []string
	for _, req := range []struct {
		name    string
		missing bool
	}{{"addresses", t.Addresses == nil}, {"groups", t.Groups == nil}, {"tests", t.Tests == nil}, {"tasks", t.Tasks == nil}} {
		if req.missing {
			errs = append(errs, req.name+": required")
		}
	}
	return errs
}

func (t *Template) checkSelector(p string, s Selector) []string {
	if errs := checkSelectorForm(p, s); len(errs) > 0 {
		return errs
	}
	if s.Class != "" {
		if _, ok := t.AddressClasses[s.Class]; !ok {
			return []string{fmt.Sprintf("%s.class: unknown address class %q", p, s.Class)}
		}
		return nil
	}
	a := t.Addresses[s.Name]
	if a == nil {
		return []string{fmt.Sprintf("%s.name: unknown address %q", p, s.Name)}
	}
	if s.Label != "" && !a.hasLabel(s.Label) {
		return []string{fmt.Sprintf("%s.label: address %q has no label %q (nor any of its remote-addresses)", p, s.Name, s.Label)}
	}
	return nil
}

// checkSelectorForm: a selector has a name or a class (the schema's oneOf). The names in
// excludes are not looked up: pSConfig's agent only compares them with the group's.
func checkSelectorForm(p string, s Selector) []string {
	switch {
	case s.Class != "" && (s.Name != "" || s.Label != ""):
		return []string{p + ": name or class, not both"}
	case s.Class == "" && s.Name == "":
		return []string{p + ".name: required"}
	}
	return nil
}

// hasLabel: the address or one of its remote-addresses entries has the label.
func (a *Address) hasLabel(label string) bool {
	if a.Labels[label] != nil {
		return true
	}
	for _, r := range a.RemoteAddresses {
		if r != nil && r.Labels[label] != nil {
			return true
		}
	}
	return false
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
