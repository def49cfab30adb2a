// Package probe is the contract between the agent and the probes: a probe turns one Job into
// samples; the agent schedules jobs and publishes what they return. Each probe kind lives in
// its own folder under probes/ and registers a Factory here.
package probe

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/ingest/sample"
)

// Job is one run of a probe against one target.
type Job struct {
	Src     string    // this host's name in the mesh (the link's src)
	Dst     string    // the target's name in the mesh (the link's dst)
	Target  string    // address or hostname the tool is pointed at
	ProbeID string    // the probe's id from the config
	RunID   string    // unique per run; shared by every sample of the run
	Start   time.Time // when the run starts (event time of summaries)
	// Labels of the probe from its plan (pSConfig display names), put on every sample of the
	// run that carries labels when the agent spools it.
	Labels sample.Labels
	// Screens is the throughput probe this run is a screening burst for (config `screens`); every
	// sample of the run that can carry it does.
	Screens string
	// RequestID is the probe request this run answers (a run the Flink job asked for); every
	// sample of the run that can carry it does.
	RequestID string
}

// Probe runs one kind of measurement. Run never returns an empty result for a run that was
// attempted: a failed run still yields a sample carrying the error class and message.
type Probe interface {
	Run(ctx context.Context, job Job) []sample.Sample
	// Exclusive probes (throughput) never overlap another exclusive run from this host or,
	// when the target is shared, on the same target.
	Exclusive() bool
	// Timeout bounds one run; the scheduler cancels the context after it.
	Timeout() time.Duration
}

// Factory builds a probe from the `params` node of its config entry. Errors should name the
// field; the config loader adds file and line.
type Factory func(params *yaml.Node, exec Exec) (Probe, error)

// Decoded is the Factory of a kind whose params decode on their own: decode's error, or the
// probe build makes of the params.
func Decoded[P any](decode func(*yaml.Node) (P, error), build func(P, Exec) Probe) Factory {
	return func(node *yaml.Node, exec Exec) (Probe, error) {
		p, err := decode(node)
		if err != nil {
			return nil, err
		}
		return build(p, exec), nil
	}
}

// Exec runs a tool with an argument vector, never through a shell, and returns what it printed.
// Tests replace it with captured outputs.
type Exec func(ctx context.Context, argv []string) (stdout, stderr []byte, err error)

// Registration is what a probe kind registers: its name, its Factory and its sample config.
type Registration struct {
	Kind string
	New  Factory
	// SampleConfig returns the kind's entry of the sample config (its sample.yaml, embedded):
	// one item of `probes:`, indented by two spaces, with every param shown with its default,
	// commented, and the required ones set. `longhaul-probe config sample` prints it and the
	// kind's README shows it; tests check its defaults against the code.
	SampleConfig func() string
}

// ToolUser is implemented by probes that run programs. Tools names each one (argv[0] of
// their runs), so the agent can say up front that one is missing from PATH, and what that
// costs, rather than leave it to the runs.
type ToolUser interface {
	Tools() []Tool
}

// Tool is a program a probe's runs execute.
type Tool struct {
	Name string // looked up on PATH
	// Without says what becomes of the runs when it is missing: "every run fails with
	// tool_missing", "host snapshots carry no interface or MTU".
	Without string
}

// KindThroughput is the throughput kind's name (probes/throughput registers it): the one kind a
// probe may be a screening burst of, and be screened by (config `screens`).
const KindThroughput = "throughput"

// WithoutIt is what becomes of runs whose one tool is missing.
const WithoutIt = "every run fails with tool_missing"

var (
	mu       sync.RWMutex
	registry = map[string]Registration{}
)

// Register makes a probe kind available to configs. Called from the probe packages' init.
func Register(r Registration) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[r.Kind]; dup {
		panic(fmt.Sprintf("probe kind %q registered twice", r.Kind))
	}
	if r.New == nil {
		panic(fmt.Sprintf("probe kind %q registered without a Factory", r.Kind))
	}
	registry[r.Kind] = r
}

// Lookup returns the factory of a kind.
func Lookup(kind string) (Factory, bool) {
	mu.RLock()
	defer mu.RUnlock()
	r, ok := registry[kind]
	return r.New, ok
}

// SampleConfig returns a kind's sample config entry, "" for an unknown kind or one that has
// none (test kinds).
func SampleConfig(kind string) string {
	mu.RLock()
	defer mu.RUnlock()
	if r, ok := registry[kind]; ok && r.SampleConfig != nil {
		return r.SampleConfig()
	}
	return ""
}

// Kinds lists the registered kinds, sorted.
func Kinds() []string {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]string, 0, len(registry))
	for k := range registry {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
