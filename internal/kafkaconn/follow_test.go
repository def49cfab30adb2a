package kafkaconn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// script is a Poller that answers each poll with its next fetches, then ends the test's context
// (when it has run out, or at a poll marked end) and answers as a client does: the context's error.
type script struct {
	cancel context.CancelFunc
	polls  []kgo.Fetches
	endAt  int // the poll (from 1) that ends the context as it returns; 0: after the last
	n      int
	max    []int       // each poll's maxPollRecords
	until  []time.Time // each poll's deadline (zero: none)
	at     []time.Time // when each poll came
}

func (s *script) PollRecords(ctx context.Context, max int) kgo.Fetches {
	s.n++
	s.max = append(s.max, max)
	d, _ := ctx.Deadline()
	s.until = append(s.until, d)
	s.at = append(s.at, time.Now())
	if s.n > len(s.polls) {
		s.cancel()
		return kgo.NewErrFetch(context.Canceled)
	}
	if s.n == s.endAt {
		s.cancel()
	}
	return s.polls[s.n-1]
}

func follow(t *testing.T, polls []kgo.Fetches, o FollowOptions) (*script, [][]string, []string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background()) // no deadline: the polls' own are looked at
	defer cancel()
	var timedOut atomic.Bool
	defer time.AfterFunc(10*time.Second, func() { timedOut.Store(true); cancel() }).Stop()
	s := &script{cancel: cancel, polls: polls}
	var handed [][]string
	var told []string
	o.OnError = func(topic string, p int32, err error) { told = append(told, fmt.Sprintf("%s/%d: %v", topic, p, err)) }
	err := Follow(ctx, s, o, func(rs []*kgo.Record) error {
		var vs []string
		for _, r := range rs {
			vs = append(vs, r.Topic+":"+string(r.Value))
		}
		handed = append(handed, vs)
		return nil
	})
	if timedOut.Load() {
		t.Fatalf("Follow was still running after 10 s: %d polls", s.n)
	}
	return s, handed, told, err
}

// poll is one fetch: a partition of topic with values as records, and an error if not nil.
func poll(topic string, err error, values ...string) kgo.Fetches {
	var rs []*kgo.Record
	for i, v := range values {
		rs = append(rs, &kgo.Record{Topic: topic, Offset: int64(i), Value: []byte(v)})
	}
	return kgo.Fetches{{Topics: []kgo.FetchTopic{{Topic: topic, Partitions: []kgo.FetchPartition{{Err: err, Records: rs}}}}}}
}

func TestFollowHandsOnEachPollUntilTheContextEnds(t *testing.T) {
	s, handed, told, err := follow(t, []kgo.Fetches{
		poll("t", nil, "a", "b"),
		poll("t", kerr.NotLeaderForPartition), // an outage: the client's to retry
		poll("t", nil, "c"),
		kgo.NewErrFetch(context.DeadlineExceeded), // not the poll's own: there is no Until
	}, FollowOptions{MaxRecords: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(handed); got != "[[t:a t:b] [] [t:c] []]" {
		t.Errorf("handed %s", got)
	}
	if len(told) != 2 || !strings.Contains(told[0], "NOT_LEADER_FOR_PARTITION") || !strings.HasSuffix(told[1], context.DeadlineExceeded.Error()) {
		t.Errorf("told %q", told)
	}
	if s.n != 5 || s.max[0] != 100 || !s.until[0].IsZero() {
		t.Errorf("%d polls, max %v, deadlines %v", s.n, s.max, s.until)
	}
}

func TestARefusalEndsFollowAfterTheRecordsThatCameWithIt(t *testing.T) {
	for _, kafkaErr := range []error{kerr.TopicAuthorizationFailed, kerr.GroupAuthorizationFailed, kerr.SaslAuthenticationFailed} {
		s, handed, told, err := follow(t, []kgo.Fetches{
			poll("t", nil, "a"),
			append(poll("t", nil, "b"), poll("u", kafkaErr)...),
			poll("t", nil, "never"),
		}, FollowOptions{})
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Topic != "u" || !errors.Is(err, kafkaErr) || !strings.HasPrefix(err.Error(), "kafka: u: ") {
			t.Fatalf("%v: Follow returned %v", kafkaErr, err)
		}
		if reason, _ := Refusal(kafkaErr); refused.Reason != reason {
			t.Errorf("reason %q, want Refusal's %q", refused.Reason, reason)
		}
		if s.n != 2 || fmt.Sprint(handed) != "[[t:a] [t:b]]" {
			t.Errorf("%v: %d polls, handed %s", kafkaErr, s.n, handed)
		}
		if len(told) != 1 || !strings.HasPrefix(told[0], "u/0: ") {
			t.Errorf("%v: OnError told %q", kafkaErr, told)
		}
	}
}

func TestEachsErrorEndsFollow(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &script{cancel: cancel, polls: []kgo.Fetches{poll("t", nil, "a"), poll("t", nil, "b")}}
	stop := errors.New("stop")
	if err := Follow(ctx, s, FollowOptions{}, func([]*kgo.Record) error { return stop }); err != stop || s.n != 1 {
		t.Fatalf("%v after %d polls", err, s.n)
	}
}

func TestThePollTheContextEndedIsNotHandedOn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &script{cancel: cancel, polls: []kgo.Fetches{poll("t", nil, "a"), poll("t", nil, "b")}, endAt: 2}
	var handed []string
	err := Follow(ctx, s, FollowOptions{}, func(rs []*kgo.Record) error {
		for _, r := range rs {
			handed = append(handed, string(r.Value))
		}
		return nil
	})
	if err != nil || s.n != 2 || fmt.Sprint(handed) != "[a]" {
		t.Fatalf("%v after %d polls, handed %v", err, s.n, handed)
	}
}

func TestFollowPausesAfterAPollOfErrorsOnly(t *testing.T) {
	const pause = 200 * time.Millisecond
	s, handed, _, err := follow(t, []kgo.Fetches{
		poll("t", kerr.NotLeaderForPartition),      // errors only: a pause
		poll("t", kerr.NotLeaderForPartition, "a"), // an error with a record: none
		poll("t", nil, "b"),
	}, FollowOptions{Pause: pause})
	if err != nil || fmt.Sprint(handed) != "[[] [t:a] [t:b]]" {
		t.Fatalf("%v, handed %s", err, handed)
	}
	if gap := s.at[1].Sub(s.at[0]); gap < pause {
		t.Errorf("polled again %s after a poll of errors only, want a pause of %s", gap, pause)
	}
	if gap := s.at[2].Sub(s.at[1]); gap >= pause {
		t.Errorf("paused %s after a poll that brought a record", gap)
	}
}

func TestUntilEndsEachPollAndEachIsCalledThen(t *testing.T) {
	next := time.Now() // passed: each poll ends at once
	s, handed, told, err := follow(t, []kgo.Fetches{
		kgo.NewErrFetch(context.DeadlineExceeded), // the poll reached Until: no error of Kafka's
		poll("t", nil, "a"),
	}, FollowOptions{Until: func() time.Time { return next }, Pause: time.Hour})
	if err != nil || fmt.Sprint(handed) != "[[] [t:a]]" || len(told) != 0 {
		t.Fatalf("%v, handed %s, told %q", err, handed, told)
	}
	if !s.until[0].Equal(next) || !s.until[1].Equal(next) {
		t.Errorf("poll deadlines %v, want %v", s.until, next)
	}
}
