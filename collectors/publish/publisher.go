package publish

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/kafkaconn"
)

// PublisherOptions tune the publisher.
type PublisherOptions struct {
	MaxInFlight  int           // records handed to the client and not yet acknowledged; default 1000
	FlushTimeout time.Duration // on shutdown, to send what is left and flush; default 10s
	PingEvery    time.Duration // how often Kafka's reachability is checked; default 10s
	MinBackoff   time.Duration // after a failed send, before sending again; default 500ms
	MaxBackoff   time.Duration // default 30s
	// While Kafka refuses the agent (refusal.go) it is re-checked after RecheckMin, then
	// twice as long each time up to RecheckMax; defaults 5s and 30s.
	RecheckMin time.Duration
	RecheckMax time.Duration
	// Redial builds a new producer from the credentials as they are now (re-reading the
	// password file). With it the publisher owns its producers: a refused one is closed, so
	// its buffered records come back to the spool and the client stops retrying, and each
	// re-check dials anew; Close closes the one in use. Without it the one producer is kept
	// and re-checked with Ping.
	Redial func() (Producer, error)
	// Who are the log attributes saying who was refused: the user, the password file, never
	// the password.
	Who    []any
	Logger *slog.Logger
	// Clock is the agent's wall clock, read at each produce attempt for the record's sent_ms
	// header (sent.go); default time.Now.
	Clock func() time.Time
	// Topic maps the topic a record was spooled under to the one it is sent to (an agent's own
	// raw topics, config.TopicOf); nil sends it where it was spooled.
	Topic func(string) string
}

// Publisher moves records from the spool to Kafka: it reads them in order, produces them
// asynchronously and acknowledges each in the spool from its callback. A failed record
// (franz-go retries transient errors itself, so these are rare: a missing topic, say) stops
// the feed; once every outstanding record has settled the spool is rewound and sending
// resumes, after a backoff, from the oldest unacknowledged record, so nothing is skipped.
type Publisher struct {
	spool *Spool
	prod  Producer
	opt   PublisherOptions
	log   *slog.Logger

	mu          sync.Mutex
	outstanding int
	failed      bool
	closing     bool
	settled     chan struct{} // signalled when a callback returns
	st          PublisherStats
	ref         refusal       // whether, why and since when Kafka refuses the agent
	prodClosed  bool          // prod was closed (refused, or Close)
	resume      chan struct{} // signalled when a refusal lifts or is being probed
}

// PublisherStats are the publisher's counters.
type PublisherStats struct {
	Connected     bool      // the last ping or produce succeeded
	LastAck       time.Time // when Kafka last acknowledged a record
	LastError     string
	LastErrorAt   time.Time
	Sent          uint64 // records produced, resends included
	Acked         uint64
	Failed        uint64 // failed sends (each is resent)
	Undeliverable uint64 // records Kafka refused for good (too large), removed and logged
	Outstanding   int
	// Refused is set while Kafka refuses the agent's credential or rights: not an outage,
	// it lasts until someone fixes them. Reason says what to fix, in one line.
	Refused      bool
	Reason       string
	RefusedSince time.Time
	NextCheck    time.Time // the next re-check of a refusal
	Rechecks     uint64    // re-checks since RefusedSince
}

// NewPublisher publishes what s holds through prod.
func NewPublisher(s *Spool, prod Producer, opt PublisherOptions) *Publisher {
	if opt.MaxInFlight <= 0 {
		opt.MaxInFlight = 1000
	}
	if opt.FlushTimeout <= 0 {
		opt.FlushTimeout = 10 * time.Second
	}
	if opt.PingEvery <= 0 {
		opt.PingEvery = 10 * time.Second
	}
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = 500 * time.Millisecond
	}
	if opt.MaxBackoff < opt.MinBackoff {
		opt.MaxBackoff = 30 * time.Second
	}
	if opt.RecheckMin <= 0 {
		opt.RecheckMin = 5 * time.Second
	}
	if opt.RecheckMax < opt.RecheckMin {
		opt.RecheckMax = max(30*time.Second, opt.RecheckMin)
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	return &Publisher{spool: s, prod: prod, opt: opt, log: opt.Logger, settled: make(chan struct{}, 1),
		resume: make(chan struct{}, 1)}
}

// Stats returns the counters.
func (p *Publisher) Stats() PublisherStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.st
	st.Outstanding = p.outstanding
	st.Refused, st.Reason, st.RefusedSince, st.NextCheck, st.Rechecks = p.ref.on, p.ref.reason, p.ref.since, p.ref.next, p.ref.checks
	return st
}

// Run publishes until ctx ends. Then, if Kafka is reachable, it goes on sending what the
// spool holds and flushes, both within FlushTimeout, so a clean shutdown leaves nothing
// behind; whatever Kafka has not acknowledged by then stays in the spool for the next start.
func (p *Publisher) Run(ctx context.Context) error {
	go p.monitor(ctx)
	p.loop(ctx, false)
	fctx, cancel := context.WithTimeout(context.Background(), p.opt.FlushTimeout)
	defer cancel()
	if p.Stats().Connected {
		p.loop(fctx, true)
	}
	return p.flush(fctx)
}

// loop feeds the spool to Kafka until ctx ends; final, it also returns once nothing is left
// to send or a send fails.
func (p *Publisher) loop(ctx context.Context, final bool) {
	backoff, ackedAtRewind := p.opt.MinBackoff, uint64(0)
	for ctx.Err() == nil {
		p.mu.Lock()
		failed, room, paused := p.failed, p.opt.MaxInFlight-p.outstanding, p.ref.paused()
		p.mu.Unlock()
		switch {
		case (failed || paused) && final:
			return
		case failed:
			if !p.waitSettled(ctx) {
				continue
			}
			if p.Stats().Refused {
				// Not an outage: no backoff here; the refusal's re-check decides when to
				// send again. What was handed out is sent again then, from the oldest.
				p.spool.Rewind()
				p.mu.Lock()
				p.failed = false
				p.mu.Unlock()
				continue
			}
			// Back off longer while nothing gets through; start again short once it does.
			if acked := p.Stats().Acked; acked > ackedAtRewind {
				backoff, ackedAtRewind = p.opt.MinBackoff, acked
			} else {
				backoff = min(2*backoff, p.opt.MaxBackoff)
			}
			p.log.Warn("kafka: resending from the oldest unacknowledged sample", "after", backoff)
			sleep(ctx, backoff)
			p.spool.Rewind()
			p.mu.Lock()
			p.failed = false
			p.mu.Unlock()
			continue
		case paused:
			p.waitResume(ctx)
			continue
		case room <= 0:
			p.wait(ctx, nil)
			continue
		case room < p.opt.MaxInFlight/4:
			// Refill in bursts: records trickled in one at a time make one-record batches,
			// and five requests in flight per broker (the idempotent limit) then cap the
			// rate. Wait a linger for a quarter of the window to free, then send anyway.
			room = p.waitRoom(ctx, p.opt.MaxInFlight/4, 20*time.Millisecond)
		}
		recs, err := p.spool.Next(room)
		if err != nil {
			p.log.Error("spool: read", "err", err)
			sleep(ctx, p.opt.MinBackoff)
			continue
		}
		if len(recs) == 0 {
			if final {
				return
			}
			p.wait(ctx, p.spool.Notify())
			continue
		}
		for i := range recs {
			// After a failure send nothing more: franz-go fails every record buffered for
			// the failed partition, so one link's later records cannot overtake it. The
			// records read and not sent are handed out again after the rewind.
			if p.stopSending() {
				break
			}
			p.send(&recs[i])
		}
	}
}

// stopSending says to stop, after a failed send or once Kafka refuses the agent; then the
// feed is failed, so the spool is rewound before anything more is sent.
func (p *Publisher) stopSending() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ref.paused() {
		p.failed = true
	}
	return p.failed
}

func (p *Publisher) send(r *Record) {
	p.mu.Lock()
	p.outstanding++
	p.st.Sent++
	prod := p.prod
	p.mu.Unlock()
	seq := r.Seq
	topic := r.Topic
	if p.opt.Topic != nil {
		topic = p.opt.Topic(topic)
	}
	kr := &kgo.Record{Topic: topic, Key: r.Key, Value: r.Value, Headers: []kgo.RecordHeader{sentHeader(p.opt.Clock())}}
	// Not the run context: cancelling it must not fail records already handed over.
	prod.Produce(context.Background(), kr, func(r *kgo.Record, err error) { p.done(seq, r.Topic, err) })
}

func (p *Publisher) done(seq uint64, topic string, err error) {
	undeliverable := errors.Is(err, kerr.MessageTooLarge) || errors.Is(err, kerr.RecordListTooLarge)
	if err == nil || undeliverable {
		p.spool.Ack(seq)
	}
	reason, refused := kafkaconn.Refusal(err)
	if errors.Is(err, kerr.TopicAuthorizationFailed) {
		reason = topic + ": " + reason // which right is missing: the raw topics' or the dead letters'
	}
	p.mu.Lock()
	switch {
	case err == nil:
		p.st.Acked++
		p.st.LastAck = time.Now()
		p.st.Connected = true
		if p.ref.on {
			p.acceptLocked("an acknowledgement")
		}
	case refused:
		// Kafka refused the record (an ACL, a revoked agent): stop sending, keep it and
		// everything after it in the spool until the re-check finds the agent accepted.
		p.st.Failed++
		p.st.LastError, p.st.LastErrorAt = err.Error(), time.Now()
		p.st.Connected = false
		p.failed = true
		p.refuseLocked(reason, bySend)
	case p.ref.on && p.prodClosed:
		// the refused client was closed with records buffered: they are sent again from the
		// spool once the agent is accepted
		p.failed = true
	case undeliverable:
		p.st.Undeliverable++
		p.log.Error("kafka refused a sample for good; removed from the spool", "seq", seq, "err", err)
	case p.closing:
		// the client is being closed with records in flight: they stay in the spool
	default:
		if !p.failed {
			p.log.Warn("kafka: send failed; pausing", "seq", seq, "err", err)
		}
		p.st.Failed++
		p.st.LastError, p.st.LastErrorAt = err.Error(), time.Now()
		p.failed = true
	}
	p.outstanding--
	p.mu.Unlock()
	select {
	case p.settled <- struct{}{}:
	default:
	}
}

func (p *Publisher) flush(ctx context.Context) error {
	defer func() {
		p.mu.Lock()
		p.closing = true
		p.mu.Unlock()
	}()
	p.mu.Lock()
	prod, closed := p.prod, p.prodClosed
	p.mu.Unlock()
	if closed { // refused: what was buffered is back in the spool
		return nil
	}
	err := prod.Flush(ctx)
	st := p.Stats()
	if err != nil {
		p.log.Warn("kafka: flush on shutdown incomplete; the rest stays in the spool", "outstanding", st.Outstanding, "err", err)
	}
	return err
}
