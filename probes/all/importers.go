package all

import (
	"fmt"
	"sort"

	"longhaul/ingest/sample"
	"longhaul/probes/path"
	"longhaul/probes/probekit"
	"longhaul/probes/rtt"
	"longhaul/probes/throughput"
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

// Streamer parses like an Importer but hands the samples to emit one at a time, once the whole
// input has been checked: a parse error comes before the first sample. For the outputs that
// can be long (an iperf 2 server's log of days of -i 1 intervals), so that their samples are
// never all held at once.
type Streamer func(input []byte, m probekit.Meta, emit func(sample.Sample) error) error

// Streamers are the importers that stream, by tool name; the others are streamed from the
// slice their Importer returns (Stream).
var Streamers = map[string]Streamer{
	"iperf2": throughput.EachIperf2,
}

// Stream runs the tool's Streamer, or its Importer and hands on what it returns.
func Stream(tool string, input []byte, m probekit.Meta, emit func(sample.Sample) error) error {
	if s, ok := Streamers[tool]; ok {
		return s(input, m, emit)
	}
	parse, ok := Importers[tool]
	if !ok {
		return fmt.Errorf("no importer for %q", tool)
	}
	ss, err := parse(input, m)
	if err != nil {
		return err
	}
	for _, s := range ss {
		if err := emit(s); err != nil {
			return err
		}
	}
	return nil
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
