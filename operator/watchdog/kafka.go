package watchdog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaconn"
)

// Publisher writes events to the events topic with cl, keyed "src|dst", and waits for the
// brokers to take them all.
func Publisher(cl *kgo.Client) func(ctx context.Context, events []Event) error {
	return func(ctx context.Context, events []Event) error {
		recs := make([]*kgo.Record, len(events))
		for i, e := range events {
			recs[i] = &kgo.Record{Topic: contract.TopicEvents, Key: e.Key(), Value: e.Marshal()}
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

// quiet is how long ReadBack waits for a record before it takes the topic as read.
const quiet = 3 * time.Second

// ReadBack reads the watchdog's own events written since since, committed ones only
// (read_committed), with a client made by newClient from the options it is given: until every
// partition of the events topic is read up to its last stable offset as it was at the start, or no
// record has come for a few seconds (the last offsets may be transaction markers, which no
// record shows), or ctx ends (an error: the episodes would be incomplete).
func ReadBack(ctx context.Context, newClient func(...kgo.Opt) (*kgo.Client, error), since time.Time) ([][]byte, error) {
	cl, err := newClient(kgo.ConsumeTopics(contract.TopicEvents), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AfterMilli(since.UnixMilli())))
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ends, err := adm.ListCommittedOffsets(ctx, contract.TopicEvents)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		if reason, ok := kafkaconn.Refusal(err); ok {
			return nil, fmt.Errorf("kafka: %s: %s", contract.TopicEvents, reason)
		}
		return nil, fmt.Errorf("kafka: %s: end offsets: %w", contract.TopicEvents, err)
	}
	left := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			left[o.Partition] = o.Offset
		}
	})
	var out [][]byte
	marker := []byte(`"` + ProbeID + `"`)
	for len(left) > 0 {
		pctx, cancel := context.WithTimeout(ctx, quiet)
		fetches := cl.PollFetches(pctx)
		cancel()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("kafka: reading back %s: %w", contract.TopicEvents, ctx.Err())
		}
		var ferr error
		fetches.EachError(func(_ string, _ int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				ferr = err
			}
		})
		if reason, ok := kafkaconn.Refusal(ferr); ok {
			return nil, fmt.Errorf("kafka: %s: %s", contract.TopicEvents, reason)
		}
		n := 0
		fetches.EachRecord(func(r *kgo.Record) {
			n++
			if bytes.Contains(r.Value, marker) {
				out = append(out, r.Value)
			}
			if end, ok := left[r.Partition]; ok && r.Offset+1 >= end {
				delete(left, r.Partition)
			}
		})
		if n == 0 && ferr == nil {
			break // quiet: nothing more is readable (or nothing was written since since)
		}
	}
	return out, nil
}
