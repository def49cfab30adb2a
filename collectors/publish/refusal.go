package publish

import (
	"context"
	"time"

	"longhaul/internal/kafkaconn"
)

// A refusal is Kafka saying no to this agent — a wrong password, a removed user, a missing
// ACL, a CA that does not match (kafkaconn.Refusal) — rather than being away. It is not
// retried like an outage: it lasts until someone fixes a credential, a file or an ACL. While
// it lasts the publisher sends nothing and hands nothing to the client (franz-go would retry
// its SASL handshake every ~5 s for ever, logging each time), every sample stays in the
// spool, and the refusal is re-checked after RecheckMin, then twice as long each time up to
// RecheckMax, re-reading the credential files (Redial): fixing the password file, or an
// admin rotating the password to the file's, is picked up without a restart, and the spool
// drains from its oldest unacknowledged sample. Each change of state is logged once.
type refusal struct {
	on      bool
	reason  string // what to fix, one line (kafkaconn.Refusal)
	by      string // byPing (authentication, TLS) or bySend (authorization of a topic)
	since   time.Time
	next    time.Time     // the next re-check
	wait    time.Duration // the current re-check period
	checks  uint64
	probing bool // a send refusal's re-check: sending again until Kafka acknowledges or refuses
	probeTo time.Time
	// redial: the last re-send heard nothing either way; the next re-check makes a new client
	// and checks its handshake before sending again (a passing handshake does not lift a
	// refusal seen by a send: the topic's ACL is what refused).
	redial bool
}

// How a refusal was seen; it is lifted by the same kind of evidence: a ping that passes the
// handshake, or an acknowledged record.
const (
	byPing = "ping"
	bySend = "send"
)

// paused: nothing may be sent.
func (r refusal) paused() bool { return r.on && !r.probing }

// refuseLocked records a refusal; logged when it starts or its reason changes.
func (p *Publisher) refuseLocked(reason, by string) {
	now := time.Now()
	if !p.ref.on {
		p.ref = refusal{on: true, reason: reason, by: by, since: now, wait: p.opt.RecheckMin, next: now.Add(p.opt.RecheckMin)}
		p.st.Connected = false
		p.log.Error("kafka refuses this agent: "+reason+"; every sample stays in the spool, and the credential files are "+
			"re-read and tried again every "+p.opt.RecheckMax.String()+" at most",
			append(append([]any{}, p.opt.Who...), "seen_by", by)...)
		return
	}
	if p.ref.probing { // the re-check sent again and was refused again
		p.ref.probing = false
		p.scheduleLocked(now)
	}
	if reason != p.ref.reason {
		p.log.Error("kafka still refuses this agent, now: "+reason, append(append([]any{}, p.opt.Who...), "seen_by", by)...)
		p.ref.reason = reason
	}
	p.ref.by = by
}

// scheduleLocked sets the next re-check, backing off up to RecheckMax.
func (p *Publisher) scheduleLocked(now time.Time) {
	p.ref.wait = min(2*p.ref.wait, p.opt.RecheckMax)
	p.ref.next = now.Add(p.ref.wait)
}

// acceptLocked lifts the refusal: logged once, and the feed resumes.
func (p *Publisher) acceptLocked(evidence string) {
	p.log.Info("kafka accepts this agent again; sending what the spool kept meanwhile",
		append(append([]any{}, p.opt.Who...), "refused_for", time.Since(p.ref.since).Round(time.Second).String(),
			"seen_by", evidence, "spooled", p.spool.Stats().Samples)...)
	p.ref = refusal{}
	p.signalResume()
}

func (p *Publisher) signalResume() {
	select {
	case p.resume <- struct{}{}:
	default:
	}
}

// waitResume blocks while the feed is paused by a refusal (bounded, so ctx is seen).
func (p *Publisher) waitResume(ctx context.Context) {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-p.resume:
	case <-t.C:
	}
}

// monitor pings Kafka every PingEvery and logs each change of reachability; while Kafka
// refuses the agent it re-checks instead, on the refusal's schedule.
func (p *Publisher) monitor(ctx context.Context) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p.mu.Lock()
		ref := p.ref
		p.mu.Unlock()
		now := time.Now()
		switch {
		case ref.probing && now.After(ref.probeTo):
			// Sent again and heard nothing either way: nothing to send, or the records wait
			// in the client because its handshake now fails (the user was removed too). Count
			// it refused, and check the handshake next: a new client, a ping.
			p.mu.Lock()
			p.ref.probing, p.ref.redial = false, true
			p.scheduleLocked(now)
			p.mu.Unlock()
		case ref.probing:
		case ref.on && now.Before(ref.next):
		case ref.on:
			p.recheck(ctx)
		default:
			p.ping(ctx)
		}
		p.mu.Lock()
		next := p.opt.PingEvery
		if p.ref.on && !p.ref.probing {
			next = max(time.Until(p.ref.next), time.Millisecond)
		}
		p.mu.Unlock()
		t.Reset(next)
	}
}

// ping asks Kafka whether it is reachable and whether it takes the agent's credential.
func (p *Publisher) ping(ctx context.Context) {
	p.mu.Lock()
	prod := p.prod
	p.mu.Unlock()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err := prod.Ping(pctx)
	cancel()
	if ctx.Err() != nil {
		return
	}
	reason, refused := kafkaconn.Refusal(err)
	p.mu.Lock()
	was := p.st.Connected
	p.st.Connected = err == nil
	if err != nil {
		p.st.LastError, p.st.LastErrorAt = err.Error(), time.Now()
	}
	if refused {
		p.refuseLocked(reason, byPing)
		p.mu.Unlock()
		p.retire()
		return
	}
	p.mu.Unlock()
	switch {
	case was && err != nil:
		p.log.Warn("kafka: unreachable; samples wait in the spool", "err", err)
	case !was && err == nil:
		p.log.Info("kafka: reachable")
	}
}

// retire closes a refused producer the publisher owns: its buffered records fail back to the
// spool (none had reached Kafka: it never got past the handshake) and franz-go stops retrying.
func (p *Publisher) retire() {
	if p.opt.Redial == nil {
		return
	}
	p.mu.Lock()
	prod, closed := p.prod, p.prodClosed
	p.prodClosed = true
	p.mu.Unlock()
	if !closed {
		closeProducer(prod)
	}
}

// recheck tries a refused agent again: a new client on the credentials as they are now, and a
// ping; for a refused topic, sending again.
func (p *Publisher) recheck(ctx context.Context) {
	p.mu.Lock()
	p.ref.checks++
	by, prod, redial := p.ref.by, p.prod, p.ref.redial
	p.ref.redial = false
	p.mu.Unlock()
	fresh := false
	if p.opt.Redial != nil && (by == byPing || redial || p.isClosed()) {
		p.retire() // what the old client still holds comes back to the spool
		np, err := p.opt.Redial()
		if err != nil {
			p.mu.Lock()
			p.refuseLocked("the credential cannot be read: "+err.Error(), byPing)
			p.scheduleLocked(time.Now())
			p.mu.Unlock()
			return
		}
		prod, fresh = np, true
	}
	if by == bySend && !fresh {
		p.mu.Lock()
		p.ref.probing, p.ref.probeTo = true, time.Now().Add(p.opt.RecheckMax)
		p.mu.Unlock()
		p.signalResume()
		return
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	err := prod.Ping(pctx)
	cancel()
	reason, refused := kafkaconn.Refusal(err)
	if refused || ctx.Err() != nil {
		if fresh {
			closeProducer(prod)
		}
		p.mu.Lock()
		if refused {
			p.refuseLocked(reason, byPing)
		}
		p.scheduleLocked(time.Now())
		p.mu.Unlock()
		return
	}
	p.mu.Lock()
	if fresh {
		p.prod, p.prodClosed = prod, false
	}
	p.st.Connected = err == nil
	switch {
	case err == nil && by == byPing:
		p.acceptLocked("a ping")
	case err == nil: // the handshake passes; whether the topics do, the first send says
		p.ref.probing, p.ref.probeTo = true, time.Now().Add(p.opt.RecheckMax)
		p.signalResume()
	default: // no longer refused, but away: an outage, handled as one
		p.st.LastError, p.st.LastErrorAt = err.Error(), time.Now()
		p.log.Warn("kafka: no longer refuses this agent but is unreachable; samples wait in the spool",
			append(append([]any{}, p.opt.Who...), "err", err)...)
		p.ref = refusal{}
		p.signalResume()
	}
	p.mu.Unlock()
}

func (p *Publisher) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.prodClosed
}

// Close closes the producer in use when the publisher owns it (Redial set); after Run. It is
// retire: the producer closes once, whichever comes first.
func (p *Publisher) Close() { p.retire() }

func closeProducer(prod Producer) {
	if c, ok := prod.(interface{ Close() }); ok {
		c.Close()
	}
}
