package psconfig

import "strings"

// nla is what a selector chose: an address of the template, its name, and the label asked
// for (pSConfig's name/label/address maps).
type nla struct {
	name, label string
	addr        *Address
}

// choose is what a selector selects: the address it names, or the members of its class.
func (t *Template) choose(s Selector) []nla {
	if s.Class != "" {
		members, _ := t.classMembers(s.Class) // evaluated without error by check
		return members
	}
	if a := t.Addresses[s.Name]; a != nil {
		return []nla{{name: s.Name, label: s.Label, addr: a}}
	}
	return nil
}

// pairs expands a group into its address combinations as pSConfig's groups iterate them
// (BaseGroup.next). mesh: every ordered pair of entries of its list, an entry with itself
// included (excludes-self is what drops a → a); disjoint: the pairs of its a and b lists
// merged, a → b, and b → a unless unidirectional, each pair of selectors once; list: each
// address alone. A pair of selectors listed in excludes is skipped; each selector then
// gives its addresses (a class several), and every combination whose label or remote
// address is missing, or that excludes-self drops, is left out. Disabled ones are kept,
// marked, for the caller to skip.
func (t *Template) pairs(g *Group) [][]*endpoint {
	var out [][]*endpoint
	switch g.Type {
	case GroupMesh:
		for _, sa := range g.Addresses {
			for _, sb := range g.Addresses {
				if !g.excluded(sa, sb) {
					out = append(out, t.combine(g, sa, sb)...)
				}
			}
		}
	case GroupDisjoint:
		for _, p := range g.disjointPairs() {
			out = append(out, t.combine(g, p[0], p[1])...)
		}
	case GroupList:
		for _, s := range g.Addresses {
			for _, n := range t.choose(s) {
				// pSConfig's list looks up the remote entry named after the address itself.
				if e := t.selectAddress(n, n.name, g.DefaultAddressLabel); e != nil {
					out = append(out, []*endpoint{e})
				}
			}
		}
	}
	return out
}

// disjointPairs are the selector pairs of a disjoint group, as Disjoint.is_excluded_selectors
// lets them through: over the merged list a-addresses + b-addresses, (x, y) with x in a and y
// in b, or (bidirectional) x in b and y in a; each (x, y) once; not in excludes.
func (g *Group) disjointPairs() [][2]Selector {
	merged := append(append([]Selector{}, g.AAddresses...), g.BAddresses...)
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, s := range g.AAddresses {
		inA[s.key()] = true
	}
	for _, s := range g.BAddresses {
		inB[s.key()] = true
	}
	seen := map[[2]string]bool{}
	var out [][2]Selector
	for _, x := range merged {
		for _, y := range merged {
			k := [2]string{x.key(), y.key()}
			if seen[k] || !(inA[k[0]] && inB[k[1]] || !g.Unidirectional && inA[k[1]] && inB[k[0]]) {
				continue
			}
			seen[k] = true
			if !g.excluded(x, y) {
				out = append(out, [2]Selector{x, y})
			}
		}
	}
	return out
}

// combine pairs every address sa selects with every address sb selects (BaseP2PGroup.
// select_addresses): each side resolved against the other's name, excludes-self applied.
func (t *Template) combine(g *Group, sa, sb Selector) [][]*endpoint {
	var out [][]*endpoint
	for _, na := range t.choose(sa) {
		for _, nb := range t.choose(sb) {
			a := t.selectAddress(na, nb.name, g.DefaultAddressLabel)
			b := t.selectAddress(nb, na.name, g.DefaultAddressLabel)
			if a == nil || b == nil || g.excludedSelf(a, b) {
				continue
			}
			out = append(out, []*endpoint{a, b})
		}
	}
	return out
}

// excluded: an excludes entry names a as its local-address and b among its targets (one
// direction: b → a stays unless listed too). Selectors compare as pSConfig compares them, by
// their content (name, label, class, disabled).
func (g *Group) excluded(a, b Selector) bool {
	for _, e := range g.Excludes {
		if e.LocalAddress.key() != a.key() {
			continue
		}
		for _, tgt := range e.TargetAddresses {
			if tgt.key() == b.key() {
				return true
			}
		}
	}
	return false
}

// excludedSelf applies excludes-self: host (the default) drops pairs on one host (the same
// hosts entry of the two address objects) or one address; address drops pairs on one
// address (the address objects' own, for labels and remote entries too); disabled drops
// neither.
func (g *Group) excludedSelf(a, b *endpoint) bool {
	scope := g.ExcludesSelf
	if scope == "" {
		scope = ExcludeSelfHost
	}
	if scope == ExcludeSelfHost && a.Host != "" && b.Host != "" && strings.EqualFold(a.Host, b.Host) {
		return true
	}
	if scope == ExcludeSelfHost || scope == ExcludeSelfAddress {
		return a.Parent != "" && a.Parent == b.Parent
	}
	return false
}
