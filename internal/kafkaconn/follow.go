package kafkaconn

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Poller is what Follow polls: a *kgo.Client.
type Poller interface {
	PollRecords(ctx context.Context, maxPollRecords int) kgo.Fetches
}

// FollowOptions tune Follow. The zero value hands on every buffered record, waits as long as
// it takes for the next, and leaves every fetch error but a refusal to the client to retry.
type FollowOptions struct {
	// MaxRecords is the most records a poll hands on (0: every buffered one).
	MaxRecords int
	// Until, when set, ends each poll by the time it says (asked before each poll), so that each
	// is called then, without records if none came: for work on a clock beside the records.
	Until func() time.Time
	// OnError is told each error a poll brought, a refusal too (before Follow ends with it),
	// but not a cancellation nor the poll's reaching Until: for a log and a health report.
	OnError func(topic string, partition int32, err error)
	// Pause is how long to wait after a poll that brought errors and no record (0: poll again
	// at once; the client backs off by itself).
	Pause time.Duration
}

// Follow polls cl until ctx ends and hands each poll's records, in order, to each: after every
// poll, with none when the poll brought only errors or ended at Until. It returns nil when ctx
// ends (the poll ctx ended is not handed on), or each's error.
//
// A refusal is reported, not retried silently, as ReadToEnd treats it: when a poll brings one
// (FetchRefusal: a credential, certificate or ACL Kafka refuses, which lasts until someone
// changes it), Follow hands on the records that came with it (cl has read them: it would not
// read them again) and returns the *RefusedError, naming the topic and the reason. A program
// that must keep running (the agent takes a fixed password or ACL without a restart) reports it
// and follows again. Other fetch errors (a broker away, a leader moving) are the client's to
// retry: Follow tells OnError and polls on.
func Follow(ctx context.Context, cl Poller, o FollowOptions, each func([]*kgo.Record) error) error {
	for ctx.Err() == nil {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if o.Until != nil {
			pctx, cancel = context.WithDeadline(ctx, o.Until())
		}
		fetches := cl.PollRecords(pctx, o.MaxRecords)
		ended := pctx.Err() // Until's deadline, when the poll reached it
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		failed := false
		fetches.EachError(func(topic string, p int32, err error) {
			if errors.Is(err, context.Canceled) || (ended != nil && errors.Is(err, ended)) {
				return // the poll's own end, not Kafka's
			}
			failed = true
			if o.OnError != nil {
				o.OnError(topic, p, err)
			}
		})
		records := fetches.Records()
		if err := each(records); err != nil {
			return err
		}
		if err := FetchRefusal(fetches); err != nil {
			return err
		}
		if failed && len(records) == 0 && o.Pause > 0 {
			t := time.NewTimer(o.Pause)
			select {
			case <-ctx.Done():
			case <-t.C:
			}
			t.Stop()
		}
	}
	return nil
}
