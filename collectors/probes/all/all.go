// Package all registers every probe kind: import it for its side effect where probes are
// built from a config (longhaul-probe's main).
//
//	import _ "longhaul/collectors/probes/all"
package all

import (
	_ "longhaul/collectors/probes/host"       // "host": TCP tuning snapshot
	_ "longhaul/collectors/probes/path"       // "path": traceroute with a fixed flow
	_ "longhaul/collectors/probes/rtt"        // "rtt": ping
	_ "longhaul/collectors/probes/sweep"      // "sweep": throughput over windows × streams
	_ "longhaul/collectors/probes/throughput" // "throughput": iperf3
)
