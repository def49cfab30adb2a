package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/cli"
	"longhaul/internal/kafkaconn"
	"longhaul/internal/settings"
)

func runTail(env *cli.Env, args []string) int {
	fs := env.FlagSet("[--since 10m] [--stats] [--json] [--for D]",
		"Follows the events topic (committed records only), one line per event; --stats adds 1-minute link statistics.")
	kafka := settings.Kafka.String(fs.FlagSet)
	since := fs.Duration("since", 10*time.Minute, "start with records written this long ago")
	stats := fs.Bool("stats", false, "also print 1-minute link statistics")
	asJSON := fs.Bool("json", false, "print the messages as JSON Lines")
	forDur := fs.Duration("for", 0, "stop after this long (0: until interrupted)")
	if code, done := fs.Parse(args); done {
		return code
	}
	conn, err := kafkaconn.FromSettings(*kafka)
	if err != nil {
		return env.UsageError("%v", err)
	}
	topics := []string{contract.TopicEvents}
	if *stats {
		topics = append(topics, contract.TopicStats)
	}
	cl, err := conn.NewClient(kgo.ConsumeTopics(topics...),
		kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(time.Now().Add(-*since).UnixMilli())),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		return env.Fail("%v", err)
	}
	defer cl.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := kafkaconn.Reach(ctx, cl, conn); err != nil {
		return env.Fail("%v", err)
	}
	if *forDur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *forDur)
		defer cancel()
	}
	err = kafkaconn.Follow(ctx, cl, kafkaconn.FollowOptions{}, func(rs []*kgo.Record) error {
		for _, r := range rs {
			if *asJSON {
				fmt.Fprintf(env.Stdout, "%s\n", r.Value)
			} else if line := describe(r.Topic, r.Value); line != "" {
				fmt.Fprintln(env.Stdout, line)
			}
		}
		return nil
	})
	var refused *kafkaconn.RefusedError
	if errors.As(err, &refused) {
		return env.Fail("%s: %s (%s)", refused.Topic, refused.Reason, conn)
	}
	if err != nil {
		return env.Fail("%v", err)
	}
	return cli.ExitOK
}

// describe renders one result message as a line a person reads.
func describe(topic string, value []byte) string {
	var m map[string]any
	if err := json.Unmarshal(value, &m); err != nil {
		return fmt.Sprintf("(unreadable %s record: %v)", topic, err)
	}
	ts, _ := m["ts"].(float64)
	when := time.UnixMilli(int64(ts)).UTC().Format("15:04:05")
	link := fmt.Sprintf("%v → %v", m["src"], m["dst"])
	if topic == contract.TopicEvents {
		return fmt.Sprintf("%s  %-8s %-20s %-28s %v", when, strings.ToUpper(fmt.Sprint(m["severity"])), m["kind"], link, m["message"])
	}
	if m["window"] != "1m" {
		return ""
	}
	parts := []string{fmt.Sprintf("%s  stats    %-4v %-28s samples=%v", when, m["protocol"], link, m["samples"])}
	for _, f := range []struct {
		key, label, unit string
		scale            float64
	}{
		{"throughput_mean_bps", "throughput", "Mbit/s", 1e6}, {"rtt_mean_ms", "rtt", "ms", 1},
		{"loss_percent", "loss", "%", 1}, {"hop_count", "hops", "", 1}, {"errors", "errors", "", 1},
	} {
		if v, ok := m[f.key].(float64); ok {
			parts = append(parts, fmt.Sprintf("%s=%.4g%s", f.label, v/f.scale, f.unit))
		}
	}
	return strings.Join(parts, " ")
}
