// Package psbridge turns the results pScheduler's archivers deliver (the HTTP archiver's
// posts, the Kafka archiver's messages: the same JSON) into Longhaul samples, with the parsers
// of `longhaul-probe parse --tool pscheduler`, and remembers which results it has converted so
// an archiver's retry adds nothing. The agent (collectors/agent) serves and consumes them and
// spools the samples like its own.
package psbridge

import (
	"errors"

	"longhaul/ingest/sample"
	"longhaul/probes/all"
	"longhaul/probes/probekit"
)

// ProbeIDPrefix starts the probe_id of a converted result's samples: pscheduler-<test type>
// (pscheduler-throughput, pscheduler-trace, pscheduler-rtt, pscheduler-latency,
// pscheduler-latencybg), so a link measured both by an
// agent and by pScheduler keeps two baselines, one per probe.
const ProbeIDPrefix = "pscheduler-"

// Converted is one result as samples.
type Converted struct {
	// Key names the run: "pscheduler-<id>" from the result's id, else a hash of the message.
	// An archiver retrying a result sends the same id.
	Key     string
	Samples []sample.Sample
	// Sides are the ends of each sample's link that take part in the test (participants): a
	// pScheduler host may report the result only as one of them (Hosts.Refusal).
	Sides Sides
}

// ErrBare is a bare result (`pscheduler result` JSON): archivers always send the whole run.
var ErrBare = errors.New("a bare result (no test, tool or participants): archivers send the whole run; a saved bare throughput or latency result imports with longhaul-probe parse --tool pscheduler --src --dst")

// Convert parses an archived result; source and destination come from the result itself (the
// test's source, else its first participant; the test's dest). The error says what is wrong,
// quoting the field, and is bounded.
func Convert(body []byte) (Converted, error) {
	a, err := probekit.DecodeArchive(body) // once: the test's importer reads it decoded
	if err != nil {
		if _, bare := probekit.BareResult(body); bare {
			return Converted{}, ErrBare
		}
		return Converted{}, err
	}
	key := a.RunID(body)
	ss, err := all.ImportArchive(a, body, probekit.Meta{ProbeID: ProbeIDPrefix + a.Test.Type, RunID: key})
	if err != nil {
		return Converted{}, err
	}
	if len(ss) == 0 {
		return Converted{}, errors.New("the result gave no sample")
	}
	return Converted{Key: key, Samples: ss, Sides: participants(a)}, nil
}
