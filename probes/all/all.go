// Package all registers every probe kind: import it for its side effect where probes are
// built from a config (longhaul-probe's main).
//
//	import _ "longhaul/probes/all"
package all

import (
	_ "longhaul/probes/host"       // "host": TCP tuning snapshot
	_ "longhaul/probes/path"       // "path": traceroute with a fixed flow
	_ "longhaul/probes/rtt"        // "rtt": ping
	_ "longhaul/probes/sweep"      // "sweep": throughput over windows × streams
	_ "longhaul/probes/throughput" // "throughput": iperf3
)
