package agent

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// polls answers each poll with its next fetches, then ends the context.
type polls struct {
	next   []kgo.Fetches
	cancel context.CancelFunc
	at     []time.Time
}

func (p *polls) PollRecords(ctx context.Context, _ int) kgo.Fetches {
	p.at = append(p.at, time.Now())
	if len(p.next) == 0 {
		p.cancel()
		return kgo.NewErrFetch(context.Canceled)
	}
	f := p.next[0]
	p.next = p.next[1:]
	return f
}

func onePartition(topic string, err error, values ...string) kgo.Fetches {
	var rs []*kgo.Record
	for _, v := range values {
		rs = append(rs, &kgo.Record{Topic: topic, Value: []byte(v)})
	}
	return kgo.Fetches{{Topics: []kgo.FetchTopic{{Topic: topic, Partitions: []kgo.FetchPartition{{Err: err, Records: rs}}}}}}
}

// A refused probe-requests topic is logged once, reaches /health as refused, and the agent
// follows on a second later: the ACL granted, the requests come without a restart.
func TestARefusedInputIsReportedOnceAndFollowedAgain(t *testing.T) {
	var logs bytes.Buffer
	a := &Agent{log: slog.New(slog.NewTextHandler(&logs, nil))}
	q := newRequests(6, "longhaul-agent-x", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p := &polls{cancel: cancel, next: []kgo.Fetches{
		onePartition("longhaul.probe-requests", kerr.TopicAuthorizationFailed),
		onePartition("longhaul.probe-requests", kerr.TopicAuthorizationFailed),
		onePartition("longhaul.probe-requests", nil, "r1", "r2"),
	}}
	var refusedMeanwhile string
	var handed []string
	a.followInput(ctx, p, "probe requests", 100, func(err error) {
		q.fail(err)
		refusedMeanwhile = q.health(time.Now()).Refused
	}, func(rs []*kgo.Record) {
		for _, r := range rs {
			handed = append(handed, string(r.Value))
		}
	})
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("still following after 20 s: %d polls", len(p.at))
	}
	if strings.Join(handed, ",") != "r1,r2" || len(p.at) != 4 {
		t.Fatalf("handed %v in %d polls", handed, len(p.at))
	}
	if !strings.Contains(refusedMeanwhile, "Kafka refuses this agent's user the probe requests") {
		t.Errorf("/health while refused: %q", refusedMeanwhile)
	}
	if n := strings.Count(logs.String(), `msg="probe requests: Kafka input"`); n != 1 || !strings.Contains(logs.String(), "TOPIC_AUTHORIZATION_FAILED") {
		t.Errorf("logged %d times:\n%s", n, logs.String())
	}
	for i := 1; i < 3; i++ {
		if gap := p.at[i].Sub(p.at[i-1]); gap < time.Second {
			t.Errorf("poll %d came %s after a refusal, want a second", i+1, gap)
		}
	}
}
