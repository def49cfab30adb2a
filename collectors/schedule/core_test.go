package schedule

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/sample"
	"longhaul/probes/probe"
)

// t0 anchors every test: a fixed instant.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

type fakeProbe struct {
	exclusive bool
	run       func(ctx context.Context, job probe.Job) []sample.Sample
}

func (p *fakeProbe) Exclusive() bool        { return p.exclusive }
func (p *fakeProbe) Timeout() time.Duration { return time.Hour }
func (p *fakeProbe) Run(ctx context.Context, job probe.Job) []sample.Sample {
	if p.run != nil {
		return p.run(ctx, job)
	}
	return nil
}

var (
	exclusive  = &fakeProbe{exclusive: true}
	background = &fakeProbe{}
)

func task(id, dst string, p probe.Probe, interval, jitter time.Duration) Task {
	return Task{ProbeID: id, Kind: "test", Dst: dst, Address: dst + ".example.org", Probe: p,
		Interval: interval, Jitter: jitter, MaxWait: interval}
}

func seeded() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// span is a run that started, with the (simulated) time it ended.
type span struct {
	r          *run
	start, end time.Time
}

// simulate drives c in virtual time from t0 to until; dur says how long each run takes.
func simulate(c *core, until time.Time, dur func(*run) time.Duration) (spans []span, expired []*run) {
	now := t0
	var running []span
	for now.Before(until) {
		kept := running[:0]
		for _, sp := range running {
			if !sp.end.After(now) {
				c.finish(sp.r)
				spans = append(spans, sp)
			} else {
				kept = append(kept, sp)
			}
		}
		running = kept
		start, exp := c.step(now)
		expired = append(expired, exp...)
		for _, r := range start {
			running = append(running, span{r, now, now.Add(dur(r))})
		}
		next := c.next()
		for _, sp := range running {
			if sp.end.Before(next) {
				next = sp.end
			}
		}
		now = next
	}
	return spans, expired
}

func TestExclusiveRunsNeverOverlapWhileBackgroundRunsShareTheHost(t *testing.T) {
	var tasks []Task
	for _, dst := range []string{"fnal", "bnl", "triumf"} {
		tasks = append(tasks, task("tput-tcp", dst, exclusive, 10*time.Minute, 10*time.Minute),
			task("tput-udp", dst, exclusive, 15*time.Minute, 5*time.Minute),
			task("rtt", dst, background, time.Minute, 30*time.Second),
			task("trace", dst, background, 5*time.Minute, time.Minute))
	}
	c := newCore("cern", tasks, 3, seeded(), t0)
	rnd := rand.New(rand.NewPCG(3, 4))
	spans, expired := simulate(c, t0.Add(48*time.Hour), func(r *run) time.Duration {
		if r.task.Probe.Exclusive() {
			return 30*time.Second + time.Duration(rnd.Int64N(int64(150*time.Second)))
		}
		return 10*time.Second + time.Duration(rnd.Int64N(int64(80*time.Second)))
	})
	var excl []span
	maxBg := 0
	for i, a := range spans {
		if a.r.task.Probe.Exclusive() {
			excl = append(excl, a)
			continue
		}
		n := 0
		for _, b := range spans[:i+1] {
			if !b.r.task.Probe.Exclusive() && b.start.Before(a.end) && a.start.Before(b.end) && !a.start.Before(b.start) {
				n++
			}
		}
		maxBg = max(maxBg, n)
	}
	for i, a := range excl {
		for _, b := range excl[i+1:] {
			if a.start.Before(b.end) && b.start.Before(a.end) {
				t.Fatalf("exclusive runs overlap: %s %s→%s [%s, %s] and %s %s→%s [%s, %s]",
					a.r.job.RunID, a.r.job.ProbeID, a.r.job.Dst, a.start, a.end, b.r.job.RunID, b.r.job.ProbeID, b.r.job.Dst, b.start, b.end)
			}
		}
	}
	if maxBg < 2 || maxBg > 3 {
		t.Fatalf("background concurrency peaked at %d; want 2..3 (concurrent, bounded by 3)", maxBg)
	}
	if len(excl) < 1000 {
		t.Fatalf("only %d exclusive runs in 48 h", len(excl))
	}
	// Every planned run either ran or was reported: 48 h of each task's slots.
	perTask := map[*taskState]int{}
	for _, sp := range spans {
		perTask[sp.r.task]++
	}
	for _, r := range expired {
		perTask[r.task]++
	}
	for _, ts := range c.tasks {
		if want := int(48 * time.Hour / ts.Interval); perTask[ts] < want-1 || perTask[ts] > want+1 {
			t.Errorf("%s→%s: %d runs accounted for, want %d", ts.ProbeID, ts.Dst, perTask[ts], want)
		}
	}
}

func TestSlipIsUniformWithinTheJitter(t *testing.T) {
	const jitter = 30 * time.Second
	c := newCore("cern", []Task{task("rtt", "fnal", background, time.Minute, jitter)}, 1, seeded(), t0)
	spans, _ := simulate(c, t0.Add(10000*time.Minute), func(*run) time.Duration { return time.Second })
	var buckets [10]int
	var sum time.Duration
	for _, sp := range spans {
		s := sp.start.Sub(sp.r.slot)
		if s < 0 || s >= jitter {
			t.Fatalf("run %s started %s after its slot: outside [0, %s)", sp.r.job.RunID, s, jitter)
		}
		if sp.start != sp.r.planned || sp.r.slot.Sub(t0)%time.Minute != c.tasks[0].phase%time.Minute {
			t.Fatalf("run %s: start %s planned %s slot %s", sp.r.job.RunID, sp.start, sp.r.planned, sp.r.slot)
		}
		buckets[s*10/jitter]++
		sum += s
	}
	n := len(spans)
	if n < 9999 {
		t.Fatalf("%d runs", n)
	}
	if mean := sum / time.Duration(n); mean < 14500*time.Millisecond || mean > 15500*time.Millisecond {
		t.Errorf("mean slip %s, want 15s ± 0.5s", mean)
	}
	for i, b := range buckets {
		if b < n/10*85/100 || b > n/10*115/100 {
			t.Errorf("slip bucket %d holds %d of %d runs: not uniform (%v)", i, b, n, buckets)
		}
	}
}

func TestZeroJitterStartsOnTheSlot(t *testing.T) {
	c := newCore("cern", []Task{task("rtt", "fnal", background, time.Minute, 0)}, 1, seeded(), t0)
	spans, _ := simulate(c, t0.Add(time.Hour), func(*run) time.Duration { return time.Second })
	for _, sp := range spans {
		if sp.start != sp.r.slot {
			t.Fatalf("started %s, slot %s", sp.start, sp.r.slot)
		}
	}
}

func TestARunThatCannotStartInItsSlotIsReportedWithTheReason(t *testing.T) {
	long := task("tput-long", "fnal", exclusive, time.Hour, 0)
	short := task("tput", "bnl", exclusive, time.Hour, 0)
	short.MaxWait = 10 * time.Minute
	c := newCore("cern", []Task{long, short}, 1, seeded(), t0)
	spans, expired := simulate(c, t0.Add(3*time.Hour), func(r *run) time.Duration {
		if r.task.ProbeID == "tput-long" {
			return 2 * time.Hour
		}
		return time.Minute
	})
	var longRun *run
	for _, sp := range spans {
		if sp.r.task.ProbeID == "tput-long" {
			longRun = sp.r
		}
	}
	if longRun == nil {
		t.Fatal("the long run never started")
	}
	var blocked *run
	for _, r := range expired {
		if r.task.ProbeID == "tput" && strings.Contains(r.reason, longRun.job.RunID) {
			blocked = r
		}
	}
	if blocked == nil {
		t.Fatalf("no not_started report for tput naming %s; expired: %d", longRun.job.RunID, len(expired))
	}
	if !strings.Contains(blocked.reason, "not started within 10m0s") || !strings.Contains(blocked.reason, "exclusive run") {
		t.Errorf("reason: %s", blocked.reason)
	}
	// The long probe's own next slot is reported too: its previous run was still going.
	self := false
	for _, r := range expired {
		self = self || (r.task.ProbeID == "tput-long" && strings.Contains(r.reason, "previous run"))
	}
	if !self {
		t.Error("the long probe's overlapping slot was not reported")
	}
}

func TestAWaitingExclusiveRunStartsAsSoonAsTheSlotFrees(t *testing.T) {
	a := task("a", "fnal", exclusive, time.Hour, 0)
	b := task("b", "bnl", exclusive, time.Hour, 0)
	c := newCore("cern", []Task{a, b}, 1, seeded(), t0)
	first, second := c.tasks[0], c.tasks[1]
	if second.planned.Before(first.planned) {
		first, second = second, first
	}
	gap := second.planned.Sub(first.planned)
	spans, expired := simulate(c, second.planned.Add(10*time.Minute), func(r *run) time.Duration {
		if r.task == first {
			return gap + 5*time.Minute
		}
		return time.Minute
	})
	if len(expired) != 0 || len(spans) != 2 {
		t.Fatalf("spans %d expired %d", len(spans), len(expired))
	}
	if sp := spans[1]; sp.r.task != second || sp.start != spans[0].end {
		t.Fatalf("second run started %s, first ended %s", sp.start, spans[0].end)
	}
	if spans[1].r.job.Start != spans[1].start {
		t.Fatal("job.Start is not the actual start")
	}
}

func TestRunIDsAreUnique(t *testing.T) {
	var tasks []Task
	for _, dst := range []string{"a", "b", "c", "d"} {
		tasks = append(tasks, task("rtt", dst, background, time.Second, 0))
	}
	c := newCore("cern", tasks, 4, seeded(), t0)
	spans, _ := simulate(c, t0.Add(time.Hour), func(*run) time.Duration { return 100 * time.Millisecond })
	seen := map[string]bool{}
	for _, sp := range spans {
		if seen[sp.r.job.RunID] {
			t.Fatalf("run id %s used twice", sp.r.job.RunID)
		}
		seen[sp.r.job.RunID] = true
	}
	if len(seen) < 4*3600-4 {
		t.Fatalf("%d runs", len(seen))
	}
}

func TestPhaseIsStableAndSpreadsTheHostsSharingATarget(t *testing.T) {
	const interval = time.Hour
	if first, again := Phase("cern", "tput", "fnal", interval), Phase("cern", "tput", "fnal", interval); first != again {
		t.Fatal("phase not stable")
	}
	if Phase("cern", "tput", "fnal", interval) == Phase("desy", "tput", "fnal", interval) {
		t.Fatal("two hosts sharing a target got the same phase")
	}
	var buckets [6]int
	for i := 0; i < 6000; i++ {
		p := Phase("host"+string(rune('a'+i%26))+time.Duration(i).String(), "tput", "fnal", interval)
		if p < 0 || p >= interval {
			t.Fatalf("phase %s outside the interval", p)
		}
		buckets[p*6/interval]++
	}
	for i, b := range buckets {
		if b < 850 || b > 1150 {
			t.Errorf("10-minute bucket %d holds %d of 6000 hosts: %v", i, b, buckets)
		}
	}
}

func TestSlotsAreAlignedToTheEpochPlusPhase(t *testing.T) {
	for _, tc := range []struct{ at, want time.Time }{
		{t0, t0.Add(7 * time.Minute)},
		{t0.Add(7 * time.Minute), t0.Add(7 * time.Minute)},
		{t0.Add(7*time.Minute + time.Nanosecond), t0.Add(67 * time.Minute)},
	} {
		if got := slotAtOrAfter(tc.at, time.Hour, 7*time.Minute); !got.Equal(tc.want) {
			t.Errorf("slot at or after %s = %s, want %s", tc.at, got, tc.want)
		}
	}
}
