package probekit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// JobMeta is the parser context of a job's run; a job without a start starts now.
func JobMeta(job probe.Job, now func() time.Time) Meta {
	m := Meta{Src: job.Src, Dst: job.Dst, ProbeID: job.ProbeID, RunID: job.RunID, Target: job.Target, Start: job.Start}
	if m.Start.IsZero() {
		m.Start = now()
	}
	return m
}

// ToolRun is one run of a probe's tool whose text output the probe parses (ping, traceroute).
type ToolRun struct {
	ctx            context.Context
	tool           string
	Stdout, Stderr []byte
	Err            error // what running the tool returned
}

// RunTool runs argv, tool's command line, with exec.
func RunTool(ctx context.Context, exec probe.Exec, tool string, argv []string) ToolRun {
	stdout, stderr, err := exec(ctx, argv)
	return ToolRun{ctx: ctx, tool: tool, Stdout: stdout, Stderr: stderr, Err: err}
}

// Failure explains the run from how it ended (ExecFailure), for output that says nothing better.
func (r ToolRun) Failure() *sample.RunError { return ExecFailure(r.ctx, r.tool, r.Err, r.Stderr) }

// Parse parses what the tool printed, stdout then stderr. When there is nothing to parse it
// returns why instead: a run that printed nothing fails as Failure says; output parse refuses
// fails as Failure says when the tool exited non-zero for a reason other than tool_failed,
// else as tool_failed naming the parse error.
func (r ToolRun) Parse(parse func(out []byte) ([]sample.Sample, error)) ([]sample.Sample, *sample.RunError) {
	out := append(append(append([]byte{}, r.Stdout...), '\n'), r.Stderr...)
	if len(strings.TrimSpace(string(out))) == 0 {
		return nil, r.Failure()
	}
	ss, err := parse(out)
	if err != nil {
		e := r.Failure()
		if r.Err == nil || e.Class == sample.ErrToolFailed {
			e = &sample.RunError{Class: sample.ErrToolFailed, Message: Message(fmt.Sprintf("unparseable %s output: %v", r.tool, err))}
		}
		return nil, e
	}
	return ss, nil
}

// Interrupted says whether the run ended because its context did (timeout or shutdown).
func (r ToolRun) Interrupted() bool { return r.ctx.Err() != nil }
