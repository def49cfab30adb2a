package psconfig

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// filterMatches evaluates one filter of a class for the address named addrName, as pSConfig's
// address_classes/filters do: and (every filter; none: true), or (any; none: false), not (the
// opposite; no filter: true), address-class (that class matches; no class: true; an unknown
// one: false), tag (the address's tags or its host's, whatever the case; no tag: true), host
// (its hosts entry exists, has the tag if one is given, and its no-agent equals the filter's),
// ip-version and netmask (on an IP address as written). What cannot be known here is an
// error naming the filter: jq (not evaluated), and ip-version or netmask on a host name (the
// agent resolves it in DNS at the time it runs).
func (t *Template) filterMatches(f *Filter, p, addrName string, stack []string) (bool, error) {
	a := t.Addresses[addrName]
	switch f.Type {
	case "and":
		for i, sub := range f.Filters {
			ok, err := t.filterMatches(sub, fmt.Sprintf("%s.filters[%d]", p, i), addrName, stack)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case "or":
		for i, sub := range f.Filters {
			ok, err := t.filterMatches(sub, fmt.Sprintf("%s.filters[%d]", p, i), addrName, stack)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case "not":
		if f.Filter == nil {
			return true, nil
		}
		ok, err := t.filterMatches(f.Filter, p+".filter", addrName, stack)
		return !ok, err
	case "address-class":
		return t.classFilter(f, p, addrName, stack)
	case "tag":
		return f.Tag == "" || hasTag(a.Tags, f.Tag) || t.Hosts[a.Host] != nil && hasTag(t.Hosts[a.Host].Tags, f.Tag), nil
	case "host":
		return t.hostFilter(f, p, a)
	case "ip-version":
		ip, err := literalIP(p, "ip-version", a.Address)
		if err != nil {
			return false, err
		}
		return f.IPVersion == 4 && ip.Is4() || f.IPVersion == 6 && ip.Is6(), nil
	case "netmask":
		ip, err := literalIP(p, "netmask", a.Address)
		if err != nil {
			return false, err
		}
		pfx, err := netip.ParsePrefix(f.Netmask)
		if err != nil {
			return false, fmt.Errorf("%s.netmask: %q is not a network (CIDR)", p, f.Netmask)
		}
		return pfx.Contains(ip), nil
	case "jq":
		return false, fmt.Errorf("%s: a jq filter: jq is not evaluated by Longhaul", p)
	}
	return false, fmt.Errorf("%s.type: unknown filter type %q", p, f.Type)
}

// classFilter is the address-class filter: whether the named class matches the address.
func (t *Template) classFilter(f *Filter, p, addrName string, stack []string) (bool, error) {
	if f.Class == "" {
		return true, nil
	}
	c := t.AddressClasses[f.Class]
	if c == nil {
		return false, nil
	}
	if slices.Contains(stack, f.Class) {
		return false, fmt.Errorf("%s.class: %q refers back to itself (%s)", p, f.Class, strings.Join(append(stack, f.Class), " → "))
	}
	return t.classMatches(c, addrName, append(stack[:len(stack):len(stack)], f.Class))
}

// hostFilter is the host filter: the address's hosts entry, its tags and no-agent.
func (t *Template) hostFilter(f *Filter, p string, a *Address) (bool, error) {
	h := t.Hosts[a.Host]
	if h == nil {
		return false, nil
	}
	if f.Tag != "" && !hasTag(h.Tags, f.Tag) {
		return false, nil
	}
	if f.NoAgent != h.NoAgent {
		return false, nil
	}
	if len(f.JQ) > 0 {
		return false, fmt.Errorf("%s.jq: a host filter with jq: jq is not evaluated by Longhaul", p)
	}
	return true, nil
}

func hasTag(tags []string, tag string) bool {
	for _, x := range tags {
		if strings.EqualFold(x, tag) {
			return true
		}
	}
	return false
}

// literalIP is the address as an IP; a host name is an error: pSConfig resolves it in DNS
// when its agent runs, which a plan cannot repeat.
func literalIP(p, filter, addr string) (netip.Addr, error) {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return ip, fmt.Errorf("%s: the %s filter on the host name %q: pSConfig's agent resolves it in DNS where it runs; not evaluated", p, filter, addr)
	}
	return ip, nil
}
