package watchdog

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"longhaul/ingest/contract"
)

// A whole cycle without a network: observations in, events out, the status file written; an
// event Kafka does not take is sent with the next cycle.
func TestACycleRaisesPublishesAndKeepsWhatKafkaDidNotTake(t *testing.T) {
	now := at(0)
	obs := &Observations{Flink: FlinkObs{Name: "longhaul-link-monitor"}} // no such job
	var sent []Event
	kafkaDown := true
	var log strings.Builder
	wd := &Watchdog{Job: "longhaul-link-monitor", Interval: 15 * time.Second, StatusFile: filepath.Join(t.TempDir(), "status.json"),
		Checks: DefaultThresholds().Checks(), Tracker: NewTracker(30 * time.Second), Silence: DefaultThresholds().Silence(),
		Observe: func(_ context.Context, n time.Time) (*Observations, error) { o := *obs; o.Now = n; return &o, nil },
		Publish: func(_ context.Context, ev []Event) error {
			if kafkaDown {
				return errors.New("broker away")
			}
			sent = append(sent, ev...)
			return nil
		},
		Now: func() time.Time { return now }, Log: &log}
	for _, s := range []float64{0, 15, 30} {
		now = at(s)
		if err := wd.Cycle(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	st, err := ReadStatus(wd.StatusFile)
	if err != nil || st.Pending != 1 || len(st.Errors) != 1 || st.Healthy() || st.Job != "longhaul-link-monitor" {
		t.Fatalf("%+v %v", st, err)
	}
	kafkaDown = false
	now = at(45)
	wd.Cycle(context.Background())
	if len(sent) != 1 || sent[0].Kind != contract.KindPipelineDegraded || componentOf(sent[0]) != ComponentJob || sent[0].TS != at(30).UnixMilli() {
		t.Fatalf("%+v", sent)
	}
	if st, _ := ReadStatus(wd.StatusFile); st.Pending != 0 || st.Published != 1 {
		t.Fatalf("%+v", st)
	}
	if !strings.Contains(log.String(), "pipeline_degraded flink_job") || !strings.Contains(log.String(), "broker away") {
		t.Fatalf("log: %s", log.String())
	}
	running := job("a", "RUNNING", 18, 18, at(0).UnixMilli())
	obs.Flink.Job = &running
	now = at(60)
	wd.Cycle(context.Background())
	if len(sent) != 2 || sent[1].Kind != contract.KindPipelineRecovered || sent[1].EpisodeID != sent[0].EpisodeID {
		t.Fatalf("%+v", sent)
	}
}

func TestACycleStopsOnlyWhenObservingCannotGoOn(t *testing.T) {
	wd := &Watchdog{Tracker: NewTracker(0), Interval: time.Second,
		Observe: func(context.Context, time.Time) (*Observations, error) { return nil, errors.New("refused") }}
	if err := wd.Run(context.Background()); err == nil || err.Error() != "refused" {
		t.Fatalf("%v", err)
	}
}
