package psconfig

import "fmt"

// checkRefs finds the references pSConfig's Config.validate_refs refuses a template for and
// check does not look at itself: an address's contexts (its own, its labels', its remote
// entries' and their labels'), a host's archives and a task's archives. Each names the
// object and the field.
func (t *Template) checkRefs() []string {
	var errs []string
	ctx := func(p string, refs []string) {
		for i, c := range refs {
			if _, ok := t.Contexts[c]; !ok {
				errs = append(errs, fmt.Sprintf("%s.contexts[%d]: unknown context %q", p, i, c))
			}
		}
	}
	archives := func(p string, refs []string) {
		for i, a := range refs {
			if _, ok := t.Archives[a]; !ok {
				errs = append(errs, fmt.Sprintf("%s.archives[%d]: unknown archive %q", p, i, a))
			}
		}
	}
	for _, name := range keys(t.Addresses) {
		a := t.Addresses[name]
		if a == nil {
			continue
		}
		p := "addresses." + name
		ctx(p, a.Contexts)
		for _, l := range keys(a.Labels) {
			if a.Labels[l] != nil {
				ctx(p+".labels."+l, a.Labels[l].Contexts)
			}
		}
		for _, r := range keys(a.RemoteAddresses) {
			ra := a.RemoteAddresses[r]
			if ra == nil {
				continue
			}
			ctx(p+".remote-addresses."+r, ra.Contexts)
			for _, l := range keys(ra.Labels) {
				if ra.Labels[l] != nil {
					ctx(p+".remote-addresses."+r+".labels."+l, ra.Labels[l].Contexts)
				}
			}
		}
	}
	for _, name := range keys(t.Hosts) {
		if h := t.Hosts[name]; h != nil {
			archives("hosts."+name, h.Archives)
		}
	}
	for _, name := range keys(t.Tasks) {
		if k := t.Tasks[name]; k != nil {
			archives("tasks."+name, k.Archives)
		}
	}
	return errs
}

// checkClasses evaluates every class a group of an enabled task selects by, so that a class
// the planner cannot evaluate faithfully (a jq filter, ip-version or netmask on a host name,
// the requesting-agent data source) refuses the template, naming the filter, instead of
// being guessed at when the plan is made.
func (t *Template) checkClasses() []string {
	var errs []string
	seen := map[string]bool{}
	for _, name := range keys(t.Tasks) {
		k := t.Tasks[name]
		if k == nil || k.Disabled || t.Groups[k.Group] == nil {
			continue
		}
		for _, s := range t.Groups[k.Group].addressSelectors("groups." + k.Group) {
			c := s.sel.Class
			if c == "" || seen[c] || t.AddressClasses[c] == nil {
				continue
			}
			seen[c] = true
			if _, err := t.classMembers(c); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	return errs
}
