// Package path is the "path" probe kind: Linux traceroute with a fixed flow, published as one
// path sample per run (every hop, every answer, `*`, ICMP annotations, whether the destination
// answered). It also imports traceroute text and pScheduler trace results for
// `longhaul-probe parse`.
package path

import (
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
	"longhaul/probes/probekit"
)

// Kind is the registry name.
const Kind = "path"

func init() {
	probe.Register(probe.Registration{Kind: Kind, New: Factory, SampleConfig: SampleConfig})
}

// Factory builds a path probe from its params.
var Factory = probe.Decoded(DecodeParams, func(p Params, exec probe.Exec) probe.Probe { return New(p, exec) })

// Probe runs traceroute.
type Probe = probekit.OneTool[*sample.Path]

// Tool is the program a path run executes, looked up on PATH.
const Tool = "traceroute"

// New is a path probe: it traces the path to the job's target and always returns one path
// sample, carrying the error when traceroute could not run (or ended badly after tracing).
func New(p Params, exec probe.Exec) *Probe {
	q := Requested{Queries: p.Queries, MaxTTL: p.MaxTTL}
	return &Probe{
		Tool: Tool, Exec: exec, Now: time.Now, Limit: p.Timeout(),
		Argv:   func(target string) ([]string, error) { return Argv(p, target) },
		Parse:  func(out []byte, m probekit.Meta) ([]sample.Sample, error) { return ParseTraceroute(out, m, q) },
		Failed: failed,
		Finish: func(run probekit.ToolRun, s *sample.Path) {
			if s.Error == nil && run.Err != nil {
				s.Error = run.Failure()
			}
		},
	}
}

// failed is the path sample of a run that traced nothing.
func failed(m probekit.Meta, e *sample.RunError) *sample.Path {
	p := sample.NewPath(m.Src, m.Dst, m.ProbeID, m.RunID, m.Start.UnixMilli())
	p.Tool = Tool
	if m.Target != "" {
		t := m.Target
		p.Target = &t
	}
	p.Error = e
	return p
}
