package publish

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
)

func TestTheSentHeaderIsTheClockInDecimalMilliseconds(t *testing.T) {
	h := sentHeader(time.UnixMilli(1764000000123))
	if h.Key != contract.HeaderSentMs || string(h.Value) != "1764000000123" {
		t.Fatalf("header %s=%q", h.Key, h.Value)
	}
}

// A record may wait in the client only a part of the tolerance: the rest is for the trip.
func TestARecordWaitsInTheClientLessThanTheSkewTolerance(t *testing.T) {
	if tol := time.Duration(contract.ClockSkewToleranceS * float64(time.Second)); clientWait <= 0 || clientWait >= tol/2 {
		t.Fatalf("clientWait %v against a tolerance of %v", clientWait, tol)
	}
}

// sentMs is the sent_ms header of a produced record, or -1.
func sentMs(t *testing.T, r kgo.Record) int64 {
	t.Helper()
	for _, h := range r.Headers {
		if h.Key == contract.HeaderSentMs {
			ms, err := strconv.ParseInt(string(h.Value), 10, 64)
			if err != nil {
				t.Fatalf("sent_ms %q: %v", h.Value, err)
			}
			return ms
		}
	}
	return -1
}

// Samples spooled while Kafka is away (every send fails, as the client's delivery timeout fails
// them) and delivered three hours later carry the clock of the attempt that delivered them, not
// of the first: the Flink job must not take the wait for a clock three hours behind.
func TestASampleDeliveredAfterAnOutageCarriesTheClockOfItsDelivery(t *testing.T) {
	outage := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC).UnixMilli()
	delivery := outage + 3*time.Hour.Milliseconds()
	var now atomic.Int64
	now.Store(outage)
	s := openSpool(t, t.TempDir(), testOptions())
	f := newFakeKafka()
	f.failAll = true
	p := NewPublisher(s, f, PublisherOptions{MaxInFlight: 4, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
		PingEvery: 5 * time.Millisecond, Logger: quiet, Clock: func() time.Time { return time.UnixMilli(now.Load()) }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	appendN(t, s, "r", 10, ClassKeep)
	eventually(t, f, "sends to fail", func() bool { return p.Stats().Failed >= 8 })

	now.Store(delivery)
	f.mu.Lock()
	f.failAll = false
	f.mu.Unlock()
	eventually(t, f, "the spool to drain", func() bool { return s.Stats().Samples == 0 })

	f.mu.Lock()
	defer f.mu.Unlock()
	first, last := map[string]int64{}, map[string]int64{}
	for _, r := range f.attempts {
		ms := sentMs(t, r)
		if ms != outage && ms != delivery {
			t.Fatalf("record %s stamped %d: neither clock", r.Value, ms)
		}
		if _, ok := first[string(r.Value)]; !ok {
			first[string(r.Value)] = ms
		}
		last[string(r.Value)] = ms
	}
	if len(f.delivered) != 10 {
		t.Fatalf("delivered %d of 10", len(f.delivered))
	}
	for _, v := range f.delivered {
		if last[v] != delivery {
			t.Errorf("delivered %s stamped %d, the clock of its delivery is %d", v, last[v], delivery)
		}
	}
	if got := first[string(rec(ClassKeep, "r0000", 100).Value)]; got != outage {
		t.Errorf("the first sample's first attempt was stamped %d, during the outage the clock read %d", got, outage)
	}
}
