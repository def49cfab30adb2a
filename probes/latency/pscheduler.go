package latency

import (
	"encoding/json"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// maxPSLatency bounds one message: a latency run with output-raw carries every packet's
// timestamps (~200 bytes each); 16 MiB is some 80,000 packets.
const maxPSLatency = 16 << 20

// TestTypes are the pScheduler test types this package reads.
var TestTypes = []string{"latency", "latencybg"}

// ParsePScheduler imports a pScheduler archive message of a latency or latencybg test as one
// latency sample. src and dst are the direction the packets travelled: the test's source (or
// first participant) to its dest, swapped when the spec asks for the reverse direction. ts is
// schedule.start (for latencybg, pScheduler posts each of powstream's results as a run of its
// own, started when it was posted); the run id is the message's id.
func ParsePScheduler(input []byte, m probekit.Meta) ([]sample.Sample, error) {
	if err := probekit.CheckSize(input, maxPSLatency, "pScheduler run"); err != nil {
		return nil, err
	}
	return probekit.ParseArchive(input, m, FromArchive)
}

// FromArchive is ParsePScheduler of a message decoded already (probekit.ArchiveImporter).
func FromArchive(a *probekit.Archive, input []byte, m probekit.Meta) ([]sample.Sample, error) {
	if err := probekit.CheckSize(input, maxPSLatency, "pScheduler run"); err != nil {
		return nil, err
	}
	given := m.Src != "" || m.Dst != ""
	ts, err := a.Open(input, &m, TestTypes...)
	if err != nil {
		return nil, err
	}
	var spec psSpec
	if err := probekit.DecodeAt("test.spec", a.Test.Spec, &spec); err != nil {
		return nil, err
	}
	if spec.Reverse && !given {
		m.Src, m.Dst = m.Dst, m.Src
	}
	tool := a.Tool.Name
	if !tools[tool] {
		tool = "pscheduler"
	}
	l, err := build(a.Result, spec, m, ts, tool)
	if err != nil {
		return nil, err
	}
	if spec.Duration != "" {
		if s, err := probekit.ISODurationSeconds(spec.Duration); err == nil {
			l.DurationS = sample.F64(s)
		}
	}
	return []sample.Sample{l}, nil
}

// build decodes the result and makes its sample.
func build(raw json.RawMessage, spec psSpec, m probekit.Meta, ts int64, tool string) (*sample.Latency, error) {
	var res psResult
	if err := probekit.DecodeAt("result", raw, &res); err != nil {
		return nil, err
	}
	width, err := bucketWidthOf(spec)
	if err != nil {
		return nil, err
	}
	l := sample.NewLatency(m.Src, m.Dst, m.ProbeID, m.RunID, ts)
	l.Tool = tool
	if err := fill(l, res, width); err != nil {
		return nil, err
	}
	return l, nil
}
