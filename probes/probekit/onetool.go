package probekit

import (
	"context"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// OneTool is a probe kind whose run is one run of one tool, light on the path (not exclusive),
// whose text output makes one sample of type S: the path kind's traceroute, the rtt kind's ping.
// A kind sets the hooks; OneTool does the rest the same way for each.
type OneTool[S sample.Sample] struct {
	Tool   string // the program, looked up on PATH
	Exec   probe.Exec
	Now    func() time.Time
	Limit  time.Duration                                     // the worst case of a run
	Argv   func(target string) ([]string, error)             // the tool's command line, or why none
	Parse  func(out []byte, m Meta) ([]sample.Sample, error) // the tool's output into its sample
	Failed func(m Meta, e *sample.RunError) S                // the sample of a run that measured nothing
	Finish func(run ToolRun, s S)                            // what the run's own ending adds to a parsed sample
}

// Tools is the one tool, needed on PATH.
func (o *OneTool[S]) Tools() []probe.Tool {
	return []probe.Tool{{Name: o.Tool, Without: probe.WithoutIt}}
}

// Exclusive is false: such a run is a trickle of packets.
func (o *OneTool[S]) Exclusive() bool { return false }

// Timeout is the worst case of a run.
func (o *OneTool[S]) Timeout() time.Duration { return o.Limit }

// Run runs the tool towards the job's target; it always returns one sample, carrying the error
// when the tool could not run or said nothing parseable.
func (o *OneTool[S]) Run(ctx context.Context, job probe.Job) []sample.Sample {
	m := JobMeta(job, o.Now)
	argv, err := o.Argv(job.Target)
	if err != nil {
		return []sample.Sample{o.Failed(m, &sample.RunError{Class: sample.ErrNotStarted, Message: err.Error()})}
	}
	run := RunTool(ctx, o.Exec, o.Tool, argv)
	ss, e := run.Parse(func(out []byte) ([]sample.Sample, error) { return o.Parse(out, m) })
	if e != nil {
		return []sample.Sample{o.Failed(m, e)}
	}
	o.Finish(run, ss[0].(S))
	return ss
}
