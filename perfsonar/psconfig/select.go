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

// selectAddress resolves what a selector chose (n: the address, its name and the label asked
// for) for a pair whose other side is the address named remote, as pSConfig's
// BaseGroup.select_address does: the label (or the group's default-address-label) in the
// remote-addresses entry for that peer; without a label, that entry's own address; an entry
// with only labels and not this one drops the pair; then the address's label (missing: the
// pair is dropped, nil); else the address itself. Disabled and no-agent are inherited from the
// address, the remote entry and the address's hosts entry; a selector's own disabled is not
// read by pSConfig's agent and is not here.
func (t *Template) selectAddress(n nla, remote, defaultLabel string) *endpoint {
	a := n.addr
	if a == nil {
		return nil
	}
	label := n.label
	if label == "" {
		label = defaultLabel
	}
	e := &endpoint{Name: n.name, Parent: a.Address, Host: a.Host, Disabled: a.Disabled, NoAgent: a.NoAgent, Meta: a.Meta}
	if h := t.Hosts[a.Host]; h != nil {
		e.Disabled = e.Disabled || h.Disabled
		e.NoAgent = e.NoAgent || h.NoAgent
	}
	if r := a.RemoteAddresses[remote]; r != nil && remote != "" {
		switch l := r.Labels[label]; {
		case label != "" && l != nil:
			return e.use(l.Address, l.PSchedulerAddress, l.LeadBindAddress, r.Disabled || l.Disabled, r.NoAgent || l.NoAgent, l.Meta)
		case label == "" && r.Address != "":
			return e.use(r.Address, r.PSchedulerAddress, r.LeadBindAddress, r.Disabled, r.NoAgent, r.Meta)
		case label != "" && r.Address == "":
			return nil
		}
	}
	if label != "" {
		l := a.Labels[label]
		if l == nil {
			return nil
		}
		return e.use(l.Address, l.PSchedulerAddress, l.LeadBindAddress, l.Disabled, l.NoAgent, l.Meta)
	}
	return e.use(a.Address, a.PSchedulerAddress, a.LeadBindAddress, false, false, nil)
}

// use sets the address the endpoint takes and what it inherits from the entry chosen.
func (e *endpoint) use(addr, psched, lead string, disabled, noAgent bool, meta Meta) *endpoint {
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

// is says whether addr (as a test spec or a person writes it) names this endpoint.
func (e *endpoint) is(addr string) bool {
	return addr != "" && (strings.EqualFold(addr, e.Address) || strings.EqualFold(addr, e.Parent) || strings.EqualFold(addr, e.PSched))
}

// matches says whether this endpoint is one of the host's own: by the address's name in the
// template or, as pSConfig's TaskGenerator._is_matching_address, by the address object's own
// address (for a label or a remote entry too: its parent's), whatever the case.
func (e *endpoint) matches(host []string) bool {
	for _, h := range host {
		if h == e.Name || strings.EqualFold(h, e.Parent) {
			return true
		}
	}
	return false
}

// Knows says whether host names at least one address of the template: its name or its
// address (what a plan matches).
func (t *Template) Knows(host []string) bool {
	for name, a := range t.Addresses {
		for _, h := range host {
			if h == name || strings.EqualFold(h, a.Address) {
				return true
			}
		}
	}
	return false
}

// AddressNames are the names of the template's addresses, sorted.
func (t *Template) AddressNames() []string { return keys(t.Addresses) }
