package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"longhaul/collectors/schedule"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
	"longhaul/probes/probe"
)

type nopProbe struct{}

func (nopProbe) Exclusive() bool        { return true }
func (nopProbe) Timeout() time.Duration { return time.Minute }
func (nopProbe) Run(context.Context, probe.Job) []sample.Sample {
	return nil
}

func requestJSON(t *testing.T, edit func(m map[string]any)) []byte {
	t.Helper()
	raw, err := os.ReadFile("../../ingest/schemas/examples/probe_request.v1/valid/loss.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(raw, &m)
	edit(m)
	out, _ := json.Marshal(m)
	return out
}

// What the agent does with each request it reads: its own, in time, for a probe it runs, within
// its hourly budget, is queued; everything else is counted and said why.
func TestTheAgentTakesOnlyItsOwnTimelyRequestsWithinItsBudget(t *testing.T) {
	reg, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(1795466900000)
	sched := schedule.New([]schedule.Task{{ProbeID: "tcp-default", Kind: "throughput", Dst: "cclhcone01.in2p3.fr",
		Address: "cclhcone01.in2p3.fr", Probe: nopProbe{}, Interval: 4 * time.Hour}}, func(schedule.Result) {},
		schedule.Options{Src: "perfsonar.ihep.ac.cn", Clock: schedule.NewFakeClock(now)})
	q := newRequests(2, "longhaul-agent-perfsonar.ihep.ac.cn", reg)
	const src = "perfsonar.ihep.ac.cn"
	cases := []struct {
		name    string
		edit    func(m map[string]any)
		outcome string
		why     string
	}{
		{"another agent's", func(m map[string]any) { m["src"] = "psonar1.fnal.gov" }, RequestOtherHost, ""},
		{"not a request", func(m map[string]any) { delete(m, "request_id") }, RequestInvalid, "request_id"},
		{"expired", func(m map[string]any) { m["expires_ts"] = now.Add(-time.Minute).UnixMilli() }, RequestExpired, "expired 1m0s ago"},
		{"a probe it does not run", func(m map[string]any) { m["probe_id"] = "udp-1g" }, RequestNoProbe, `no probe "udp-1g"`},
		{"its own", func(m map[string]any) {}, RequestQueued, "loss"},
		{"the same again (two jobs asking)", func(m map[string]any) {}, RequestDuplicate, "confirm:"},
		{"a newer version than it reads", func(m map[string]any) { m["version"] = 99 }, RequestInvalid, "not a probe_request of version 1 to"},
		{"its own again, of the newest version", func(m map[string]any) {
			m["version"], m["reason"], m["request_id"] = 2, "owd_shift", "r2"
		}, RequestQueued, "owd_shift"},
		{"past its budget", func(m map[string]any) { m["request_id"] = "r3" }, RequestOverBudget, "2 extra runs in the last hour"},
	}
	for _, c := range cases {
		outcome, why := q.take(requestJSON(t, c.edit), src, now, sched)
		if outcome != c.outcome || !strings.Contains(why, c.why) {
			t.Errorf("%s: %s (%s), want %s (%s)", c.name, outcome, why, c.outcome, c.why)
		}
	}
	// an hour later the budget is free again
	if outcome, _ := q.take(requestJSON(t, func(m map[string]any) {
		m["expires_ts"] = now.Add(2 * time.Hour).UnixMilli()
	}), src, now.Add(time.Hour), sched); outcome != RequestQueued {
		t.Errorf("an hour later: %s", outcome)
	}
	h := q.health(now.Add(time.Hour))
	if h.LastHour != 1 || h.Outcomes[RequestQueued] != 3 || h.Outcomes[RequestOverBudget] != 1 || h.Outcomes[RequestOtherHost] != 1 {
		t.Errorf("health %+v", h)
	}
}

func TestARefusedRequestsTopicMakesTheAgentDegradedAndSaysWhatToDo(t *testing.T) {
	q := newRequests(6, "longhaul-agent-x", nil)
	q.fail(fmt.Errorf("kafka input: %w", errors.New("a timeout")))
	if h := q.health(time.Now()); h.Refused != "" || h.LastError == "" {
		t.Fatalf("an outage is not a refusal: %+v", h)
	}
	q.fail(fmt.Errorf("kafka input: %w", kerr.TopicAuthorizationFailed))
	h := q.health(time.Now())
	if !strings.Contains(h.Refused, "longhaul.probe-requests") || !strings.Contains(h.Refused, "probe_requests.enabled: false") {
		t.Fatalf("refused: %q", h.Refused)
	}
	var b strings.Builder
	WriteStatus(&b, Health{Status: "degraded", ProbeRequests: h}, time.Now())
	if !strings.Contains(b.String(), "requests: REFUSED: Kafka refuses") {
		t.Errorf("status:\n%s", b.String())
	}
	q.setAssigned(true)
	if h := q.health(time.Now()); h.Refused != "" {
		t.Errorf("assigned, still refused: %q", h.Refused)
	}
}
