package all

import (
	"fmt"
	"sort"
	"strings"

	"longhaul/collectors/probes/latency"
	"longhaul/collectors/probes/path"
	"longhaul/collectors/probes/probekit"
	"longhaul/collectors/probes/rtt"
	"longhaul/collectors/probes/throughput"
	"longhaul/ingest/sample"
)

// Importer parses one run's saved output into samples (`longhaul-probe parse --tool NAME`).
type Importer func(input []byte, m probekit.Meta) ([]sample.Sample, error)

// Importers are the parsers of saved outputs, by tool name.
var Importers = map[string]Importer{
	"iperf3": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return throughput.ParseIperf3(in, m, throughput.Requested{})
	},
	"iperf2": throughput.ParseIperf2,
	"traceroute": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return path.ParseTraceroute(in, m, path.Requested{})
	},
	"tracepath": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return path.ParseTracepath(in, m, path.Requested{})
	},
	"mtr": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return path.ParseMtr(in, m, path.Requested{})
	},
	"ping": func(in []byte, m probekit.Meta) ([]sample.Sample, error) {
		return rtt.ParsePing(in, m, rtt.Requested{})
	},
	"pscheduler": ParsePScheduler,
}

// ImporterNames lists the importers' tool names, sorted.
func ImporterNames() []string {
	out := make([]string, 0, len(Importers))
	for k := range Importers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ParsePScheduler picks the importer from the archive message's test type.
func ParsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	// a bare result (`pscheduler result` JSON: no test, tool or schedule), ends from the command line
	if typ, bare := probekit.BareResult(input); bare {
		switch typ {
		case "throughput":
			return throughput.ParsePScheduler(input, m)
		case "latency":
			return latency.ParseBare(input, m)
		}
		return nil, fmt.Errorf("a bare %s result: only bare throughput and latency results can be imported; give the archived message (with test, tool and participants)", bareName(typ))
	}
	a, err := probekit.DecodeArchive(input)
	if err != nil {
		return nil, err
	}
	switch a.Test.Type {
	case "throughput":
		return throughput.ParsePScheduler(input, m)
	case "trace":
		return path.ParsePScheduler(input, m)
	case "rtt":
		return rtt.ParsePScheduler(input, m)
	case "latency", "latencybg":
		return latency.ParsePScheduler(input, m)
	}
	return nil, probekit.PathError("test.type", "%q: only throughput, trace, rtt, latency and latencybg results can be imported", probekit.Snippet(strings.TrimSpace(a.Test.Type)))
}

func bareName(typ string) string {
	if typ == "" {
		return "pScheduler"
	}
	return typ
}
