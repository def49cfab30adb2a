package watchdog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/kafkaconn"
	"longhaul/operator/flink"
	"longhaul/operator/influx"
)

// Options are what a running watchdog needs: its connections, what to watch, how often.
type Options struct {
	Kafka  kafkaconn.Conn // the watchdog's own identity (principal watchdog)
	Flink  *flink.Client
	Influx *influx.Client

	Job    string   // the Flink job to watch; also names this watchdog instance
	Groups []string // consumer groups whose lag to watch

	Interval     time.Duration
	Grace        time.Duration
	Lookback     time.Duration // on start, read the raw and stats topics from this long ago
	RestoreSince time.Duration // on start, read back its own events from this long ago
	Timeout      time.Duration // per request
	MaxHosts     int
	Thresholds   Thresholds
	Checks       []Check // nil: every check of Thresholds
	StatusFile   string
	Log          io.Writer
}

// Serve runs a watchdog until ctx ends: it connects, takes up its open episodes, follows the raw
// and stats topics and cycles. It returns nil when ctx ends, an error when it cannot go on
// (Kafka unreachable at start, or refusing the watchdog's credential or rights: a refusal is
// reported, not retried).
func Serve(ctx context.Context, o Options) error {
	start := time.Now()
	// by pattern: an agent added later is followed from the next metadata refresh (30 s)
	cl, err := o.Kafka.NewClient(kgo.ConsumeTopics(FollowTopics()...), kgo.ConsumeRegex(), kgo.MetadataMaxAge(30*time.Second),
		kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(start.Add(-o.Lookback).UnixMilli())))
	if err != nil {
		return err
	}
	defer cl.Close()
	if err := kafkaconn.Reach(ctx, cl, o.Kafka); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "watching job %s, groups %s, every %s (grace %s); kafka %s; status %s\n",
		o.Job, strings.Join(o.Groups, ","), o.Interval, o.Grace, o.Kafka, o.StatusFile)

	tracker, book := NewTracker(o.Grace), NewAgentBook(o.MaxHosts)
	tracker.Instance = o.Job
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	back, err := ReadBack(rctx, o.Kafka.NewClient, start.Add(-o.RestoreSince))
	cancel()
	if err != nil {
		return err
	}
	rctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	lists, err := ReadBridgeLists(rctx, o.Kafka.NewClient)
	cancel()
	if err != nil {
		return err
	}
	open := Episodes(back, o.Job)
	Resume(tracker, book, open)
	fmt.Fprintf(o.Log, "read back %d watchdog events: %d episodes of its own open\n", len(back), len(open))

	tip := &StatsTip{}
	checks := o.Checks
	if checks == nil {
		checks = o.Thresholds.Checks()
	}
	live := &Live{Flink: o.Flink, Job: o.Job, Admin: kadm.NewClient(cl), Groups: o.Groups, Influx: o.Influx,
		Book: book, Tip: tip, Delay: o.Thresholds.InfluxDelay, Timeout: o.Timeout}
	wd := &Watchdog{Job: o.Job, Interval: o.Interval, StatusFile: o.StatusFile, Checks: checks, Tracker: tracker,
		Silence: o.Thresholds.Silence(), Observe: live.Observe, Publish: Publisher(cl), Log: o.Log}

	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	followed := make(chan error, 1)
	go func() {
		followed <- Follow(ctx, cl, book, tip, lists)
		cancelAll()
	}()
	err = wd.Run(ctx)
	cancelAll()
	if ferr := <-followed; err == nil {
		err = ferr
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
