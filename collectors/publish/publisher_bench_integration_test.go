//go:build integration

package publish

import (
	"context"
	"fmt"
	"testing"
	"time"

	"longhaul/collectors/internal/kafkatest"
	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
	"longhaul/internal/kafkaconn"
)

// BenchmarkIntegrationPublishRate measures how fast the publisher drains a spooled backlog
// into a real broker (acks=all, idempotent): b.N samples of ~600 bytes over 50 links are
// spooled untimed, then timed from the publisher's start until Kafka has acknowledged all. The
// agent connects as an agent does (TLS + SCRAM-SHA-512, its own user), and the same run on a
// broker with security off says what security costs.
//
//	go test -tags integration -run XXX -bench PublishRate ./collectors/publish
func BenchmarkIntegrationPublishRate(b *testing.B) {
	for _, security := range []string{kafkaconn.SASLSSL, kafkaconn.Plaintext} {
		b.Run("security="+security, func(b *testing.B) {
			start := kafkatest.Start
			if security == kafkaconn.Plaintext {
				start = kafkatest.StartPlaintext
			}
			broker := start(b, "/tmp/lh-it-kafka-publish-"+security, 19292, 19293)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			broker.CreateTopics(ctx)
			cancel()
			conn := broker.AgentConn("bench")
			for _, window := range []int{100, 1000} {
				b.Run(fmt.Sprintf("max_in_flight=%d", window), func(b *testing.B) {
					benchmarkPublish(b, conn, window)
				})
			}
			broker.Stop()
		})
	}
}

func benchmarkPublish(b *testing.B, conn kafkaconn.Conn, window int) {
	s, err := Open(b.TempDir(), Options{MaxBytes: 4 << 30, SegmentBytes: 8 << 20, Fsync: "never", Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	batch := make([]Record, 0, 1000)
	for i := 0; i < b.N; i++ {
		r := benchRecord()
		r.Key = []byte(fmt.Sprintf("bench-src|dst-%02d", i%50))
		r.Topic = sample.TopicThroughput
		batch = append(batch, r)
		if len(batch) == cap(batch) || i == b.N-1 {
			if err := s.Append(batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	cl, err := NewClient(conn, "bench", window, quiet)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	// to the agent's own topic, as the agent maps it (config.TopicOf); the shared one on plaintext
	own := func(topic string) string { return contract.OwnTopic(topic, conn.User) }
	p := NewPublisher(s, cl, PublisherOptions{MaxInFlight: window, Logger: quiet, Topic: own})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	b.ResetTimer()
	go func() { p.Run(ctx); close(done) }()
	deadline := time.Now().Add(5 * time.Minute)
	for s.Stats().Samples > 0 {
		if time.Now().After(deadline) {
			b.Fatalf("not drained: %+v", s.Stats())
		}
		time.Sleep(2 * time.Millisecond)
	}
	b.StopTimer()
	stop()
	<-done
	if st := p.Stats(); st.Acked != uint64(b.N) || st.Failed != 0 {
		b.Fatalf("publisher: %+v", st)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
}
