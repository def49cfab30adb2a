package agent

import (
	"context"
	"fmt"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// The "synthetic" kind is a test fixture: it emits throughput samples without running a tool
// (interval rows and a summary per run) and records every sample it emitted in a ledger, so
// tests can check that each one reached Kafka.
type synthetic struct {
	Intervals int           `yaml:"intervals"`
	Excl      bool          `yaml:"exclusive"`
	Duration  time.Duration `yaml:"duration"` // how long a run takes (real time)
	// Needs names programs, as a real kind's runs would execute, for the admission check.
	Needs []string `yaml:"tools"`
}

func (p *synthetic) Tools() []probe.Tool {
	var out []probe.Tool
	for _, t := range p.Needs {
		out = append(out, probe.Tool{Name: t, Without: probe.WithoutIt})
	}
	return out
}

func init() {
	probe.Register(probe.Registration{Kind: "synthetic", New: func(params *yaml.Node, _ probe.Exec) (probe.Probe, error) {
		p := &synthetic{Intervals: 3}
		if err := params.Decode(p); err != nil {
			return nil, err
		}
		return p, nil
	}})
}

func (p *synthetic) Exclusive() bool        { return p.Excl }
func (p *synthetic) Timeout() time.Duration { return time.Minute }

func (p *synthetic) Run(ctx context.Context, job probe.Job) []sample.Sample {
	if p.Duration > 0 {
		select {
		case <-time.After(p.Duration):
		case <-ctx.Done():
		}
	}
	ts := job.Start.UnixMilli()
	var out []sample.Sample
	for i := 0; i < p.Intervals; i++ {
		s := sample.NewThroughput(job.Src, job.Dst, job.ProbeID, job.RunID, sample.RecordInterval, ts+int64(i+1)*1000)
		s.Tool, s.Protocol = "iperf3", "tcp"
		s.StartS, s.EndS = sample.F64(float64(i)), sample.F64(float64(i+1))
		s.Bytes, s.BitsPerSecond = sample.I64(117_500_000), sample.F64(9.4e8+float64(i))
		out = append(out, s)
	}
	sum := sample.NewThroughput(job.Src, job.Dst, job.ProbeID, job.RunID, sample.RecordSummary, ts)
	sum.Tool, sum.Protocol, sum.Target = "iperf3", "tcp", &job.Target
	sum.DurationS, sum.BitsPerSecond = sample.F64(float64(p.Intervals)), sample.F64(9.4e8)
	out = append(out, sum)
	emitted.add(out)
	return out
}

// ledger is every sample the synthetic probes emitted, by identity.
type ledger struct {
	mu  sync.Mutex
	ids map[string]bool
}

var emitted = &ledger{ids: map[string]bool{}}

// sampleID identifies a synthetic sample: run, record kind and interval end.
func sampleID(s *sample.Throughput) string {
	end := -1.0
	if s.EndS != nil {
		end = *s.EndS
	}
	return fmt.Sprintf("%s/%s/%g", s.RunID, s.Record, end)
}

func (l *ledger) add(ss []sample.Sample) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range ss {
		l.ids[sampleID(s.(*sample.Throughput))] = true
	}
}

func (l *ledger) snapshot() map[string]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]bool, len(l.ids))
	for k := range l.ids {
		out[k] = true
	}
	return out
}

func (l *ledger) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids = map[string]bool{}
}
