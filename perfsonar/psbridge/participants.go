package psbridge

import (
	"longhaul/probes/all"
	"longhaul/probes/probekit"
)

// Sides says which ends of a test's link run it: the hosts pScheduler makes its participants.
// Only a participant has the run, so only a participant's pScheduler can archive it (the task's
// archives on its lead, participant 0; the default archives on every participant).
type Sides struct {
	Source, Dest bool
}

// participants is pScheduler's participants rule for the archived test (each test type's in
// all.PSchedulerTests, read from its plugin's `participants` program: perfsonar/pscheduler,
// pscheduler-test-<type>/<type>/participants). A test type not listed runs at its source.
func participants(a *probekit.Archive) Sides {
	source, dest := all.Ends(a.Test.Type, a.Test.Spec)
	return Sides{Source: source, Dest: dest}
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
