package psbridge

import (
	"fmt"
	"slices"
	"strings"

	"longhaul/ingest/sample"
)

// Hosts says which hosts each identity may report for (pscheduler_bridge.hosts, whose doc names
// the identities: config.PSBridge). Nil: any identity for any host (the bridge's behaviour before
// host lists; the config says so at start).
type Hosts map[string][]string

// Refusal says why identity may not deliver a result of these samples, or "" when it may: every
// sample must have its src or its dst among the identity's hosts (a pScheduler host reports the
// tests it takes part in, as their source or their destination).
func (h Hosts) Refusal(identity string, samples []sample.Sample) string {
	if h == nil {
		return ""
	}
	allowed, ok := h[identity]
	if !ok {
		return fmt.Sprintf("pscheduler_host: %s has no host list on this bridge (pscheduler_bridge.hosts)", identity)
	}
	for _, s := range samples {
		head := s.Head()
		if !slices.Contains(allowed, head.Src) && !slices.Contains(allowed, head.Dst) {
			return fmt.Sprintf("pscheduler_host: a result of %s→%s from %s, which may report for %s only",
				head.Src, head.Dst, identity, strings.Join(allowed, ", "))
		}
	}
	return ""
}
