package psconfig

import "strings"

// endpoint is one side of a pair: the address chosen for it (the address object's own, a
// label's or a remote-address's) with the disabled and no-agent it inherits.
type endpoint struct {
	Name     string // the address object's name in the template
	Address  string // what the tools use, as written in the template
	Parent   string // the address object's own address (excludes-self compares these)
	Host     string // its hosts entry, if any
	PSched   string // pscheduler-address, else Address
	LeadBind string // lead-bind-address, else Address
	Disabled bool
	NoAgent  bool
	Meta     Meta
}

// selectAddress resolves a selector for a pair whose other side is named remote, as pSConfig
// does: the remote-addresses entry for that peer first (with the label, if one is asked for),
// then the label, then the address itself. A label the address does not have drops the pair
// (nil).
func (t *Template) selectAddress(s Selector, remote, defaultLabel string) *endpoint {
	a := t.Addresses[s.Name]
	if a == nil {
		return nil
	}
	label := s.Label
	if label == "" {
		label = defaultLabel
	}
	e := &endpoint{Name: s.Name, Parent: a.Address, Host: a.Host, Disabled: s.Disabled || a.Disabled, NoAgent: a.NoAgent,
		Meta: a.Meta}
	if h := t.Hosts[a.Host]; h != nil {
		e.Disabled = e.Disabled || h.Disabled
		e.NoAgent = e.NoAgent || h.NoAgent
	}
	use := func(addr, psched, lead string, disabled, noAgent bool, meta Meta) *endpoint {
		e.Address, e.PSched, e.LeadBind = addr, psched, lead
		e.Disabled = e.Disabled || disabled
		e.NoAgent = e.NoAgent || noAgent
		if len(meta) > 0 {
			merged := Meta{}
			for k, v := range e.Meta {
				merged[k] = v
			}
			for k, v := range meta {
				merged[k] = v
			}
			e.Meta = merged
		}
		if e.PSched == "" {
			e.PSched = e.Address
		}
		if e.LeadBind == "" {
			e.LeadBind = e.Address
		}
		return e
	}
	if r := a.RemoteAddresses[remote]; r != nil && remote != "" {
		if label != "" {
			l := r.Labels[label]
			if l == nil {
				return nil
			}
			return use(l.Address, l.PSchedulerAddress, l.LeadBindAddress, r.Disabled || l.Disabled, r.NoAgent || l.NoAgent, l.Meta)
		}
		if r.Address == "" {
			return nil
		}
		return use(r.Address, r.PSchedulerAddress, r.LeadBindAddress, r.Disabled, r.NoAgent, r.Meta)
	}
	if label != "" {
		l := a.Labels[label]
		if l == nil {
			return nil
		}
		return use(l.Address, l.PSchedulerAddress, l.LeadBindAddress, l.Disabled, l.NoAgent, l.Meta)
	}
	return use(a.Address, a.PSchedulerAddress, a.LeadBindAddress, false, false, nil)
}

// is says whether addr (as a test spec or a person writes it) names this endpoint.
func (e *endpoint) is(addr string) bool {
	return addr != "" && (strings.EqualFold(addr, e.Address) || strings.EqualFold(addr, e.Parent) || strings.EqualFold(addr, e.PSched))
}

// matches says whether this endpoint is one of the host's own: by the address's name in the
// template or by its address (the label's, or the address object's).
func (e *endpoint) matches(host []string) bool {
	for _, h := range host {
		if h == e.Name || e.is(h) {
			return true
		}
	}
	return false
}

// usesClasses says whether a group selects addresses by class (address-classes), which the
// plan does not expand.
func (g *Group) usesClasses() bool {
	for _, ss := range [][]Selector{g.Addresses, g.AAddresses, g.BAddresses} {
		for _, s := range ss {
			if s.Class != "" {
				return true
			}
		}
	}
	return false
}

// pairs expands a group into its address combinations, in pSConfig's order: mesh, every
// ordered pair of two different entries (a outer, b inner); disjoint, each a with each b,
// then each b with each a unless unidirectional; list, each address alone. Excluded pairs
// (excludes, excludes-self) and pairs whose label or remote address is missing are left out;
// disabled ones are kept, marked, for the caller to skip.
func (t *Template) pairs(g *Group) [][]*endpoint {
	var out [][]*endpoint
	pair := func(sa, sb Selector) {
		if g.excluded(sa, sb) {
			return
		}
		a := t.selectAddress(sa, sb.Name, g.DefaultAddressLabel)
		b := t.selectAddress(sb, sa.Name, g.DefaultAddressLabel)
		if a == nil || b == nil || g.excludedSelf(a, b) {
			return
		}
		out = append(out, []*endpoint{a, b})
	}
	switch g.Type {
	case GroupMesh:
		for i, sa := range g.Addresses {
			for j, sb := range g.Addresses {
				if i != j {
					pair(sa, sb)
				}
			}
		}
	case GroupDisjoint:
		for _, sa := range g.AAddresses {
			for _, sb := range g.BAddresses {
				pair(sa, sb)
			}
		}
		if !g.Unidirectional {
			for _, sb := range g.BAddresses {
				for _, sa := range g.AAddresses {
					pair(sb, sa)
				}
			}
		}
	case GroupList:
		for _, s := range g.Addresses {
			if a := t.selectAddress(s, "", g.DefaultAddressLabel); a != nil {
				out = append(out, []*endpoint{a})
			}
		}
	}
	return out
}

// excluded: an excludes entry names a as its local-address and b among its targets (one
// direction: b → a stays unless listed too). Selectors compare as written (name and label).
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
// hosts entry) or one address; address drops pairs on one address; disabled drops neither.
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

// Knows says whether host names at least one address of the template (its name, its address,
// a label's or a remote address's).
func (t *Template) Knows(host []string) bool {
	for name, a := range t.Addresses {
		cands := []string{a.Address, a.PSchedulerAddress}
		for _, l := range a.Labels {
			cands = append(cands, l.Address)
		}
		for _, r := range a.RemoteAddresses {
			cands = append(cands, r.Address)
			for _, l := range r.Labels {
				cands = append(cands, l.Address)
			}
		}
		for _, h := range host {
			if h == name {
				return true
			}
			for _, c := range cands {
				if c != "" && strings.EqualFold(c, h) {
					return true
				}
			}
		}
	}
	return false
}
