package psconfig

import "fmt"

// agentWarnings say where perfSONAR 5's agent does something other than its design with an
// enabled task, so that a plan that differs from what it creates says so: a scheduled-by past
// the group's addresses (its TaskGenerator stops the task: no run at all), and a group
// selecting addresses by a class that selects some (its Python port raises KeyError 'label' in
// BaseP2PGroup.select_addresses and FieldList.select_addresses, and the agent's run stops:
// the plan expands the class as perfSONAR 4's Perl agent did).
func (t *Template) agentWarnings() []string {
	var out []string
	for _, name := range keys(t.Tasks) {
		k := t.Tasks[name]
		if k.Disabled {
			continue
		}
		g := t.Groups[k.Group]
		pairs := t.pairs(g)
		if len(pairs) > 0 && k.scheduledBy() >= len(pairs[0]) {
			out = append(out, fmt.Sprintf("tasks.%s.scheduled-by: %d, but group %q gives %d address(es) a run: pSConfig's agent creates no run of this task",
				name, k.scheduledBy(), k.Group, len(pairs[0])))
		}
		for _, s := range g.addressSelectors("groups." + k.Group) {
			if s.sel.Class == "" {
				continue
			}
			if members, _ := t.classMembers(s.sel.Class); len(members) > 0 {
				out = append(out, fmt.Sprintf("%s.class: %q selects %d address(es): perfSONAR 5's agent (Python) stops on class selectors "+
					"(KeyError 'label'); the plan pairs them as perfSONAR 4's agent did", s.path, s.sel.Class, len(members)))
			}
		}
	}
	return out
}
