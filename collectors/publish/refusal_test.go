package publish

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/logtest"
)

// scramBroker stands in for a secured Kafka in these unit tests (the integration test uses a
// real one): it takes a client whose password is its user's, and its topics only while the
// user has the ACL. Clients behave as franz-go's do: with a wrong password Ping fails with
// SASL_AUTHENTICATION_FAILED and Produce never returns (the client retries its handshake for
// ever); without the ACL Produce fails at once with TOPIC_AUTHORIZATION_FAILED.
type scramBroker struct {
	mu        sync.Mutex
	password  string
	noACL     bool
	away      bool
	delivered []string
	dials     int // clients made (the first and every Redial)
	produced  int // Produce calls, from every client
	changed   chan struct{}
}

func newScramBroker(password string) *scramBroker {
	return &scramBroker{password: password, changed: make(chan struct{}, 1)}
}

// client is one producer, with the password it was made with.
type client struct {
	b        *scramBroker
	password string
	mu       sync.Mutex
	closed   bool
	held     []heldRecord
}

func (b *scramBroker) dial(password string) *client {
	b.mu.Lock()
	b.dials++
	b.mu.Unlock()
	return &client{b: b, password: password}
}

var errSASL = fmt.Errorf("unable to initialize sasl: %w", kerr.SaslAuthenticationFailed)

func (c *client) Produce(_ context.Context, r *kgo.Record, promise func(*kgo.Record, error)) {
	b := c.b
	b.mu.Lock()
	b.produced++
	authed, acl := c.password == b.password, !b.noACL
	c.mu.Lock()
	closed := c.closed
	switch {
	case closed:
	case !authed:
		c.held = append(c.held, heldRecord{r, promise})
	case acl:
		b.delivered = append(b.delivered, string(r.Value))
	}
	c.mu.Unlock()
	b.mu.Unlock()
	switch {
	case closed:
		promise(r, kgo.ErrClientClosed)
	case !authed:
	case acl:
		promise(r, nil)
	default:
		promise(r, kerr.TopicAuthorizationFailed)
	}
	b.signal()
}

func (b *scramBroker) signal() {
	select {
	case b.changed <- struct{}{}:
	default:
	}
}

func (c *client) Flush(context.Context) error { return nil }

func (c *client) Ping(context.Context) error {
	c.b.mu.Lock()
	defer c.b.mu.Unlock()
	switch {
	case c.b.away:
		return errors.New("dial tcp 127.0.0.1:9092: connect: connection refused")
	case c.password != c.b.password:
		return errSASL
	}
	return nil
}

// Close fails what the client holds, as franz-go's Close does.
func (c *client) Close() {
	c.mu.Lock()
	held := c.held
	c.held, c.closed = nil, true
	c.mu.Unlock()
	for _, h := range held {
		h.promise(h.r, kgo.ErrClientClosed)
	}
}

func (b *scramBroker) snapshot() (delivered []string, dials, produced int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.delivered...), b.dials, b.produced
}

func (b *scramBroker) set(f func(b *scramBroker)) {
	b.mu.Lock()
	f(b)
	b.mu.Unlock()
}

// passwordFile stands for the agent's password file, which Redial re-reads.
type passwordFile struct {
	mu      sync.Mutex
	content string
	err     error
}

func (f *passwordFile) read() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.content, f.err
}

func (f *passwordFile) write(s string, err error) {
	f.mu.Lock()
	f.content, f.err = s, err
	f.mu.Unlock()
}

func startRefusable(t *testing.T, s *Spool, b *scramBroker, pw *passwordFile) (*Publisher, *logtest.Buffer) {
	t.Helper()
	logs := &logtest.Buffer{}
	first, _ := pw.read()
	p := NewPublisher(s, b.dial(first), PublisherOptions{MaxInFlight: 50, MinBackoff: time.Millisecond,
		MaxBackoff: 5 * time.Millisecond, PingEvery: 5 * time.Millisecond,
		RecheckMin: 20 * time.Millisecond, RecheckMax: 80 * time.Millisecond,
		Redial: func() (Producer, error) {
			password, err := pw.read()
			if err != nil {
				return nil, err
			}
			return b.dial(password), nil
		},
		Who:    []any{"user", "agent-test"},
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done; p.Close() })
	return p, logs
}

func waitFor(t *testing.T, b *scramBroker, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-b.changed:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			d, dials, produced := b.snapshot()
			t.Fatalf("timed out waiting for %s: delivered %d, dials %d, produced %d", what, len(d), dials, produced)
		}
	}
}

// A wrong password: the agent says so once, sends nothing, keeps every sample, re-checks on
// a backoff re-reading the password file, and once the file is right drains the spool: every
// sample once, in order.
func TestARefusedPasswordKeepsEverySampleAndDrainsOnceTheFileIsFixed(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	b := newScramBroker("pw-R1ght-9")
	pw := &passwordFile{content: "pw-Wr0ng-7"}
	p, logs := startRefusable(t, s, b, pw)
	appendN(t, s, "r", 300, ClassKeep)
	waitFor(t, b, "the refusal", func() bool { return p.Stats().Refused })
	st := p.Stats()
	if !strings.HasPrefix(st.Reason, "authentication refused") || st.Connected || st.RefusedSince.IsZero() || st.NextCheck.IsZero() {
		t.Fatalf("refused: %+v", st)
	}
	waitFor(t, b, "what the refused client held to settle", func() bool { return p.Stats().Outstanding == 0 })
	_, dials0, produced0 := b.snapshot()
	t0 := time.Now()
	appendN(t, s, "s", 200, ClassKeep) // runs go on while refused
	time.Sleep(500 * time.Millisecond)
	delivered, dials, produced := b.snapshot()
	elapsed := time.Since(t0)
	if len(delivered) != 0 || s.Stats().Samples != 500 {
		t.Fatalf("while refused: %d delivered, %d in the spool", len(delivered), s.Stats().Samples)
	}
	if produced != produced0 {
		t.Errorf("while refused %d records were handed to a client", produced-produced0)
	}
	// a re-check every 20, 40, 80, 80 ... ms, not a loop
	if n := dials - dials0; n < 3 || n > int(elapsed/(80*time.Millisecond))+2 {
		t.Errorf("%d re-checks in %s (backoff 20 ms doubling to 80 ms)", n, elapsed)
	}
	if n := logs.Count("kafka refuses this agent"); n != 1 {
		t.Errorf("the refusal was logged %d times:\n%s", n, logs)
	}
	if !strings.Contains(logs.String(), "user=agent-test") {
		t.Errorf("the refusal does not name the user:\n%s", logs)
	}

	pw.write("pw-R1ght-9", nil)
	waitFor(t, b, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	delivered, _, _ = b.snapshot()
	want := append(valuesOf("r", 300), valuesOf("s", 200)...)
	if fmt.Sprint(delivered) != fmt.Sprint(want) {
		t.Fatalf("delivered %d records, want the 500 once each in spool order", len(delivered))
	}
	if st := p.Stats(); st.Refused || !st.Connected || st.Reason != "" {
		t.Errorf("after the fix: %+v", st)
	}
	if n := logs.Count("kafka accepts this agent again"); n != 1 {
		t.Errorf("acceptance logged %d times:\n%s", n, logs)
	}
	if strings.Contains(logs.String(), "pw-R1ght-9") || strings.Contains(logs.String(), "pw-Wr0ng-7") {
		t.Errorf("a password reached the log:\n%s", logs)
	}
}

// The agent's ACL missing (or its user revoked): sends fail at once. That is a refusal too,
// not a send to retry: the feed stops, sending is tried again on the backoff, and resumes for
// good when the ACL is back.
func TestARefusedTopicIsARefusalAndDrainsOnceTheACLIsBack(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	b := newScramBroker("pw-R1ght-9")
	b.noACL = true
	p, logs := startRefusable(t, s, b, &passwordFile{content: "pw-R1ght-9"})
	appendN(t, s, "r", 300, ClassKeep)
	waitFor(t, b, "the refusal", func() bool { return p.Stats().Refused })
	if st := p.Stats(); st.Reason != "longhaul.raw.throughput: not authorized for the topic (no ACL for this user, or it was revoked)" {
		t.Fatalf("reason %q", st.Reason)
	}
	_, _, produced0 := b.snapshot()
	time.Sleep(500 * time.Millisecond)
	_, _, produced := b.snapshot()
	// each re-check sends one window again (50) at most: 20, 40, 80, 80 ... ms
	if n := produced - produced0; n > 8*50 {
		t.Errorf("%d sends in 500 ms while refused", n)
	}
	if n := logs.Count("kafka refuses this agent"); n != 1 {
		t.Errorf("the refusal was logged %d times:\n%s", n, logs)
	}
	b.set(func(b *scramBroker) { b.noACL = false })
	waitFor(t, b, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	delivered, _, _ := b.snapshot()
	if fmt.Sprint(delivered) != fmt.Sprint(valuesOf("r", 300)) {
		t.Fatalf("delivered %d records, want the 300 once each in order", len(delivered))
	}
	if st := p.Stats(); st.Refused || logs.Count("kafka accepts this agent again") != 1 {
		t.Errorf("after the fix: %+v\n%s", st, logs)
	}
}

// A password file that cannot be read at a re-check keeps the refusal, with that reason
// (logged once), and is read again at the next.
func TestAnUnreadablePasswordFileAtARecheckKeepsTheRefusal(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	b := newScramBroker("pw-R1ght-9")
	pw := &passwordFile{content: "pw-Wr0ng-7"}
	p, logs := startRefusable(t, s, b, pw)
	waitFor(t, b, "the refusal", func() bool { return p.Stats().Refused })
	pw.write("", errors.New("kafka.sasl.password_file: password file /etc/longhaul/kafka.password is empty"))
	waitFor(t, b, "the new reason", func() bool { return strings.HasPrefix(p.Stats().Reason, "the credential cannot be read: ") })
	time.Sleep(200 * time.Millisecond)
	if n := logs.Count("kafka still refuses this agent, now: the credential cannot be read"); n != 1 {
		t.Errorf("the new reason was logged %d times:\n%s", n, logs)
	}
	pw.write("pw-R1ght-9", nil)
	waitFor(t, b, "acceptance", func() bool { return !p.Stats().Refused && p.Stats().Connected })
}

// The broker away is an outage, not a refusal, even while the agent was refused: the records
// wait in the client as before.
func TestABrokerAwayIsAnOutageNotARefusal(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	b := newScramBroker("pw-R1ght-9")
	pw := &passwordFile{content: "pw-Wr0ng-7"}
	p, logs := startRefusable(t, s, b, pw)
	waitFor(t, b, "the refusal", func() bool { return p.Stats().Refused })
	b.set(func(b *scramBroker) { b.away = true })
	pw.write("pw-R1ght-9", nil)
	waitFor(t, b, "the refusal to end in an outage", func() bool { st := p.Stats(); return !st.Refused && !st.Connected })
	if !strings.Contains(logs.String(), "no longer refuses this agent but is unreachable") {
		t.Errorf("logs:\n%s", logs)
	}
	appendN(t, s, "r", 10, ClassKeep)
	b.set(func(b *scramBroker) { b.away = false })
	waitFor(t, b, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	// connected is set by the publisher's loop after the acks that drained the spool: on a busy
	// machine the two are not seen at once (seen failing so while make test ran beside it)
	waitFor(t, b, "connected, not refused", func() bool { st := p.Stats(); return !st.Refused && st.Connected })
}

// A revoked agent: first its ACLs go (sends refused at once), then its user (the re-check's
// sends wait in the client for a handshake that fails). The probe times out, the handshake
// is checked, the waiting client closed; added again, the agent drains everything once.
func TestARevokedAgentIsRefusedUntilAddedAgainAndLosesNothing(t *testing.T) {
	s := openSpool(t, t.TempDir(), testOptions())
	b := newScramBroker("pw-R1ght-9")
	p, logs := startRefusable(t, s, b, &passwordFile{content: "pw-R1ght-9"})
	appendN(t, s, "r", 100, ClassKeep)
	waitFor(t, b, "the first records", func() bool { d, _, _ := b.snapshot(); return len(d) == 100 })
	b.set(func(b *scramBroker) { b.noACL = true })
	appendN(t, s, "s", 100, ClassKeep)
	waitFor(t, b, "the refusal", func() bool { return p.Stats().Refused })
	b.set(func(b *scramBroker) { b.password = "removed" })
	waitFor(t, b, "the handshake to be found refused", func() bool {
		return strings.HasPrefix(p.Stats().Reason, "authentication refused")
	})
	time.Sleep(200 * time.Millisecond)
	if st := p.Stats(); !st.Refused || st.Outstanding != 0 {
		t.Fatalf("while revoked: %+v", st)
	}
	b.set(func(b *scramBroker) { b.password, b.noACL = "pw-R1ght-9", false })
	waitFor(t, b, "the spool to drain", func() bool { return s.Stats().Samples == 0 })
	delivered, _, _ := b.snapshot()
	if want := append(valuesOf("r", 100), valuesOf("s", 100)...); fmt.Sprint(delivered) != fmt.Sprint(want) {
		t.Fatalf("delivered %d records, want the 200 once each in order", len(delivered))
	}
	if n := logs.Count("kafka refuses this agent"); n != 1 {
		t.Errorf("the refusal was logged %d times:\n%s", n, logs)
	}
	if n := logs.Count("kafka still refuses this agent, now: authentication refused"); n != 1 {
		t.Errorf("the new reason was logged %d times:\n%s", n, logs)
	}
}
