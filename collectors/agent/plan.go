package agent

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"longhaul/collectors/config"
	"longhaul/collectors/schedule"
	"longhaul/perfsonar/psconfig"
	"longhaul/probes/probe"
)

// planner keeps the part of the plan that comes from the pSConfig template: the entries this
// host schedules and the scheduler tasks of those it can run. A failed fetch or an invalid
// document leaves both as they were (the last good plan).
type planner struct {
	src    *psconfig.Source
	match  []string
	exec   probe.Exec
	taken  map[string]bool       // the config's own probe ids
	screen config.PSConfigScreen // a burst beside each TCP throughput pair, when its interval is set
	limits config.PSConfigLimits // what the template may make this host run

	mu      sync.Mutex
	entries []psconfig.Entry // as last applied; what could not be built carries its reason
	tasks   []schedule.Task
}

func newPlanner(cfg *config.Config, opt Options) *planner {
	pc := cfg.PSConfig
	p := &planner{
		src: psconfig.NewSource(pc.URL, psconfig.Options{CAFile: pc.CAFile, Timeout: pc.Timeout.D(),
			Client: opt.PSConfigClient, UserAgent: "longhaul-probe/" + opt.Version}),
		match:  pc.MatchAddresses,
		exec:   opt.Exec,
		taken:  map[string]bool{},
		screen: pc.Screen,
		limits: pc.Limits,
	}
	if len(p.match) == 0 {
		p.match = localAddresses(cfg.Src)
	}
	for _, pr := range cfg.Probes {
		p.taken[pr.ID] = true
	}
	return p
}

// localAddresses are what pSConfig's agent matches when not told: the host's names and the
// addresses of its interfaces; and src, Longhaul's name for it.
func localAddresses(src string) []string {
	out := []string{src}
	if h, err := os.Hostname(); err == nil {
		out = append(out, h)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() {
				out = append(out, ipn.IP.String())
			}
		}
	}
	return out
}

// load fetches the template once and, when it changed, plans again. changed says whether the
// tasks are new; err why the fetch or the document failed (the last good plan is kept).
func (p *planner) load(ctx context.Context) (changed bool, err error) {
	t, changed, err := p.src.Refresh(ctx)
	if !changed || t == nil {
		return false, err
	}
	entries := t.Plan(p.match)
	tasks := p.tasksOf(entries)
	p.mu.Lock()
	defer p.mu.Unlock()
	same := sameTasks(p.tasks, tasks)
	p.entries, p.tasks = entries, tasks
	return !same, nil
}

// current is the plan's tasks as last applied.
func (p *planner) current() []schedule.Task {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]schedule.Task(nil), p.tasks...)
}

// tasksOf builds a scheduler task for each entry this host can run. An entry whose probe
// cannot be built (its params, its id, its target) gets the reason in Unsupported.
func (p *planner) tasksOf(entries []psconfig.Entry) []schedule.Task {
	var out []schedule.Task
	seen := map[string]bool{}
	pairs := 0
	for i := range entries {
		e := &entries[i]
		if e.Unsupported != "" || e.MeasuredBy != "" {
			continue
		}
		if pairs++; pairs > p.limits.MaxPairs {
			e.Unsupported = fmt.Sprintf("the plan gives this host more than its psconfig.limits.max_pairs %d pairs", p.limits.MaxPairs)
			e.Kind, e.Tool = "", ""
			continue
		}
		id := ProbeIDOf(e.Task)
		if e.FromDest && e.Reverse {
			// The far end sending is another measurement than this host sending to it (a
			// mesh has both): its own probe id keeps both pairs, each with its own slots.
			id += ReverseSuffix
		}
		factory, ok := probe.Lookup(e.Kind)
		pr, err := probe.Probe(nil), error(nil)
		if ok {
			pr, err = factory(paramsNode(e.Params), p.exec)
		}
		switch {
		case !ok:
			e.Unsupported = fmt.Sprintf("probe kind %q is not built into this agent", e.Kind)
		case config.CheckProbeID(id) != "":
			e.Unsupported = "task name as probe id: " + config.CheckProbeID(id)
		case p.taken[id]:
			e.Unsupported = fmt.Sprintf("probe id %q is also a probe of the config file; rename one", id)
		case config.CheckName(e.Target) != "":
			e.Unsupported = "as a sample's dst: " + config.CheckName(e.Target)
		case seen[id+"|"+e.Target] && e.Kind == "rtt":
			e.Unsupported = fmt.Sprintf("already run: this task pings %s from here for another of its pairs, the same round trip", e.Target)
		case seen[id+"|"+e.Target]:
			e.Unsupported = fmt.Sprintf("already run: this task runs against %s from here for another of its pairs", e.Target)
		case err != nil:
			e.Unsupported = fmt.Sprintf("the spec does not make valid %s params: %v", e.Kind, err)
		default:
			e.Unsupported = p.beyondLimits(pr, e.Interval())
		}
		if e.Unsupported != "" {
			e.Kind, e.Tool = "", ""
			continue
		}
		seen[id+"|"+e.Target] = true
		interval, slip := e.Interval(), e.Slip()
		t := schedule.Task{ProbeID: id, Kind: e.Kind, Dst: e.Target, Address: e.Target, Shared: pr.Exclusive(),
			Probe: pr, Interval: interval, MaxWait: interval, Labels: e.Labels}
		// pScheduler starts a run in [slot, slot+slip]: at random with sliprand, else at the
		// earliest free moment. Longhaul's jitter is the random part; max_wait the window.
		if e.Sliprand {
			t.Jitter = slip
		}
		if slip > 0 {
			t.MaxWait = slip
		}
		out = append(out, t)
		if b, ok := p.burstOf(t, e); ok && !seen[b.ProbeID+"|"+e.Target] {
			seen[b.ProbeID+"|"+e.Target] = true
			out = append(out, b)
		}
	}
	return out
}

// beyondLimits says which of this host's ceilings a planned probe run every interval passes, or "".
func (p *planner) beyondLimits(pr probe.Probe, interval time.Duration) string {
	var d probe.Demand
	if x, ok := pr.(probe.Demanding); ok {
		d = x.Demand()
	}
	return p.limits.Exceeds(d, interval, pr.Exclusive())
}

// BurstSuffix ends the probe id of the screening burst the agent adds beside a plan's TCP
// throughput pair (psconfig.screen): "<task>.burst", screening "<task>".
const BurstSuffix = ".burst"

// burstOf is the screening burst of a planned TCP throughput task when psconfig.screen is on:
// the pair's own test (streams, window, direction…), screen.duration long without omitted
// seconds or host snapshot, every screen.interval (a tenth of it as slip), screening t.
func (p *planner) burstOf(t schedule.Task, e *psconfig.Entry) (schedule.Task, bool) {
	if p.screen.Interval.D() <= 0 || e.Kind != probe.KindThroughput || (e.Params["protocol"] != "" && e.Params["protocol"] != "tcp") {
		return schedule.Task{}, false
	}
	id := t.ProbeID + BurstSuffix
	if config.CheckProbeID(id) != "" || p.taken[id] {
		return schedule.Task{}, false
	}
	params := maps.Clone(e.Params)
	if params == nil {
		params = map[string]string{}
	}
	params["duration"] = p.screen.Duration.D().String()
	params["host_snapshot"] = "false"
	delete(params, "omit")
	factory, _ := probe.Lookup(e.Kind)
	pr, err := factory(paramsNode(params), p.exec)
	if err != nil {
		return schedule.Task{}, false
	}
	interval := p.screen.Interval.D()
	return schedule.Task{ProbeID: id, Kind: e.Kind, Dst: t.Dst, Address: t.Address, Shared: t.Shared, Probe: pr,
		Interval: interval, Jitter: interval / 10, MaxWait: interval / 2, Labels: t.Labels, Screens: t.ProbeID}, true
}

// CheckPlan reads the config's pSConfig template once and plans it as the agent would (the
// pairs this host schedules, each probe built, what cannot run with its reason): for
// `longhaul-probe check`. The error says why the template cannot be had.
func CheckPlan(ctx context.Context, cfg *config.Config, exec probe.Exec) ([]psconfig.Entry, error) {
	p := newPlanner(cfg, Options{Exec: exec})
	if _, err := p.load(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.entries, nil
}

// ReverseSuffix ends the probe id of a task's throughput runs made from the test's dest with
// the far end sending (the no-agent hand-over): "wlcg-throughput.reverse".
const ReverseSuffix = ".reverse"

// ProbeIDOf is the probe id of a pSConfig task's runs: its name, a colon (allowed in
// pSConfig names, not in probe ids) written as an underscore.
func ProbeIDOf(task string) string { return strings.ReplaceAll(task, ":", "_") }

// paramsNode writes a kind's params as the YAML mapping its factory reads; the values are
// plain scalars, typed as YAML types them (4 is an int, 30s a string, true a bool).
func paramsNode(m map[string]string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k},
			&yaml.Node{Kind: yaml.ScalarNode, Value: m[k]})
	}
	return n
}

// sameTasks compares what the scheduler would run; the probes themselves are rebuilt.
func sameTasks(a, b []schedule.Task) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.ProbeID != y.ProbeID || x.Kind != y.Kind || x.Dst != y.Dst || x.Address != y.Address ||
			x.Interval != y.Interval || x.Jitter != y.Jitter || x.MaxWait != y.MaxWait || x.Shared != y.Shared || x.Screens != y.Screens ||
			!maps.Equal(x.Labels, y.Labels) || fmt.Sprintf("%+v", x.Probe) != fmt.Sprintf("%+v", y.Probe) {
			return false
		}
	}
	return true
}

// PSConfigHealth is the pSConfig part of /health: the source's state, and the plan.
type PSConfigHealth struct {
	psconfig.Status
	Planned      int               `json:"planned"`       // pairs this host schedules
	Running      int               `json:"running"`       // of them, run by a probe
	ByPScheduler int               `json:"by_pscheduler"` // of them, measured by pScheduler (latency, latencybg)
	Unsupported  int               `json:"unsupported"`   // of them, not run: see unsupported_pairs
	Pairs        []UnsupportedPair `json:"unsupported_pairs,omitempty"`
	// Warnings: what the template asks for that the plan does not apply (includes, until).
	Warnings []string `json:"warnings,omitempty"`
}

// UnsupportedPair is a pair the host schedules and does not run, with why.
type UnsupportedPair struct {
	Task   string `json:"task"`
	Test   string `json:"test"`
	Src    string `json:"src"`
	Dst    string `json:"dst"`
	Reason string `json:"reason"`
}

// maxUnsupportedShown bounds the list in /health; `longhaul-probe plan` prints them all.
const maxUnsupportedShown = 20

func (p *planner) health() *PSConfigHealth {
	h := &PSConfigHealth{Status: p.src.Status()}
	p.mu.Lock()
	defer p.mu.Unlock()
	h.Planned, h.Running = len(p.entries), len(p.tasks)
	if t := p.src.Template(); t != nil {
		h.Warnings = t.Warnings()
	}
	for _, e := range p.entries {
		if e.MeasuredBy != "" {
			h.ByPScheduler++
		}
		if e.Unsupported == "" {
			continue
		}
		h.Unsupported++
		if len(h.Pairs) < maxUnsupportedShown {
			h.Pairs = append(h.Pairs, UnsupportedPair{Task: e.Task, Test: e.Test, Src: e.Src, Dst: e.Dst, Reason: e.Unsupported})
		}
	}
	return h
}

// planLoop fetches the template every refresh (every minute at most while there is no plan
// yet) and applies a changed plan to the running scheduler.
func (a *Agent) planLoop(ctx context.Context) {
	refresh := a.cfg.PSConfig.Refresh.D()
	for {
		wait := refresh
		if a.plan.src.Status().State == psconfig.StateNone && wait > time.Minute {
			wait = time.Minute
		}
		timer := a.opt.Clock.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
		}
		a.RefreshPlan(ctx)
	}
}

// RefreshPlan fetches the pSConfig template now and applies the plan if it changed, without
// stopping anything: runs in progress end, the spool and its samples stay. A failure keeps
// the plan as it was, logged and in /health.
func (a *Agent) RefreshPlan(ctx context.Context) error {
	if a.plan == nil {
		return nil
	}
	changed, err := a.plan.load(ctx)
	if err != nil {
		a.log.Error("psconfig: template not loaded; the last good plan stays", "source", a.cfg.PSConfig.URL, "err", err)
	}
	if changed {
		a.applyPlan()
	}
	return err
}

// warnPlan logs what the template asks for and the plan does not apply.
func (a *Agent) warnPlan() {
	for _, w := range a.plan.health().Warnings {
		a.log.Warn("psconfig: not applied", "source", a.cfg.PSConfig.URL, "what", w)
	}
}

// applyPlan hands the config's tasks and the plan's to the scheduler and the run counters.
func (a *Agent) applyPlan() {
	tasks := append(append([]schedule.Task(nil), a.ownTasks...), a.plan.current()...)
	a.sched.SetTasks(tasks)
	a.stats.setTasks(tasks)
	a.warnPlan()
	h := a.plan.health()
	a.log.Info("psconfig: plan applied", "source", a.cfg.PSConfig.URL, "planned", h.Planned, "running", h.Running,
		"unsupported", h.Unsupported, "tasks", len(tasks))
}
