package publish

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// fakeKafka stands in for the client in these unit tests of the publisher's bookkeeping (the
// integration tests use a real broker). It acknowledges at once, holds records while "down",
// or fails a given number of sends.
type fakeKafka struct {
	mu        sync.Mutex
	down      bool
	reachable bool   // while down, pings still answer (a slow broker, not a gone one)
	failKey   string // fail the next failNext records with this key, as a partition would
	failNext  int
	failAll   bool         // fail every record, as the client's delivery timeout does while the broker is away
	attempts  []kgo.Record // every record produced, failed or not, in order
	held      []heldRecord
	delivered []string // values, in the order Kafka acknowledged them
	keys      []string // their keys
	flushed   bool
	changed   chan struct{}
}

type heldRecord struct {
	r       *kgo.Record
	promise func(*kgo.Record, error)
}

var errFake = errors.New("fake: NOT_LEADER_FOR_PARTITION retries exhausted")

func newFakeKafka() *fakeKafka { return &fakeKafka{changed: make(chan struct{}, 1)} }

func (f *fakeKafka) Produce(_ context.Context, r *kgo.Record, promise func(*kgo.Record, error)) {
	f.mu.Lock()
	f.attempts = append(f.attempts, *r)
	switch {
	case f.failAll:
		f.mu.Unlock()
		promise(r, errFake)
	case f.failNext > 0 && string(r.Key) == f.failKey:
		f.failNext--
		f.mu.Unlock()
		promise(r, errFake)
	case f.down:
		f.held = append(f.held, heldRecord{r, promise})
		f.mu.Unlock()
	default:
		f.delivered = append(f.delivered, string(r.Value))
		f.keys = append(f.keys, string(r.Key))
		f.mu.Unlock()
		promise(r, nil)
	}
	f.signal()
}

func (f *fakeKafka) signal() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeKafka) Flush(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flushed = true
	if len(f.held) > 0 {
		return context.DeadlineExceeded
	}
	return nil
}

func (f *fakeKafka) Ping(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down && !f.reachable {
		return errors.New("fake: dial tcp: connection refused")
	}
	return nil
}

// up brings the broker back: held records are acknowledged in the order they were produced.
func (f *fakeKafka) up() {
	f.mu.Lock()
	f.down = false
	held := f.held
	f.held = nil
	for _, h := range held {
		f.delivered = append(f.delivered, string(h.r.Value))
		f.keys = append(f.keys, string(h.r.Key))
	}
	f.mu.Unlock()
	for _, h := range held {
		h.promise(h.r, nil)
	}
	f.signal()
}

func (f *fakeKafka) snapshot() (delivered []string, held int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.delivered...), len(f.held)
}

// eventually waits (bounded) for cond, re-checking whenever the fake sees a send.
func eventually(t *testing.T, f *fakeKafka, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-f.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func startPublisher(t *testing.T, s *Spool, f *fakeKafka, maxInFlight int) (*Publisher, func()) {
	p := NewPublisher(s, f, PublisherOptions{MaxInFlight: maxInFlight, MinBackoff: time.Millisecond,
		MaxBackoff: 5 * time.Millisecond, PingEvery: 5 * time.Millisecond, Logger: quiet})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	return p, stop
}

func valuesOf(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rec(ClassKeep, fmt.Sprintf("%s%04d", prefix, i), 100).Value)
	}
	return out
}

func TestPublisherDeliversEverySpooledSampleInOrderAndEmptiesTheSpool(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	appendN(t, s, "r", 500, ClassKeep)
	f := newFakeKafka()
	p, _ := startPublisher(t, s, f, 64)
	eventually(t, f, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	got, _ := f.snapshot()
	if fmt.Sprint(got) != fmt.Sprint(valuesOf("r", 500)) {
		t.Fatalf("delivered %d records, not the 500 in spool order", len(got))
	}
	if st := p.Stats(); st.Acked != 500 || st.Sent != 500 || st.Failed != 0 {
		t.Fatalf("stats: %+v", st)
	}
}

func TestPublisherKeepsSamplesInTheSpoolWhileKafkaIsAwayAndDrainsThemInOrder(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	f := newFakeKafka()
	f.down = true
	p, _ := startPublisher(t, s, f, 50)
	appendN(t, s, "r", 2000, ClassKeep)
	eventually(t, f, "the in-flight window to fill", func() bool { _, held := f.snapshot(); return held == 50 })
	eventually(t, f, "the ping to notice", func() bool { return !p.Stats().Connected })
	if st := s.Stats(); st.Samples != 2000 || st.InFlight != 50 {
		t.Fatalf("while down: spool %+v", st)
	}
	f.up()
	eventually(t, f, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	got, _ := f.snapshot()
	if fmt.Sprint(got) != fmt.Sprint(valuesOf("r", 2000)) {
		t.Fatalf("delivered %d records, not the 2000 in order", len(got))
	}
	if !p.Stats().Connected {
		t.Fatal("still reported disconnected")
	}
}

// A failed send (a partition failing its buffered records) pauses the feed and resends from
// the oldest unacknowledged record: every record arrives once, each link in order.
func TestPublisherResendsFromTheOldestUnacknowledgedAfterAFailure(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	var want = map[string][]string{}
	for i := 0; i < 40; i++ {
		r := rec(ClassKeep, fmt.Sprintf("r%04d", i), 10)
		r.Key = []byte([]string{"a|b", "c|d"}[i%2])
		want[string(r.Key)] = append(want[string(r.Key)], string(r.Value))
		if err := s.Append([]Record{r}); err != nil {
			t.Fatal(err)
		}
	}
	f := newFakeKafka()
	f.mu.Lock()
	f.failKey, f.failNext = "a|b", 3
	f.mu.Unlock()
	p, _ := startPublisher(t, s, f, 4)
	eventually(t, f, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	f.mu.Lock()
	got := map[string][]string{}
	for i, v := range f.delivered {
		got[f.keys[i]] = append(got[f.keys[i]], v)
	}
	f.mu.Unlock()
	for k := range want {
		if fmt.Sprint(got[k]) != fmt.Sprint(want[k]) {
			t.Errorf("link %s: delivered\n%v\nwant\n%v", k, got[k], want[k])
		}
	}
	if st := p.Stats(); st.Failed != 3 || st.Acked != 40 {
		t.Fatalf("stats: %+v", st)
	}
}

func TestPublisherShutdownFlushesAndLeavesTheUnacknowledgedInTheSpool(t *testing.T) {
	dir := t.TempDir()
	s := openSpool(t, dir, testOptions())
	f := newFakeKafka()
	f.down = true
	_, stop := startPublisher(t, s, f, 10)
	appendN(t, s, "r", 30, ClassKeep)
	eventually(t, f, "the window to fill", func() bool { _, held := f.snapshot(); return held == 10 })
	stop()
	if !f.flushed {
		t.Fatal("no flush on shutdown")
	}
	s.Close()
	s2 := openSpool(t, dir, testOptions())
	if got := names(drain(t, s2, true)); len(got) != 30 || got[0] != "r0000" {
		t.Fatalf("after restart the spool holds %d records from %v", len(got), got[:1])
	}
}

// The agent's last results reach the spool as it shuts down: with Kafka reachable, they are
// sent before Run returns instead of waiting for the next start.
func TestPublisherShutdownSendsWhatIsLeftWhileKafkaIsReachable(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	f := newFakeKafka()
	f.down, f.reachable = true, true // slow, not gone: pings answer, acks wait
	p, stop := startPublisher(t, s, f, 10)
	appendN(t, s, "r", 30, ClassKeep)
	eventually(t, f, "the window to fill", func() bool { _, held := f.snapshot(); return held == 10 && p.Stats().Connected })
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	f.up()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	got, _ := f.snapshot()
	if fmt.Sprint(got) != fmt.Sprint(valuesOf("r", 30)) || s.Stats().Samples != 0 {
		t.Fatalf("delivered %d of 30 on shutdown; %d left in the spool", len(got), s.Stats().Samples)
	}
}
