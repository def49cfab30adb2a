package psconfig

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probekit"
)

// Entry is one pair a host schedules: what `longhaul-probe plan` prints, one JSON object a
// line, and what the agent turns into a probe run. Src and Dst are the test's source and
// dest as written in the template (after its variables); a pair the host cannot run carries
// the reason in Unsupported and runs nothing.
type Entry struct {
	Task      string  `json:"task"`
	Test      string  `json:"test"` // the pSConfig test type
	Src       string  `json:"src"`
	Dst       string  `json:"dst"`
	Tool      string  `json:"tool"`
	IntervalS float64 `json:"interval_s"`
	SlipS     float64 `json:"slip_s"`
	Sliprand  bool    `json:"sliprand,omitempty"`
	// FromDest: this host is the test's dest and runs it from here towards the source (the
	// no-agent hand-over, or scheduled-by naming the dest): throughput with the far end
	// sending, rtt pinging the source.
	FromDest bool `json:"from_dest,omitempty"`
	// Reverse: iperf3 -R, the far end sends (FromDest, or the spec's reverse; not both).
	Reverse     bool          `json:"reverse,omitempty"`
	Labels      sample.Labels `json:"labels,omitempty"`          // what every sample of the pair carries
	LabelsLeft  []string      `json:"labels_left_out,omitempty"` // label keys the schemas do not take
	SpecIgnored []string      `json:"spec_ignored,omitempty"`    // spec fields Longhaul's probe does not apply
	// MeasuredBy: "pscheduler" for a test pScheduler measures and the agent does not (latency
	// and latencybg: owamp); its results reach Longhaul through the pScheduler bridge.
	MeasuredBy  string `json:"measured_by,omitempty"`
	Unsupported string `json:"unsupported,omitempty"`

	Kind   string            `json:"-"` // the Longhaul probe kind
	Target string            `json:"-"` // the address the probe is pointed at (Dst, or Src when run from the dest)
	Params map[string]string `json:"-"` // the kind's params carried over from the spec
}

// Interval and Slip as durations.
func (e Entry) Interval() time.Duration { return time.Duration(e.IntervalS * float64(time.Second)) }

// Slip is the window a run may start in.
func (e Entry) Slip() time.Duration { return time.Duration(e.SlipS * float64(time.Second)) }

// JSON is the entry as `plan` prints it.
func (e Entry) JSON() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// Plan is what the host whose addresses are host (names of addresses in the template, or
// addresses as written) schedules: every task's pairs whose scheduler is one of them, in task
// order, then source and dest. Disabled tasks and pairs with a disabled address are not
// planned (the template says not to); everything else is, run or with its reason.
func (t *Template) Plan(host []string) []Entry {
	var out []Entry
	for _, name := range keys(t.Tasks) {
		k := t.Tasks[name]
		if k.Disabled {
			continue
		}
		test, g := t.Tests[k.Test], t.Groups[k.Group]
		pairs := t.pairs(g)
		if len(pairs) > 0 && k.scheduledBy() >= len(pairs[0]) {
			continue // pSConfig's agent creates nothing from the task (see Warnings)
		}
		var mine []Entry
		for _, pair := range pairs {
			if e, ok := t.entry(name, k, test, pair, host); ok {
				mine = append(mine, e)
			}
		}
		sort.SliceStable(mine, func(i, j int) bool {
			if mine[i].Src != mine[j].Src {
				return mine[i].Src < mine[j].Src
			}
			return mine[i].Dst < mine[j].Dst
		})
		out = append(out, mine...)
	}
	return out
}

// scheduledBy is the index of the scheduling address in a pair (default 0).
func (k *Task) scheduledBy() int {
	if k.ScheduledBy == nil {
		return 0
	}
	return *k.ScheduledBy
}

// scheduler is the pair's scheduling address: addrs[scheduled-by]; when that one has no
// agent, the first address that has one, with flip set. None: nobody schedules it. The
// caller has checked that scheduled-by is within the pair.
func scheduler(k *Task, pair []*endpoint) (sched *endpoint, flip bool) {
	i := k.scheduledBy()
	if !pair[i].NoAgent {
		return pair[i], false
	}
	for _, e := range pair {
		if !e.NoAgent {
			return e, true
		}
	}
	return nil, true
}

// entry plans one pair for host: ok false when host does not schedule it.
func (t *Template) entry(name string, k *Task, test *Test, pair []*endpoint, host []string) (Entry, bool) {
	for _, e := range pair {
		if e.Disabled {
			return Entry{}, false
		}
	}
	sched, flip := scheduler(k, pair)
	if sched == nil || !sched.matches(host) {
		return Entry{}, false
	}
	v := vars{pair: pair, sched: sched, flip: flip}
	e := Entry{Task: name, Test: test.Type}
	e.Labels, e.LabelsLeft = sample.CleanLabels(t.labels(k, test, v))
	spec, err := v.expand(map[string]any(test.Spec))
	if err != nil {
		e.Unsupported = "spec: " + err.Error()
		return e, true
	}
	specMap := spec.(map[string]any)
	e.Src, _ = specMap["source"].(string)
	if e.Src == "" { // pScheduler: the source defaults to the host the task is given to
		e.Src = sched.Address
	}
	e.Dst, _ = specMap["dest"].(string)
	if by := measuredBy(e.Test); by != "" {
		e.MeasuredBy = by
		return e, true
	}
	if _, ok := runners[e.Test]; !ok {
		e.Unsupported = notRun(e.Test)
		return e, true
	}
	e.Unsupported = t.schedule(&e, k, specMap)
	if e.Unsupported != "" {
		return e, true
	}
	e.Unsupported = e.orient(specMap, sched, k)
	return e, true
}

// schedule fills the interval and slip; a reason if there is no repeat.
func (t *Template) schedule(e *Entry, k *Task, spec map[string]any) string {
	s := t.Schedules[k.Schedule]
	if s == nil || s.Repeat == "" {
		return "no schedule repeat: pScheduler runs such a task once (or, latencybg, continuously); Longhaul runs probes every interval"
	}
	repeat, _ := ParseDuration(s.Repeat) // checked by Parse
	if repeat <= 0 {
		return "schedule repeat is zero"
	}
	var slip time.Duration
	if s.Slip != "" {
		slip, _ = ParseDuration(s.Slip)
	}
	// pScheduler cuts the slip to repeat − the run's duration, so runs never overlap.
	var dur time.Duration
	if d, ok := spec["duration"].(string); ok && e.Test == "throughput" {
		dur, _ = ParseDuration(d)
	}
	if limit := repeat - dur; slip > limit {
		slip = max(limit, 0)
	}
	e.IntervalS, e.SlipS, e.Sliprand = repeat.Seconds(), slip.Seconds(), s.Sliprand
	return ""
}

// orient decides how this host runs the test, or why it cannot: the tool, the kind, its
// target and params.
func (e *Entry) orient(spec map[string]any, sched *endpoint, k *Task) string {
	r := runners[e.Test]
	if len(k.Tools) > 0 && !contains(k.Tools, r.tool) {
		return fmt.Sprintf("the task asks for tools %s; Longhaul's %s probe runs %s", strings.Join(k.Tools, ", "), r.kind, r.tool)
	}
	if e.Dst == "" {
		return "the test's spec has no dest"
	}
	if strings.EqualFold(e.Src, e.Dst) {
		return fmt.Sprintf("source and dest are both %s", e.Src)
	}
	params, ignored, err := r.paramsOf(spec)
	if err != nil {
		return err.Error()
	}
	reverse, _ := spec["reverse"].(bool)
	switch {
	case sched.is(e.Src):
		e.Target = e.Dst
	case sched.is(e.Dst) && r.fromDest:
		// The source has no agent of ours: run it from here, the far end sending.
		e.Target, e.FromDest = e.Src, true
		if e.Test == "throughput" {
			reverse = !reverse
		}
	case sched.is(e.Dst):
		return fmt.Sprintf("this host is the %s's dest %s, and a %s runs only from its source %s: from here it would follow another path",
			e.Test, e.Dst, e.Test, e.Src)
	default:
		return fmt.Sprintf("this host (%s) is neither the test's source %s nor its dest %s", sched.Address, e.Src, e.Dst)
	}
	if msg := probekit.CheckAddress(e.Target); msg != "" {
		return fmt.Sprintf("address %q %s", e.Target, msg)
	}
	if e.Test == "throughput" {
		e.Reverse = reverse
		if reverse {
			params["reverse"] = "true"
		}
	}
	e.Kind, e.Tool, e.Params, e.SpecIgnored = r.kind, r.tool, params, ignored
	return ""
}

// labels are the display names of the task and its addresses, for people: the task's
// reference and _meta, the test's _meta, and the source's and dest's _meta as src.NAME and
// dst.NAME. Nested objects are left out; lists of scalars are joined with commas.
func (t *Template) labels(k *Task, test *Test, v vars) map[string]string {
	out := map[string]string{}
	add := func(prefix string, m map[string]any) {
		for key, val := range m {
			if s, ok := scalar(val); ok && key != "" {
				out[prefix+key] = s
			}
		}
	}
	add("", test.Meta)
	add("", k.Meta)
	if ref, err := v.expand(k.Reference); err == nil {
		if m, ok := ref.(map[string]any); ok {
			add("", m)
		}
	}
	names := []string{"src.", "dst."}
	for i, e := range v.pair {
		if i < len(names) {
			add(names[i], e.Meta)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool, float64:
		return fmt.Sprint(v), true
	case []any:
		parts := make([]string, 0, len(v))
		for _, x := range v {
			s, ok := scalar(x)
			if !ok {
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), true
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// Warnings are what the template asks for that no plan applies, one line each: includes not
// fetched (a template parsed alone) or not followed (an included document's own), where
// perfSONAR 5's agent stops, and schedule fields Longhaul does not honour. They concern
// every host.
func (t *Template) Warnings() []string {
	var out []string
	out = append(out, t.includeNotes...)
	if len(t.Includes) > 0 && !t.includesMerged {
		out = append(out, fmt.Sprintf("includes: %d URI(s) not fetched (%s): their tasks are not in the plan",
			len(t.Includes), strings.Join(t.Includes, ", ")))
	}
	out = append(out, t.agentWarnings()...)
	for _, name := range keys(t.Schedules) {
		s := t.Schedules[name]
		var f []string
		if s.Start != "" {
			f = append(f, "start")
		}
		if s.Until != "" {
			f = append(f, "until")
		}
		if s.MaxRuns > 0 {
			f = append(f, "max-runs")
		}
		if len(f) > 0 {
			out = append(out, fmt.Sprintf("schedules.%s: %s not applied: runs go on every repeat", name, strings.Join(f, ", ")))
		}
	}
	return out
}
