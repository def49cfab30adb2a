//go:build integration

// Package kafkatest gives integration tests a real Kafka broker of their own, run through the
// project's native stack scripts (scripts/stack/lib.sh + kafka.sh) with a separate stack
// directory and ports, so a test can stop and restart it without touching anyone else's.
package kafkatest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"longhaul/internal/kafkaadmin"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/kafkaconn"
)

// Broker is one single-node KRaft broker on 127.0.0.1, secured as the stack secures it: clients
// on Addr (TLS + SCRAM-SHA-512), administration on the admin listener (mutual TLS, port
// ctrlPort+1) with the stack's admin certificate; pScheduler's archiver listener on ctrlPort+2
// (every port its own: the native stack's broker may be running beside it).
type Broker struct {
	Addr      string
	stackDir  string
	cacheDir  string // Kafka's jars: stackDir/cache, or one shared by parallel brokers
	port      int
	ctrlPort  int
	adminPort int
	archPort  int
	security  string // kafkaconn.SASLSSL, or kafkaconn.Plaintext for a comparison
	t         testing.TB
}

// Root is the repository root (…/collectors/internal/kafkatest → …).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// Start brings up a fresh broker in stackDir (its cache/ of Kafka jars is kept between
// runs, its run/ is recreated) on port and ctrlPort, and stops it when the test ends,
// whatever the outcome. A broker left behind by an earlier, killed run is stopped first.
func Start(t testing.TB, stackDir string, port, ctrlPort int) *Broker {
	t.Helper()
	return start(t, stackDir, port, ctrlPort, kafkaconn.SASLSSL)
}

// StartPlaintext is Start with security turned off, as LONGHAUL_KAFKA_SECURITY=plaintext turns
// it off: only for measuring what security costs.
func StartPlaintext(t testing.TB, stackDir string, port, ctrlPort int) *Broker {
	t.Helper()
	return start(t, stackDir, port, ctrlPort, kafkaconn.Plaintext)
}

func start(t testing.TB, stackDir string, port, ctrlPort int, security string) *Broker {
	t.Helper()
	return startIn(t, stackDir, filepath.Join(stackDir, "cache"), port, ctrlPort, security)
}

func startIn(t testing.TB, stackDir, cacheDir string, port, ctrlPort int, security string) *Broker {
	t.Helper()
	b := &Broker{Addr: fmt.Sprintf("127.0.0.1:%d", port), stackDir: stackDir, cacheDir: cacheDir, port: port, ctrlPort: ctrlPort,
		adminPort: ctrlPort + 1, archPort: ctrlPort + 2, security: security, t: t}
	// the broker runs under this stack dir's own supervisord (scripts/stack/supervise.sh): both
	// go, before the run folder that holds supervisord's socket is removed and after the test
	b.script("stop_kafka; stop_supervisord", time.Minute)
	if err := os.RemoveAll(filepath.Join(stackDir, "run")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.script("stop_kafka; stop_supervisord", time.Minute) })
	func() { // brokers that share a cache install Kafka's jars into it once
		installing.Lock()
		defer installing.Unlock()
		defer lockInstall(t, cacheDir)()
		b.script("install_kafka", 5*time.Minute)
	}()
	b.script("configure_kafka", time.Minute)
	b.Start()
	return b
}

// Start starts the (stopped) broker and waits until it answers.
func (b *Broker) Start() {
	b.t.Helper()
	t0 := time.Now()
	b.script(`start_kafka && WAIT_PID_OF=kafka wait_for "$LONGHAUL_START_TIMEOUT" health_kafka || { show_log "$(kafka_run)/logs/server.log"; exit 1; }`, 3*time.Minute)
	b.t.Logf("kafka %s healthy after %.1fs", b.Addr, time.Since(t0).Seconds())
}

// Secrets is the folder of the broker's CA and certificates (the stack's secrets folder).
func (b *Broker) Secrets() string { return filepath.Join(b.stackDir, "run", "secrets") }

// CA is the PEM file of the CA that signed the broker's certificate.
func (b *Broker) CA() string { return filepath.Join(b.Secrets(), "ca.crt") }

// Conn is the administrator's connection: the admin listener, mutual TLS, the admin certificate
// (a super user: it may do anything, as the tests need).
func (b *Broker) Conn() kafkaconn.Conn {
	b.t.Helper()
	if b.security == kafkaconn.Plaintext {
		c, err := kafkaconn.Parse(b.Addr)
		if err == nil {
			c, err = c.WithSecurity(kafkaconn.Security{Mode: kafkaconn.Plaintext})
		}
		if err != nil {
			b.t.Fatal(err)
		}
		return c
	}
	c, err := kafkaconn.Parse(fmt.Sprintf("127.0.0.1:%d", b.adminPort))
	if err == nil {
		c, err = c.WithSecurity(kafkaconn.Security{Mode: kafkaconn.SSL, CAFile: b.CA(), CertFile: filepath.Join(b.Secrets(), "admin.pem")})
	}
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

// AddAgent creates the Kafka user of an agent named name with an agent's ACLs, exactly as
// `longhaul admin add-agent` does, and returns the user and a file holding its password.
func (b *Broker) AddAgent(name string) (user, passwordFile string) {
	b.t.Helper()
	user, err := kafkaadmin.AgentPrincipal(name)
	if err != nil {
		b.t.Fatal(err)
	}
	passwordFile = filepath.Join(b.t.TempDir(), user+".password")
	password := fmt.Sprintf("pw-%s-%d", name, time.Now().UnixNano())
	if err := os.WriteFile(passwordFile, []byte(password), 0o600); err != nil {
		b.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := kafkaadmin.AddAgent(ctx, b.Conn(), user, password, kafkaadmin.AgentQuota, io.Discard); err != nil {
		b.t.Fatal(err)
	}
	return user, passwordFile
}

// AgentConn is the connection an agent named name has on the client listener: SCRAM-SHA-512
// over TLS with a user AddAgent makes (plaintext on a plaintext broker).
func (b *Broker) AgentConn(name string) kafkaconn.Conn {
	b.t.Helper()
	if b.security == kafkaconn.Plaintext {
		return b.Conn()
	}
	return b.UserConn(b.AddAgent(name))
}

// UserConn is user's connection on the client listener: SCRAM-SHA-512 over TLS with the password
// in passwordFile.
func (b *Broker) UserConn(user, passwordFile string) kafkaconn.Conn {
	b.t.Helper()
	c, err := kafkaconn.Parse(b.Addr)
	if err == nil {
		c, err = c.WithSecurity(kafkaconn.Security{Mode: kafkaconn.SASLSSL, CAFile: b.CA(), User: user, PasswordFile: passwordFile})
	}
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

// RemoveAgent revokes an agent's user, as `longhaul admin remove-agent` does.
func (b *Broker) RemoveAgent(name string) {
	b.t.Helper()
	user, err := kafkaadmin.AgentPrincipal(name)
	if err != nil {
		b.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := kafkaadmin.RevokeUser(ctx, b.Conn(), user, io.Discard); err != nil {
		b.t.Fatal(err)
	}
}

// Stop stops the broker (SIGTERM, then SIGKILL after the stack's stop timeout).
func (b *Broker) Stop() {
	b.t.Helper()
	b.script("stop_kafka", time.Minute)
	b.t.Logf("kafka %s stopped", b.Addr)
}

// script runs bash with the stack libraries loaded and this broker's settings.
func (b *Broker) script(cmds string, timeout time.Duration) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	stack := filepath.Join(Root(), "scripts", "stack")
	src := fmt.Sprintf(`set -e; . %q; . %q; use_jdk17; %s`, filepath.Join(stack, "lib.sh"), filepath.Join(stack, "kafka.sh"), cmds)
	cmd := exec.CommandContext(ctx, "bash", "-c", src)
	cmd.Env = append(os.Environ(),
		"LONGHAUL_STACK_DIR="+b.stackDir,
		"LONGHAUL_STACK_CACHE="+b.cacheDir,
		"LONGHAUL_KAFKA_PORT="+strconv.Itoa(b.port),
		"LONGHAUL_KAFKA_CONTROLLER_PORT="+strconv.Itoa(b.ctrlPort),
		"LONGHAUL_KAFKA_ADMIN_PORT="+strconv.Itoa(b.adminPort),
		"LONGHAUL_KAFKA_ARCHIVER_PORT="+strconv.Itoa(b.archPort),
		"LONGHAUL_KAFKA_SECURITY="+b.security,
		"LONGHAUL_SECRETS_DIR="+b.Secrets(), // its own CA and certificates, whatever the caller's stack uses
		"LONGHAUL_STOP_TIMEOUT=20",
	)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		b.t.Fatalf("stack script %q: %v\n%s", cmds, err, out.String())
	}
}

// CreateTopics creates every topic of ingest/topics.yaml with its configs, as `longhaul setup`
// does (the raw topics LogAppendTime).
func (b *Broker) CreateTopics(ctx context.Context) {
	b.t.Helper()
	f, err := kafkaadmin.LoadTopics(filepath.Join(Root(), "ingest", "topics.yaml"))
	if err == nil {
		_, err = kafkaadmin.EnsureTopics(ctx, b.Conn(), f, io.Discard)
	}
	if err != nil {
		b.t.Fatal(err)
	}
}

// Record is one consumed message.
type Record struct {
	Topic     string
	Partition int32
	Offset    int64
	Key       string
	Value     []byte
	Timestamp time.Time         // the broker's append time on a LogAppendTime topic (the raw ones)
	Headers   map[string]string // the record's headers by key
}

// Consume reads topics from the start until stop says it has enough or timeout passes.
func (b *Broker) Consume(topics []string, timeout time.Duration, stop func([]Record) bool) []Record {
	b.t.Helper()
	cl, err := b.Conn().NewClient(kgo.ConsumeTopics(topics...),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		b.t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out []Record
	for !stop(out) && ctx.Err() == nil {
		fs := cl.PollFetches(ctx)
		fs.EachRecord(func(r *kgo.Record) {
			hs := make(map[string]string, len(r.Headers))
			for _, h := range r.Headers {
				hs[h.Key] = string(h.Value)
			}
			out = append(out, Record{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Key: string(r.Key), Value: r.Value,
				Timestamp: r.Timestamp, Headers: hs})
		})
	}
	return out
}
