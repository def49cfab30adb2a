package psconfig

import (
	"fmt"
	"regexp"
)

// nameRE is the schema's pattern for names (NameType, and the keys of its patternProperties).
var nameRE = regexp.MustCompile(`^[a-zA-Z0-9:._\-]+$`)

// schemaChecked says whether pSConfig's JSON schema checks the object of this name. Its maps
// of named objects (addresses, groups, tests, tasks, …) give the pattern as patternProperties
// without additionalProperties false, so an object whose name does not match ("OPN IPv4
// Bandwidth Testspec", as psconfig-web writes them) is accepted and not checked by the schema;
// perfSONAR's agent uses it like any other. The maps inside an address (labels,
// remote-addresses) are closed: their names must match.
func schemaChecked(name string) bool { return nameRE.MatchString(name) }

// checkNames applies the schema's name rules: label and remote-address names always, and in
// an object the schema checks, the names it refers to (a task's group, test, schedule and
// archives; a selector's name, label and class; an address's host and contexts).
func (t *Template) checkNames() []string {
	var errs []string
	ref := func(path, name string) {
		if name != "" && !nameRE.MatchString(name) {
			errs = append(errs, fmt.Sprintf("%s: %q: a name referred to here must be letters, digits and : . _ - only", path, name))
		}
	}
	key := func(path, name string) {
		if !nameRE.MatchString(name) {
			errs = append(errs, fmt.Sprintf("%s: name %q: letters, digits and : . _ - only", path, name))
		}
	}
	for _, name := range keys(t.Addresses) {
		a := t.Addresses[name]
		if a == nil {
			continue
		}
		p := "addresses." + name
		for _, l := range keys(a.Labels) {
			key(p+".labels", l)
		}
		for _, r := range keys(a.RemoteAddresses) {
			key(p+".remote-addresses", r)
			if ra := a.RemoteAddresses[r]; ra != nil {
				for _, l := range keys(ra.Labels) {
					key(p+".remote-addresses."+r+".labels", l)
				}
			}
		}
		if !schemaChecked(name) {
			continue
		}
		ref(p+".host", a.Host)
		for i, c := range a.Contexts {
			ref(fmt.Sprintf("%s.contexts[%d]", p, i), c)
		}
	}
	for _, name := range keys(t.Groups) {
		if g := t.Groups[name]; g != nil && schemaChecked(name) {
			for _, s := range g.selectors("groups." + name) {
				ref(s.path, s.sel.Name)
				ref(s.path, s.sel.Label)
				ref(s.path, s.sel.Class)
			}
		}
	}
	for _, name := range keys(t.Tasks) {
		k := t.Tasks[name]
		if k == nil || !schemaChecked(name) {
			continue
		}
		p := "tasks." + name
		ref(p+".group", k.Group)
		ref(p+".test", k.Test)
		ref(p+".schedule", k.Schedule)
		for i, a := range k.Archives {
			ref(fmt.Sprintf("%s.archives[%d]", p, i), a)
		}
	}
	return errs
}

// pathSelector is a selector of a group with its field path.
type pathSelector struct {
	path string
	sel  Selector
}

// selectors are every selector of the group (whose path is p): its addresses and its excludes'.
func (g *Group) selectors(p string) []pathSelector {
	out := g.addressSelectors(p)
	for i, e := range g.Excludes {
		out = append(out, pathSelector{fmt.Sprintf("%s.excludes[%d].local-address", p, i), e.LocalAddress})
		for j, s := range e.TargetAddresses {
			out = append(out, pathSelector{fmt.Sprintf("%s.excludes[%d].target-addresses[%d]", p, i, j), s})
		}
	}
	return out
}

// addressSelectors are the selectors of the group's address lists (not its excludes').
func (g *Group) addressSelectors(p string) []pathSelector {
	var out []pathSelector
	for _, f := range []struct {
		field string
		sels  []Selector
	}{{"addresses", g.Addresses}, {"a-addresses", g.AAddresses}, {"b-addresses", g.BAddresses}} {
		for i, s := range f.sels {
			out = append(out, pathSelector{fmt.Sprintf("%s.%s[%d]", p, f.field, i), s})
		}
	}
	return out
}
