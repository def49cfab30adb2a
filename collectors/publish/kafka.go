package publish

import (
	"context"
	"log/slog"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/internal/kafkaconn"
)

// Producer is what the publisher needs of a Kafka client; *kgo.Client is one.
type Producer interface {
	Produce(ctx context.Context, r *kgo.Record, promise func(*kgo.Record, error))
	Flush(ctx context.Context) error
	Ping(ctx context.Context) error
}

// NewClient builds the agent's one long-lived Kafka client on the connection every Longhaul
// program uses (internal/kafkaconn). Producing is idempotent (the
// franz-go default, kept: retries cannot duplicate or reorder within a partition) with
// acks from all in-sync replicas and unlimited record retries within a delivery timeout of
// clientWait: a record the broker has not taken by then fails, and with it every later record
// of its partition, back to the spool (the publisher resends from the oldest), so while Kafka
// is away samples wait in the spool, each to be stamped anew when it is sent (sent.go). That
// includes a record written to a connection that broke before the broker answered
// (AllowIdempotentProduceCancellation): otherwise the client retries those bytes, stamp and
// all, until the broker is back, and a 60 s outage delivered 6 of 1 393 samples stamped 77 s
// behind the broker (the integration test; with no delivery timeout at all, the 200 in the
// client). The price: such a record may reach the topic twice, as at-least-once delivery
// already allows.
func NewClient(conn kafkaconn.Conn, clientID string, maxInFlight int, log *slog.Logger) (*kgo.Client, error) {
	return conn.NewClient(
		kgo.ClientID(clientID),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		// Records are keyed "src|dst": the default partitioner hashes keys (murmur2, as the
		// Java client), so one link stays in one partition and in order.
		kgo.ProducerLinger(20*time.Millisecond),
		kgo.RecordDeliveryTimeout(clientWait),
		kgo.AllowIdempotentProduceCancellation(),
		kgo.MaxBufferedRecords(maxInFlight+1),
		kgo.ProducerOnDataLossDetected(func(topic string, partition int32) {
			log.Error("kafka reported data loss on a partition", "topic", topic, "partition", partition)
		}),
		kgo.WithLogger(kgoLogger{log}),
	)
}

// kgoLogger sends franz-go's warnings and errors to slog. Connection errors while a broker
// is down are logged by the publisher once per outage instead, and a refusal once per change
// (refusal.go): franz-go's own line for each failed handshake ("unable to initialize sasl",
// every ~5 s while records wait, and at each re-check) goes to debug.
type kgoLogger struct{ log *slog.Logger }

func (kgoLogger) Level() kgo.LogLevel { return kgo.LogLevelError }

func (l kgoLogger) Log(level kgo.LogLevel, msg string, keyvals ...any) {
	lv := slog.LevelError
	if level > kgo.LogLevelError {
		lv = slog.LevelWarn
	}
	for _, kv := range keyvals {
		if err, ok := kv.(error); ok {
			if _, refused := kafkaconn.Refusal(err); refused {
				lv = slog.LevelDebug
			}
		}
	}
	l.log.Log(context.Background(), lv, "kafka client: "+msg, keyvals...)
}
