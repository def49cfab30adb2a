package psbridge

import (
	"fmt"
	"slices"
	"strings"
)

// Hosts says which hosts each identity may report for (pscheduler_bridge.hosts, whose doc names
// the identities: config.PSBridge). Nil: any identity for any host (the bridge's behaviour before
// host lists; the config says so at start).
type Hosts map[string][]string

// Refusal says why identity may not deliver this converted result, or "" when it may: every
// sample's participating end (conv.Sides: its src when the source runs the test, its dst when
// the destination does) must be among the identity's hosts. A pScheduler host reports the tests
// it takes part in, and only those: a latency test's destination does not run it (unless
// flipped), so it cannot report it.
func (h Hosts) Refusal(identity string, conv Converted) string {
	if h == nil {
		return ""
	}
	allowed, ok := h[identity]
	if !ok {
		return fmt.Sprintf("pscheduler_host: %s has no host list on this bridge (pscheduler_bridge.hosts)", identity)
	}
	for _, s := range conv.Samples {
		head := s.Head()
		if !(conv.Sides.Source && slices.Contains(allowed, head.Src)) && !(conv.Sides.Dest && slices.Contains(allowed, head.Dst)) {
			return fmt.Sprintf("pscheduler_host: a result of %s→%s run by its %s, from %s, which may report for %s only",
				head.Src, head.Dst, conv.Sides, identity, strings.Join(allowed, ", "))
		}
	}
	return ""
}
