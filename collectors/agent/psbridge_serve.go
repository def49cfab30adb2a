package agent

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/perfsonar/psbridge"
)

// InputKafka names results that came from the Kafka archiver's topic.
const InputKafka = "kafka"

// idleTimeout closes a kept-alive connection this long after its last answer. An archiver's
// connection that closes costs a TLS handshake on its next post. At 1,000 simulated hosts (529
// results/s, 25 connections a host, each idle 25-50 s between posts) on 20,000 descriptors, with
// 30 s here and every idle connection closed at once near the limit (24 times), 88,315 handshakes
// timed out and 69,010 of 317,581 posted results were taken (issue 45, docs/benchmarks.md, The
// knee). Descriptors bound what is kept (connLimit), not this timeout.
const idleTimeout = 2 * time.Minute

// servePSBridge starts the HTTP endpoint, if configured; the server is shut down by the caller.
func (a *Agent) servePSBridge() (*http.Server, error) {
	c := a.psb.cfg
	if c.Listen == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return nil, fmt.Errorf("pscheduler_bridge.listen: %w", err)
	}
	// A post waiting for a conversion slot holds only its connection, which connLimit bounds: so
	// may as many wait. At 2,400 simulated hosts a burst filled a queue of 4 slots × 1,024 and
	// 10,982 posts (1.43 %) were answered 429 before their 20 s ran out (issue 45,
	// docs/benchmarks.md, The knee).
	mostConns := processConnMax()
	srv := &http.Server{
		Handler: psbridge.Handler(c.Path, a.psb.tokens, psbridge.Limits{MaxBody: int64(c.MaxBody), MaxConcurrent: c.MaxConcurrent,
			MaxWaiting: mostConns, PerHost: psbridge.HostRate{PerSecond: c.HostRate, Burst: c.HostBurst}, Shared: contract.HTTPArchiver},
			a.takeFrom, a.psb),
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute, IdleTimeout: idleTimeout,
	}
	conns := newConnLimit(ln, srv, mostConns)
	ln = conns
	scheme := "http"
	if c.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.TLSCertFile, c.TLSKeyFile)
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("pscheduler_bridge.tls_cert_file: %w", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		scheme = "https"
	}
	go srv.Serve(ln)
	url := scheme + "://" + ln.Addr().String() + c.Path
	a.psb.mu.Lock()
	a.psb.st.HTTP = url
	a.psb.conns = conns
	a.psb.mu.Unlock()
	a.log.Info("pscheduler bridge: HTTP archiver endpoint", "url", url, "token_file", c.TokenFile,
		"host_tokens_dir", c.HostTokensDir, "hosts_with_own_token", a.psb.tokens.Hosts())
	return srv, nil
}

// consumePSchedulerTopic reads the Kafka archiver's topic in the bridge's consumer group and
// commits a record's offset only once the result is spooled (or dead-lettered), so a crash
// delivers it again and the seen keys make that a duplicate. A Kafka error is logged when it
// changes and shown in /health; the client keeps trying, and so does followInput after a
// refusal, a second later (the publisher reports it as refused too: the same user).
func (a *Agent) consumePSchedulerTopic(ctx context.Context) {
	c := a.psb.cfg
	conn, err := a.cfg.KafkaConn()
	var cl *kgo.Client
	if err == nil {
		// the topic and every pScheduler host's own topic of it (contract.ArchiverTopic), by
		// pattern: a host added later is read from its topic's start within 10 s
		cl, err = conn.NewClient(kgo.ConsumerGroup(c.Group), kgo.ConsumeTopics(contract.ArchiverTopicPattern(c.Topic)), kgo.ConsumeRegex(),
			kgo.MetadataMaxAge(10*time.Second), kgo.DisableAutoCommit(),
			kgo.ClientID(a.cfg.Kafka.ClientID+"-psbridge"), kgo.FetchMaxBytes(16<<20))
	}
	if err != nil {
		a.psb.fail(fmt.Errorf("kafka input: %w", err), a.opt.Clock.Now())
		a.log.Error("pscheduler bridge: no Kafka input", "topic", c.Topic, "err", err)
		return
	}
	defer cl.Close()
	a.log.Info("pscheduler bridge: consuming the Kafka archiver's topic", "topic", c.Topic, "group", c.Group)
	a.followInput(ctx, cl, "pscheduler bridge", 500, func(err error) { a.psb.fail(err, a.opt.Clock.Now()) }, func(rs []*kgo.Record) {
		done := rs[:a.acceptAll(ctx, rs, func(r *kgo.Record) string { return archiverOf(c.Topic, r.Topic) })]
		// commit what was kept, also when stopping half-way through a batch
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if err := cl.CommitRecords(cctx, done...); err != nil {
			a.log.Warn("pscheduler bridge: commit failed; those results will be delivered again and found duplicates", "err", err)
		}
		cancel()
	})
}

// archiverOf is the identity that wrote topic, one of the bridge's topic's: the pScheduler host
// whose own topic it is, else the certificate every host shared.
func archiverOf(base, topic string) string {
	if who := contract.ArchiverOf(base, topic); who != "" {
		return who
	}
	return contract.SharedArchiver
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
