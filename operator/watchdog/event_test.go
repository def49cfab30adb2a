package watchdog

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestEvidenceIsFlatWithSchemaKeysAndTheComponentLast(t *testing.T) {
	f := Finding{Component: ComponentLag + "/longhaul-telegraf-stats", Subject: "*", Message: strings.Repeat("m", 3000),
		Evidence: map[string]any{"Lag-Records": int64(5), "9lives": true, "took": 1500 * time.Millisecond,
			"error": errors.New(strings.Repeat("é", 400)), "when": at(1), "component": "forged"}}
	e := degraded(f, at(0), at(1), EpisodeID("", f.Component, f.Subject, at(0)))
	validEvent(t, e)
	ev := e.Evidence
	if ev["lag_records"] != int64(5) || ev["x_9lives"] != true || ev["took"] != 1.5 || ev["when"] != at(1).UnixMilli() ||
		ev["component"] != f.Component {
		t.Fatalf("%v", ev)
	}
	if s := ev["error"].(string); len(s) > 500 || !strings.HasSuffix(s, " …") {
		t.Fatalf("error evidence not cut: %d bytes", len(s))
	}
	if len(e.Message) > 2000 {
		t.Fatal("message beyond the schema's 2000")
	}
	if string(e.Key()) != "*|*" {
		t.Fatalf("key %q", e.Key())
	}
}

func TestAHostEventIsKeyedAndSourcedByTheHost(t *testing.T) {
	f := bad(ComponentClock, "perfsonar.ihep.ac.cn")
	f.Severity = SeverityCritical
	e := degraded(f, at(0), at(0), "x")
	validEvent(t, e)
	if e.Src != "perfsonar.ihep.ac.cn" || e.Dst != "*" || string(e.Key()) != "perfsonar.ihep.ac.cn|*" || e.Severity != SeverityCritical {
		t.Fatalf("%+v", e)
	}
}

func TestEpisodeIDIsStable(t *testing.T) {
	first, again := EpisodeID("j", ComponentJob, "*", at(0)), EpisodeID("j", ComponentJob, "*", at(0))
	if first != again ||
		EpisodeID("j", ComponentJob, "*", at(0)) == EpisodeID("j", ComponentJob, "*", at(1)) ||
		EpisodeID("j", ComponentJob, "*", at(0)) == EpisodeID("k", ComponentJob, "*", at(0)) {
		t.Fatal("episode ids are not a function of instance, component, subject and start")
	}
}

// The contract's examples of the watchdog's events are what it writes: a TaskManager lost for a
// minute, then back.
func TestTheContractsExamplesAreWhatTheWatchdogWrites(t *testing.T) {
	since := time.UnixMilli(1325746800000)
	obs := func(running int) *Observations {
		j := job("2b3f548e98e06fb35b60bf41b13d805e", "RUNNING", running, 18, 1)
		return &Observations{Flink: FlinkObs{Name: "longhaul-link-monitor", Job: &j}}
	}
	tr := NewTracker(time.Minute)
	tr.Instance = "longhaul-link-monitor"
	tr.Observe(since, JobCheck{}.Judge(obs(0)))
	down := tr.Observe(since.Add(time.Minute), JobCheck{}.Judge(obs(0)))
	back := tr.Observe(since.Add(2*time.Minute), JobCheck{}.Judge(obs(18)))
	for file, e := range map[string][]Event{"pipeline-degraded.json": down, "pipeline-recovered.json": back} {
		raw, err := os.ReadFile("../../ingest/schemas/examples/event.v4/valid/" + file)
		if err != nil {
			t.Fatal(err)
		}
		var want, got map[string]any
		json.Unmarshal(raw, &want)
		if len(e) != 1 || json.Unmarshal(e[0].Marshal(), &got) != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", file, e[0].Marshal(), raw)
		}
	}
}
