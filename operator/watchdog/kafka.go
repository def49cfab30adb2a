package watchdog

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaadmin"
	"longhaul/internal/kafkaconn"
)

// Publisher writes events to the events topic with cl, keyed "src|dst", and waits for the
// brokers to take them all.
func Publisher(cl *kgo.Client) func(ctx context.Context, events []Event) error {
	return func(ctx context.Context, events []Event) error {
		recs := make([]*kgo.Record, len(events))
		for i, e := range events {
			recs[i] = &kgo.Record{Topic: contract.TopicEvents, Key: []byte(e.Key()), Value: e.Marshal()}
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		err := cl.ProduceSync(ctx, recs...).FirstErr()
		if reason, ok := kafkaconn.Refusal(err); ok {
			return fmt.Errorf("%s", reason)
		}
		return err
	}
}

// ReadBack reads the watchdog's own events written since since, committed ones only
// (read_committed), with a client made by newClient from the options it is given, up to the end
// of the events topic as it was at the start (kafkaconn.ReadToEnd); ctx ending is an error: the
// episodes would be incomplete.
func ReadBack(ctx context.Context, newClient func(...kgo.Opt) (*kgo.Client, error), since time.Time) ([][]byte, error) {
	cl, err := newClient(kgo.ConsumeTopics(contract.TopicEvents), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(since.UnixMilli())))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	var out [][]byte
	marker := []byte(`"` + ProbeID + `"`)
	_, err = kafkaconn.ReadToEnd(ctx, cl, contract.TopicEvents, func(r *kgo.Record) {
		if bytes.Contains(r.Value, marker) {
			out = append(out, r.Value)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReadBridgeLists reads the bridges' host lists from the start of their topic to its end: what
// the job judges a bridge's samples by, so that the watchdog counts no sample of a host outside
// its bridge's list as that host's life (Follow then takes the lists' changes).
func ReadBridgeLists(ctx context.Context, newClient func(...kgo.Opt) (*kgo.Client, error)) (*kafkaadmin.BridgeLists, error) {
	cl, err := newClient(kgo.ConsumeTopics(contract.TopicBridgeHosts), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	lists := kafkaadmin.NewBridgeLists()
	_, err = kafkaconn.ReadToEnd(ctx, cl, contract.TopicBridgeHosts, func(r *kgo.Record) { _ = lists.Apply(r.Key, r.Value) })
	return lists, err
}
