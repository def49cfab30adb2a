package psconfig

import (
	"fmt"
	"strings"
)

// GroupAddresses is what a group's tests run between: the addresses (as the tools use them, and
// as results name their src and dst) of every pair it makes, the disabled ones left out, sorted.
// A mesh of pSConfig is such a group; no sample carries it, so its addresses stand for it (the
// operator's report, `longhaul report --mesh`). An error names the template's groups when it has
// none of that name.
func (t *Template) GroupAddresses(group string) ([]string, error) {
	g := t.Groups[group]
	if g == nil {
		return nil, fmt.Errorf("no group %q in the template (its groups: %s)", group, strings.Join(keys(t.Groups), ", "))
	}
	seen := map[string]bool{}
	for _, pair := range t.pairs(g) {
		for _, e := range pair {
			if !e.Disabled {
				seen[e.Address] = true
			}
		}
	}
	return keys(seen), nil
}
