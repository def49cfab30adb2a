package agent

import (
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
	// settling: results written to the spool and not yet durable (psbridge_accept.go), by their
	// seen key, each closed once settled; under the agent's sinkMu
	settling map[string]chan struct{}
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
	BusyFull     uint64            `json:"busy_queue_full"` // of them, turned away at once: the queue behind the slots full (the rest waited it out)
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
	b := &psBridge{cfg: cfg, st: PSBridgeHealth{Topic: cfg.Topic, ByInput: map[string]uint64{}}, settling: map[string]chan struct{}{}}
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

// Unauthorized, TooLarge and Throttled count the endpoint's refusals (psbridge.Refusals).
func (b *psBridge) Unauthorized() { b.mu.Lock(); b.st.Unauthorized++; b.mu.Unlock() }
func (b *psBridge) TooLarge()     { b.mu.Lock(); b.st.TooLarge++; b.mu.Unlock() }
func (b *psBridge) Throttled()    { b.mu.Lock(); b.st.Throttled++; b.mu.Unlock() }

// Busy counts a post the endpoint had no slot for, and whether the queue was full.
func (b *psBridge) Busy(queueFull bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.st.Busy++
	if queueFull {
		b.st.BusyFull++
	}
}

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
