package psbridge

import (
	"encoding/json"

	"longhaul/probes/probekit"
)

// Sides says which ends of a test's link run it: the hosts pScheduler makes its participants.
// Only a participant has the run, so only a participant's pScheduler can archive it (the task's
// archives on its lead, participant 0; the default archives on every participant).
type Sides struct {
	Source, Dest bool
}

// participants is pScheduler's participants rule for each test type the bridge converts, read
// from the test plugins' `participants` programs (perfsonar/pscheduler,
// pscheduler-test-<type>/<type>/participants):
//
//	throughput         source; and dest, unless the spec has single-ended or loopback (present, whatever its value)
//	latency, latencybg dest when flip is true, else source (owping and powstream run on one side)
//	trace, rtt         source
//
// A test type not listed runs at its source.
func participants(a *probekit.Archive) Sides {
	var spec map[string]json.RawMessage
	_ = json.Unmarshal(a.Test.Spec, &spec) // a spec that is no object names no flags (Convert refuses it)
	switch a.Test.Type {
	case "throughput":
		_, single := spec["single-ended"]
		_, loop := spec["loopback"]
		return Sides{Source: true, Dest: !single && !loop}
	case "latency", "latencybg":
		var flip bool
		_ = json.Unmarshal(spec["flip"], &flip)
		return Sides{Source: !flip, Dest: flip}
	default:
		return Sides{Source: true}
	}
}

// String names the participating ends: "source", "destination" or "source and destination".
func (s Sides) String() string {
	switch {
	case s.Source && s.Dest:
		return "source and destination"
	case s.Dest:
		return "destination"
	default:
		return "source"
	}
}
