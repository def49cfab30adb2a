package agent

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/collectors/config"
	"longhaul/collectors/publish"
	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
	"longhaul/internal/settings"
	"longhaul/perfsonar/psbridge"
)

// psBridge is the agent's pScheduler bridge: results from the HTTP archiver (psbridge.Handler,
// served by Run, knowing the sender by its token) and from the Kafka archiver's topics (by the
// topic) go through acceptFrom into the spool, like the samples of the agent's own probes.
type psBridge struct {
	cfg    config.PSBridge
	seen   *psbridge.Seen
	sharer *kgo.Client // writes the keys converted here for the fleet's bridges, once shareSeen runs
	tokens *psbridge.Tokens
	mu     sync.Mutex
	st     PSBridgeHealth
	conns  *connLimit // the HTTP endpoint's connections, once it serves
}

// PSBridgeHealth is the bridge's part of /health.
type PSBridgeHealth struct {
	HTTP         string            `json:"http,omitempty"`  // the endpoint archivers post to
	Topic        string            `json:"topic,omitempty"` // the topic the Kafka archiver writes
	Accepted     uint64            `json:"accepted"`        // results converted and spooled
	Samples      uint64            `json:"samples"`         // their samples
	Duplicates   uint64            `json:"duplicates"`      // results delivered again: nothing added
	DeadLettered uint64            `json:"dead_lettered"`   // results that cannot be converted
	ByInput      map[string]uint64 `json:"by_input"`        // results taken, by input (http, kafka)
	Unauthorized uint64            `json:"unauthorized"`    // posts without the right token
	TooLarge     uint64            `json:"too_large"`       // posts over max_body
	Busy         uint64            `json:"busy"`            // posts refused while max_concurrent were converted
	Throttled    uint64            `json:"throttled"`       // posts of a host's own token over host_rate
	Remembered   int               `json:"remembered"`      // result keys kept to spot duplicates
	Shared       uint64            `json:"shared"`          // keys of results converted here, written for the fleet's other bridges
	Unshared     uint64            `json:"unshared"`        // keys not written (Kafka away too long, refused): a retry elsewhere is converted again
	Learnt       uint64            `json:"learnt"`          // keys other bridges converted, new here
	BadShares    uint64            `json:"bad_shares"`      // shared keys that could not be read
	SharesUntil  int64             `json:"shares_until_ms"` // the broker's time of the newest shared key read (epoch ms): how far this bridge knows the fleet's
	Connections  int64             `json:"connections"`     // HTTP connections open
	ConnsMax     int               `json:"connections_max"` // the most that may be open (the open-files limit less what the bridge keeps)
	KeepAliveOff uint64            `json:"keepalive_shed"`  // times keep-alives were turned off near connections_max
	LastResult   *time.Time        `json:"last_result,omitempty"`
	LastError    string            `json:"last_error,omitempty"` // the Kafka input's, or the spool's
	LastErrorAt  *time.Time        `json:"last_error_at,omitempty"`
}

// maxDeadPayload bounds the result kept in a dead letter: a Kafka message is at most 1 MB.
const maxDeadPayload = 768 << 10

func newPSBridge(cfg config.PSBridge) (*psBridge, error) {
	b := &psBridge{cfg: cfg, st: PSBridgeHealth{Topic: cfg.Topic, ByInput: map[string]uint64{}}}
	if cfg.Listen != "" {
		var shared []byte
		if cfg.TokenFile != "" {
			tok, err := settings.Secret(cfg.TokenFile)
			if err != nil {
				return nil, fmt.Errorf("pscheduler_bridge.token_file: %w", err)
			}
			shared = []byte(tok)
		}
		tokens, err := psbridge.NewTokens(shared, contract.HTTPArchiver, cfg.HostTokensDir, contract.HTTPHostPrefix, contract.IsHTTPHost)
		if err != nil {
			return nil, err
		}
		b.tokens = tokens
	}
	seen, err := psbridge.OpenSeen(cfg.SeenFile, cfg.SeenCapacity)
	if err != nil {
		return nil, fmt.Errorf("pscheduler_bridge.seen_file: %w", err)
	}
	b.seen = seen
	return b, nil
}

// acceptFrom converts one result identity delivered through input and spools its samples, or
// spools it whole as a dead letter with the reason: it cannot be converted, it makes too many
// samples, or identity may not report for its hosts (pscheduler_bridge.hosts). A result already
// converted, the same run saying the same (psbridge.Converted.SeenKey), is a duplicate. An error means
// nothing was kept: the caller delivers it again (the HTTP archiver retries on 503; the Kafka
// input does not commit past it).
func (a *Agent) acceptFrom(body []byte, input, identity string) (psbridge.Outcome, error) {
	conv, cerr := psbridge.Convert(body)
	if cerr == nil && len(conv.Samples) > a.psb.cfg.MaxSamples {
		// kept whole in a dead letter with the reason, like a result that cannot be converted:
		// a retry would be no smaller
		cerr = fmt.Errorf("the result makes %d samples, more than pscheduler_bridge.max_samples (%d)", len(conv.Samples), a.psb.cfg.MaxSamples)
		conv.Samples = nil
	}
	if cerr == nil {
		if why := psbridge.Hosts(a.psb.cfg.Hosts).Refusal(identity, conv); why != "" {
			cerr, conv.Samples = errors.New(why), nil
		}
	}
	var seenKey string
	if cerr == nil {
		if seenKey, cerr = conv.SeenKey(); cerr != nil {
			conv.Samples = nil
		}
	}
	a.sinkMu.Lock()
	defer a.sinkMu.Unlock()
	b := a.psb
	var out psbridge.Outcome
	var recs []publish.Record
	switch {
	case cerr != nil:
		rec, err := a.deadResult(body, input, cerr)
		if err != nil {
			return out, err
		}
		recs, out = []publish.Record{rec}, psbridge.Outcome{Status: psbridge.DeadLettered, Reason: cerr.Error()}
	case b.seen.Has(seenKey):
		b.count(input, psbridge.Outcome{Status: psbridge.Duplicate}, a.opt.Clock.Now())
		return psbridge.Outcome{Status: psbridge.Duplicate, Key: conv.Key}, nil
	default:
		for _, s := range conv.Samples {
			rec, dl, err := a.enc.encode(s)
			if err != nil {
				return out, err
			}
			if dl {
				a.log.Warn("a pScheduler result's sample failed validation; spooled as a dead letter",
					"key", conv.Key, "schema", s.Head().Schema)
			}
			recs = append(recs, rec)
		}
		out = psbridge.Outcome{Status: psbridge.Accepted, Key: conv.Key, Samples: len(recs)}
	}
	// all of the result or none: an archiver told "accepted" forgets the result
	if err := a.appendAllRetry(recs); err != nil {
		b.fail(err, a.opt.Clock.Now())
		return psbridge.Outcome{}, fmt.Errorf("the spool cannot store it: %w", err)
	}
	if out.Status == psbridge.Accepted {
		a.stats.add(len(recs), 0, 0)
		if err := b.seen.Add(seenKey); err != nil {
			a.log.Error("pscheduler bridge: cannot remember a result; a retry of it would be converted again", "err", err)
		}
		b.share(conv, seenKey, a.cfg.Src, a.opt.Clock.Now())
	} else {
		a.stats.add(0, 1, 0)
		a.log.Warn("pScheduler result cannot be converted; spooled as a dead letter", "input", input, "reason", out.Reason)
	}
	b.count(input, out, a.opt.Clock.Now())
	return out, nil
}

// deadResult is the dead letter of a result that cannot be converted.
func (a *Agent) deadResult(body []byte, input string, cause error) (publish.Record, error) {
	reason := "pScheduler result from " + input + ": " + cause.Error()
	if len(body) > maxDeadPayload {
		reason += fmt.Sprintf(" (payload cut to its first %d of %d bytes)", maxDeadPayload, len(body))
		body = body[:maxDeadPayload]
	}
	h := &sample.Envelope{}
	dl, err := newDeadLetter(h, contract.TopicPschedulerResults, body, reason, a.opt.Clock.Now())
	if err != nil {
		return publish.Record{}, err
	}
	return publish.Record{Class: publish.ClassKeep, Topic: sample.TopicDeadLetter, Key: []byte(sample.LinkKey("unknown", "unknown")), Value: dl}, nil
}

func (b *psBridge) count(input string, out psbridge.Outcome, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.ByInput[input]++
	switch out.Status {
	case psbridge.Accepted:
		b.st.Accepted++
		b.st.Samples += uint64(out.Samples)
	case psbridge.Duplicate:
		b.st.Duplicates++
	case psbridge.DeadLettered:
		b.st.DeadLettered++
	}
	b.st.LastResult = &now
}

func (b *psBridge) fail(err error, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.LastError, b.st.LastErrorAt = err.Error(), &now
}

// Unauthorized, TooLarge and Busy count the endpoint's refusals (psbridge.Refusals).
func (b *psBridge) Unauthorized() { b.mu.Lock(); b.st.Unauthorized++; b.mu.Unlock() }
func (b *psBridge) TooLarge()     { b.mu.Lock(); b.st.TooLarge++; b.mu.Unlock() }
func (b *psBridge) Busy()         { b.mu.Lock(); b.st.Busy++; b.mu.Unlock() }
func (b *psBridge) Throttled()    { b.mu.Lock(); b.st.Throttled++; b.mu.Unlock() }

func (b *psBridge) health() *PSBridgeHealth {
	b.mu.Lock()
	defer b.mu.Unlock()
	h := b.st
	h.ByInput = make(map[string]uint64, len(b.st.ByInput))
	for k, v := range b.st.ByInput {
		h.ByInput[k] = v
	}
	h.Remembered = b.seen.Len()
	if b.conns != nil {
		h.Connections, h.ConnsMax, h.KeepAliveOff = b.conns.Stats()
	}
	return &h
}
