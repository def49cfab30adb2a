package kafkaconn

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

func TestABootstrapListIsCheckedAddressByAddress(t *testing.T) {
	c, err := Parse("a:9092, b:9093")
	if err != nil || len(c.Bootstrap) != 2 || c.Bootstrap[1] != "b:9093" || c.Security != SASLSSL {
		t.Fatalf("%+v %v", c, err)
	}
	for in, want := range map[string]string{"": "no Kafka bootstrap", "a:9092,b": `"b": want host:port`, "a:0": "port from 1"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

func TestSecurityIsOnUnlessTurnedOffByName(t *testing.T) {
	c, _ := Parse("a:9092")
	if _, err := c.WithSecurity(Security{}); err == nil || !strings.Contains(err.Error(), "needs a SCRAM user") {
		t.Fatalf("no settings: %v", err)
	}
	if _, err := c.WithSecurity(Security{Mode: "none"}); err == nil || !strings.Contains(err.Error(), `"none" is not`) {
		t.Fatalf("unknown mode: %v", err)
	}
	p, err := c.WithSecurity(Security{Mode: Plaintext})
	if err != nil || p.Security != Plaintext {
		t.Fatalf("plaintext: %+v %v", p, err)
	}
	if opts, err := p.Opts(); err != nil || len(opts) != 1 {
		t.Fatalf("plaintext options: %d %v", len(opts), err)
	}
}

func TestThePasswordComesFromItsFileAndIsNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "agent.password")
	os.WriteFile(pw, []byte("hunter2-very-secret\n"), 0o600)
	c, _ := Parse("a:9092")
	s, err := c.WithSecurity(Security{User: "agent-cern", PasswordFile: pw})
	if err != nil || s.password != "hunter2-very-secret" {
		t.Fatalf("%v", err)
	}
	for _, shown := range []string{s.String(), fmt.Sprintf("%v", s), fmt.Sprintf("%+v", s)} {
		if strings.Contains(shown, "hunter2") {
			t.Fatalf("the password shows: %s", shown)
		}
	}
	if _, err := c.WithSecurity(Security{User: "agent-cern", PasswordFile: filepath.Join(dir, "none")}); err == nil ||
		!strings.Contains(err.Error(), "agent-cern") {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := c.WithSecurity(Security{User: "agent-cern"}); err == nil || !strings.Contains(err.Error(), "no password") {
		t.Fatalf("no password: %v", err)
	}
}

func TestTLSNeedsAReadableCA(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "ca.crt")
	os.WriteFile(bad, []byte("not a certificate"), 0o644)
	c, _ := Parse("a:9092")
	s, _ := c.WithSecurity(Security{Mode: SSL, CAFile: bad})
	if _, err := s.Opts(); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("bad CA: %v", err)
	}
}

func TestRefusalsAreToldApartFromOutages(t *testing.T) {
	for _, err := range []error{kerr.SaslAuthenticationFailed, fmt.Errorf("produce: %w", kerr.TopicAuthorizationFailed),
		kerr.ClusterAuthorizationFailed, kerr.GroupAuthorizationFailed} {
		if reason, ok := Refusal(err); !ok || reason == "" {
			t.Errorf("%v: not a refusal", err)
		}
	}
	for _, err := range []error{nil, fmt.Errorf("dial tcp 127.0.0.1:9092: connect: connection refused"), kerr.NotLeaderForPartition} {
		if _, ok := Refusal(err); ok {
			t.Errorf("%v: taken for a refusal", err)
		}
	}
}

func TestAPollsRefusalNamesTheTopicAndKeepsKafkasError(t *testing.T) {
	f := kgo.Fetches{{Topics: []kgo.FetchTopic{
		{Topic: "longhaul.events", Partitions: []kgo.FetchPartition{{Partition: 0, Err: context.DeadlineExceeded}}},
		{Topic: "longhaul.stats", Partitions: []kgo.FetchPartition{{Partition: 2, Err: kerr.TopicAuthorizationFailed}}},
	}}}
	err := FetchRefusal(f)
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Topic != "longhaul.stats" || refused.Partition != 2 ||
		!errors.Is(err, kerr.TopicAuthorizationFailed) ||
		err.Error() != "kafka: longhaul.stats: not authorized for the topic (no ACL for this user, or it was revoked)" {
		t.Fatalf("%#v", err)
	}
	for _, err := range []error{context.Canceled, context.DeadlineExceeded, kerr.NotLeaderForPartition} {
		if got := FetchRefusal(kgo.NewErrFetch(err)); got != nil {
			t.Errorf("%v: taken for a refusal: %v", err, got)
		}
	}
}
