package config

import (
	"fmt"

	"longhaul/probes/probe"
)

// validateScreens checks each probe's `screens`: a throughput probe may screen another throughput
// probe of the file that screens nothing itself, and only on targets that probe runs against (a
// low burst elsewhere would have no run to ask for).
func validateScreens(l *errorList, ps []Probe) {
	byID := map[string]*Probe{}
	for i := range ps {
		byID[ps[i].ID] = &ps[i]
	}
	for i := range ps {
		p := &ps[i]
		if p.Screens == "" {
			continue
		}
		path := fmt.Sprintf("probes[%d].screens", i)
		full, ok := byID[p.Screens]
		switch {
		case p.Kind != probe.KindThroughput:
			l.at(path, "only a %s probe can be a screening burst (this one is %s)", probe.KindThroughput, p.Kind)
		case !ok:
			l.at(path, "unknown probe %q", p.Screens)
		case full == p:
			l.at(path, "a probe cannot screen itself")
		case full.Kind != probe.KindThroughput:
			l.at(path, "probe %q is %s, not %s", p.Screens, full.Kind, probe.KindThroughput)
		case full.Screens != "":
			l.at(path, "probe %q is itself a screening burst (for %q)", p.Screens, full.Screens)
		default:
			if t := targetNotIn(p.Targets, full.Targets); t != "" {
				l.at(path, "target %s is not a target of probe %q: a low burst there would have no run to ask for", t, p.Screens)
			}
		}
	}
}

// targetNotIn names a target of sel that other does not select ("all" when sel is every target
// and other is not), or "". Defaults are applied: a probe without targets has All.
func targetNotIn(sel, other TargetSel) string {
	if other.All {
		return ""
	}
	if sel.All {
		return `"all"`
	}
	in := map[string]bool{}
	for _, n := range other.Names {
		in[n] = true
	}
	for _, n := range sel.Names {
		if !in[n] {
			return fmt.Sprintf("%q", n)
		}
	}
	return ""
}
