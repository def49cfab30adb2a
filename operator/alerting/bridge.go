package alerting

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaconn"
)

// Options configure the bridge.
type Options struct {
	Kafka        kafkaconn.Conn
	AM           *Client
	State        *State
	RestoreSince time.Duration // on start, the events read back to rebuild the open set
	Repost       time.Duration // how often every open alert is posted again
	StatusFile   string        // "" for none
	Log          io.Writer
}

// Serve runs the bridge until ctx ends: it rebuilds the open set from the events topic
// (committed records from RestoreSince ago up to the end), reconciles Alertmanager with it
// (alerts it holds from Longhaul that are no longer open are resolved, the open ones posted),
// then follows the topic, posting each change as it comes and everything open every Repost.
// Alertmanager being unreachable is logged and retried (a change not posted yet is kept); a
// refused credential ends Serve with the reason.
func Serve(ctx context.Context, o Options) error {
	cl, err := o.Kafka.NewClient(kgo.ConsumeTopics(contract.TopicEvents), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(time.Now().Add(-o.RestoreSince).UnixMilli())))
	if err != nil {
		return err
	}
	defer cl.Close()
	if err := kafkaconn.Reach(ctx, cl, o.Kafka); err != nil {
		return err
	}
	b := &bridge{o: o, st: Status{Started: time.Now().UTC(), RepostS: o.Repost.Seconds(), HoldS: o.State.Hold.Seconds()}}
	n, err := b.catchUp(ctx, cl)
	if err != nil {
		return err
	}
	o.State.Open() // drops the notices that expired meanwhile
	alerts, notices := o.State.Len()
	b.logf("read back %d events of the last %s: %d alerts and %d notices open", n, o.RestoreSince, alerts, notices)
	b.st.CaughtUp = true
	if err := b.reconcile(ctx); err != nil {
		return err
	}
	b.writeStatus()
	next := time.Now().Add(o.Repost)
	// each poll ends by the next repost, so the open set goes out every Repost without records
	err = kafkaconn.Follow(ctx, cl, kafkaconn.FollowOptions{Until: func() time.Time { return next }}, func(rs []*kgo.Record) error {
		for _, r := range rs {
			b.take(r)
		}
		if !time.Now().Before(next) {
			b.pending = append(b.pending, o.State.Open()...)
			b.pending = append(b.pending, heartbeat(b.st.Started, time.Now(), o.Repost))
			next = time.Now().Add(o.Repost)
		}
		if err := b.flush(ctx); err != nil {
			return err
		}
		b.writeStatus()
		return nil
	})
	if err != nil {
		return err
	}
	b.writeStatus() // stopping: the status file says when it last saw the bridge
	return nil
}

type bridge struct {
	o       Options
	pending []Alert // posted at the next flush, in order (the last post of an alert wins); kept until Alertmanager takes it
	st      Status
	failing bool
}

// Status is the bridge's view, written to its status file each cycle (`make status` shows it).
type Status struct {
	Started     time.Time `json:"started"`
	Updated     time.Time `json:"updated"`
	CaughtUp    bool      `json:"caught_up"`
	RepostS     float64   `json:"repost_s"`
	HoldS       float64   `json:"hold_s"`
	Events      int64     `json:"events"`
	Skipped     int64     `json:"skipped"` // unreadable records
	OpenAlerts  int       `json:"open_alerts"`
	OpenNotices int       `json:"open_notices"`
	Posted      int64     `json:"posted"`
	LastPost    time.Time `json:"last_post,omitempty"`
	LastError   string    `json:"last_error,omitempty"`
}

func (b *bridge) logf(format string, args ...any) {
	if b.o.Log != nil {
		fmt.Fprintf(b.o.Log, format+"\n", args...)
	}
}

// take applies one record, queueing the change it makes.
func (b *bridge) take(r *kgo.Record) {
	ch := b.apply(r)
	b.pending = append(append(b.pending, ch.Resolved...), ch.Firing...)
}

// apply applies the event r holds (a record that is none is skipped, and said).
func (b *bridge) apply(r *kgo.Record) Change {
	e, err := ParseEvent(r.Value)
	if err != nil {
		b.st.Skipped++
		b.logf("offset %d: %v (skipped)", r.Offset, err)
		return Change{}
	}
	b.st.Events++
	return b.o.State.Apply(e)
}

// catchUp reads the topic up to its last stable offsets as they are now, applying every event
// and posting nothing, nor keeping what each would post: Alertmanager learns the result in one
// reconcile.
func (b *bridge) catchUp(ctx context.Context, cl *kgo.Client) (int64, error) {
	_, err := kafkaconn.ReadToEnd(ctx, cl, contract.TopicEvents, func(r *kgo.Record) { b.apply(r) })
	return b.st.Events, err
}

// reconcile makes Alertmanager hold exactly the open set: Longhaul alerts it holds that are not
// open any more (resolved while the bridge was away) are resolved, then everything open is
// posted. Retried until Alertmanager answers or ctx ends.
func (b *bridge) reconcile(ctx context.Context) error {
	for {
		held, err := b.o.AM.Active(ctx, fmt.Sprintf("%s=%q", LabelSource, SourceValue))
		if err == nil {
			now := time.Now().UTC()
			stale, open := 0, b.o.State.Identities()
			for _, h := range held {
				if !isHeartbeat(h.Labels) && !open[identity(h.Labels)] {
					b.pending = append(b.pending, h.Alert.resolved(now))
					stale++
				}
			}
			b.pending = append(b.pending, b.o.State.Open()...)
			b.pending = append(b.pending, heartbeat(b.st.Started, now, b.o.Repost))
			if err = b.flush(ctx); err == nil {
				b.logf("reconciled Alertmanager: it held %d Longhaul alerts, %d resolved as no longer open, %d open posted",
					len(held), stale, len(b.o.State.Open()))
				return nil
			}
		}
		var refused *RefusedError
		if errors.As(err, &refused) {
			return err
		}
		b.note(err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Second):
		}
	}
}

// flush posts the pending alerts, each alert's last state only (Alertmanager would let the last
// one in a batch win too). On failure they stay pending; a refused credential is returned.
func (b *bridge) flush(ctx context.Context) error {
	if len(b.pending) == 0 {
		return nil
	}
	batch := lastOfEach(b.pending)
	b.pending = batch
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	err := b.o.AM.Post(pctx, batch)
	cancel()
	if err != nil {
		var refused *RefusedError
		if errors.As(err, &refused) {
			return err
		}
		b.note(err)
		return nil
	}
	if b.failing {
		b.logf("alertmanager answers again; posted %d alerts held back", len(batch))
		b.failing = false
	}
	b.st.Posted += int64(len(batch))
	b.st.LastPost = time.Now().UTC()
	b.st.LastError = ""
	b.pending = nil
	return nil
}

// lastOfEach keeps the last of the alerts with the same labels, in the order of those last ones.
func lastOfEach(alerts []Alert) []Alert {
	last := map[string]int{}
	for i, a := range alerts {
		last[a.Identity()] = i
	}
	out := make([]Alert, 0, len(last))
	for i, a := range alerts {
		if last[a.Identity()] == i {
			out = append(out, a)
		}
	}
	return out
}

// note logs a failure once per change of message, so a long outage is one line, not thousands.
func (b *bridge) note(err error) {
	if msg := err.Error(); msg != b.st.LastError {
		b.logf("%s (kept; retrying)", msg)
		b.st.LastError = msg
	}
	b.failing = true
}

func (b *bridge) writeStatus() {
	if b.o.StatusFile == "" {
		return
	}
	b.st.Updated = time.Now().UTC()
	b.st.OpenAlerts, b.st.OpenNotices = b.o.State.Len()
	data, _ := json.MarshalIndent(b.st, "", "  ")
	tmp := b.o.StatusFile + ".tmp"
	if err := os.MkdirAll(filepath.Dir(b.o.StatusFile), 0o755); err == nil {
		if os.WriteFile(tmp, data, 0o644) == nil {
			_ = os.Rename(tmp, b.o.StatusFile)
		}
	}
}
