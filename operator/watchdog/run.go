package watchdog

import (
	"context"
	"fmt"
	"io"
	"time"

	"longhaul/ingest/contract"
)

// Watchdog is the loop: every Interval it observes the pipeline, lets each check judge, turns
// the findings into events (Tracker), publishes them and writes the status file. Events that
// could not be published stay in an outbox and go first next cycle, so an alert raised while
// Kafka is away is not lost.
type Watchdog struct {
	Job        string
	Interval   time.Duration
	StatusFile string
	Checks     []Check
	Tracker    *Tracker
	Silence    SilenceCheck // the agents' limits, for the status file

	Observe func(ctx context.Context, now time.Time) (*Observations, error)
	Publish func(ctx context.Context, events []Event) error
	Now     func() time.Time // time.Now when nil
	Log     io.Writer        // one line per event raised and per error

	started   time.Time
	outbox    []Event
	published int64
}

// maxOutbox bounds the events kept while Kafka does not take them (the oldest go first).
const maxOutbox = 10000

func (w *Watchdog) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

// Run cycles until ctx ends. It returns an error only when a cycle cannot go on (Kafka refuses
// the watchdog's credential), so the supervisor restarts it and the reason is in its log.
func (w *Watchdog) Run(ctx context.Context) error {
	tick := time.NewTicker(w.Interval)
	defer tick.Stop()
	for {
		if err := w.Cycle(ctx); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// Cycle is one look at the pipeline: observe, judge, raise, publish, write the status.
func (w *Watchdog) Cycle(ctx context.Context) error {
	now := w.now()
	if w.started.IsZero() {
		w.started = now
	}
	o, err := w.Observe(ctx, now)
	if err != nil {
		return err
	}
	var findings []Finding
	for _, c := range w.Checks {
		findings = append(findings, c.Judge(o)...)
	}
	raised := w.Tracker.Observe(now, findings)
	for _, e := range raised {
		fmt.Fprintf(w.Log, "%s %s (%s): %s\n", e.Kind, describe(componentOf(e), e.Src), e.EpisodeID, e.Message)
	}
	w.outbox = append(w.outbox, raised...)
	if n := len(w.outbox) - maxOutbox; n > 0 {
		fmt.Fprintf(w.Log, "outbox full: %d oldest events dropped\n", n)
		w.outbox = w.outbox[n:]
	}
	var errs []string
	if len(w.outbox) > 0 {
		if err := w.Publish(ctx, w.outbox); err != nil {
			errs = append(errs, fmt.Sprintf("publishing %d events to %s: %v", len(w.outbox), contract.TopicEvents, err))
			fmt.Fprintln(w.Log, errs[len(errs)-1])
		} else {
			w.published += int64(len(w.outbox))
			w.outbox = nil
		}
	}
	return w.writeStatus(now, o, errs)
}

func (w *Watchdog) writeStatus(now time.Time, o *Observations, errs []string) error {
	if w.StatusFile == "" {
		return nil
	}
	st := Status{Written: now.UnixMilli(), Started: w.started.UnixMilli(), Interval: w.Interval.Seconds(), Job: w.Job,
		Published: w.published, Pending: len(w.outbox), Errors: errs, States: w.Tracker.States()}
	st.Untracked = o.Untracked
	st.Agents = make([]AgentStatus, 0, len(o.Agents))
	for _, a := range o.Agents {
		st.Agents = append(st.Agents, agentStatus(a, w.Silence.Limit(a)))
	}
	if err := WriteStatus(w.StatusFile, st); err != nil {
		fmt.Fprintln(w.Log, err) // the status file is for people: the watching goes on
	}
	return nil
}
