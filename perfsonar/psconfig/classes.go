package psconfig

import (
	"encoding/json"
	"fmt"
)

// AddressClass selects addresses by what they are rather than by name: those of its data
// source that its match-filter accepts and its exclude-filter does not.
type AddressClass struct {
	DataSource    *DataSource `json:"data-source"`
	MatchFilter   *Filter     `json:"match-filter"`
	ExcludeFilter *Filter     `json:"exclude-filter"`
	Meta          Meta        `json:"_meta"`
}

// DataSource is where a class takes its candidates: current-config (the template's
// addresses) or requesting-agent (the agent host's own addresses, which a planner cannot know).
type DataSource struct {
	Type string `json:"type"`
}

// Filter is one filter of a class, by type: and / or (filters), not (filter), address-class
// (class), tag (tag), host (tag, no-agent, jq), ip-version, netmask, jq.
type Filter struct {
	Type      string          `json:"type"`
	Filters   []*Filter       `json:"filters"`
	Filter    *Filter         `json:"filter"`
	Class     string          `json:"class"`
	Tag       string          `json:"tag"`
	NoAgent   bool            `json:"no-agent"`
	JQ        json.RawMessage `json:"jq"`
	IPVersion int             `json:"ip-version"`
	Netmask   string          `json:"netmask"`
	Meta      Meta            `json:"_meta"`
}

// classMembers are the addresses of class name, in name order, as pSConfig's
// AddressClass.select gives them (with no label). An error says why the class cannot be
// evaluated faithfully (a filter type or data source the planner cannot know), naming the
// field.
func (t *Template) classMembers(name string) ([]nla, error) {
	c := t.AddressClasses[name]
	p := "address-classes." + name
	if c == nil {
		return nil, fmt.Errorf("%s: unknown address class", p)
	}
	if c.DataSource == nil {
		return nil, fmt.Errorf("%s.data-source: required", p)
	}
	switch c.DataSource.Type {
	case "current-config":
	case "requesting-agent":
		return nil, fmt.Errorf("%s.data-source: requesting-agent: the addresses of the agent's own host are not in the template; not evaluated", p)
	default:
		return nil, fmt.Errorf("%s.data-source.type: %q (current-config or requesting-agent)", p, c.DataSource.Type)
	}
	var out []nla
	for _, n := range keys(t.Addresses) {
		ok, err := t.classMatches(c, n, []string{name})
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, nla{name: n, addr: t.Addresses[n]})
		}
	}
	return out, nil
}

// classMatches is AddressClass.matches: the match-filter (if any) accepts the address and the
// exclude-filter (if any) does not. stack is the classes being evaluated, to refuse a loop.
func (t *Template) classMatches(c *AddressClass, addrName string, stack []string) (bool, error) {
	p := "address-classes." + stack[len(stack)-1]
	if c.MatchFilter != nil {
		ok, err := t.filterMatches(c.MatchFilter, p+".match-filter", addrName, stack)
		if err != nil || !ok {
			return false, err
		}
	}
	if c.ExcludeFilter != nil {
		ok, err := t.filterMatches(c.ExcludeFilter, p+".exclude-filter", addrName, stack)
		return !ok, err
	}
	return true, nil
}
