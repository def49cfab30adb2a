package kafkaconn

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// ReadQuiet is how long ReadToEnd waits for a record before it takes the topic as read: the last
// offsets may be transaction markers, which no record shows.
const ReadQuiet = 3 * time.Second

// ReadToEnd hands each record of topic that cl consumes (from where cl starts, committed records
// only when cl reads so) to each, until every partition is read up to its last stable offset as it
// was when ReadToEnd began, or no record has come for ReadQuiet. It returns how many records it
// read. A refusal (credential, rights) ends it with the reason, and so does ctx (the caller's
// state would be incomplete).
func ReadToEnd(ctx context.Context, cl *kgo.Client, topic string, each func(*kgo.Record)) (int, error) {
	ends, err := kadm.NewClient(cl).ListCommittedOffsets(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		if reason, ok := Refusal(err); ok {
			return 0, fmt.Errorf("kafka: %s: %s", topic, reason)
		}
		return 0, fmt.Errorf("kafka: %s: end offsets: %w", topic, err)
	}
	left := map[int32]int64{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			left[o.Partition] = o.Offset
		}
	})
	read := 0
	for len(left) > 0 {
		pctx, cancel := context.WithTimeout(ctx, ReadQuiet)
		fetches := cl.PollFetches(pctx)
		cancel()
		if ctx.Err() != nil {
			return read, fmt.Errorf("kafka: reading %s: %w", topic, ctx.Err())
		}
		if err := FetchRefusal(fetches); err != nil {
			return read, err
		}
		n := 0
		fetches.EachRecord(func(r *kgo.Record) {
			n++
			each(r)
			if end, ok := left[r.Partition]; ok && r.Offset+1 >= end {
				delete(left, r.Partition)
			}
		})
		read += n
		if n == 0 {
			break // quiet: nothing more is readable (or nothing was written since the start offset)
		}
	}
	return read, nil
}

// FetchRefusal is the refusal among a poll's errors, a *RefusedError ("kafka: TOPIC: reason"),
// or nil. Other errors (a broker away, a poll's own deadline) are the client's to retry.
func FetchRefusal(f kgo.Fetches) error {
	var out *RefusedError
	f.EachError(func(topic string, p int32, err error) {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return
		}
		if reason, ok := Refusal(err); ok {
			out = &RefusedError{Topic: topic, Partition: p, Reason: reason, Err: err}
		}
	})
	if out == nil {
		return nil
	}
	return out
}

// RefusedError is a poll's refusal: Kafka refusing this client a topic (or its group, when Topic
// is empty), with Refusal's reason, and Kafka's own error beneath (errors.Is finds it).
type RefusedError struct {
	Topic     string
	Partition int32
	Reason    string
	Err       error
}

func (e *RefusedError) Error() string { return fmt.Sprintf("kafka: %s: %s", e.Topic, e.Reason) }

func (e *RefusedError) Unwrap() error { return e.Err }
