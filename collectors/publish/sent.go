package publish

import (
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
)

// sentHeader is the record header sent_ms of the contract: the agent's wall clock at a produce
// attempt, decimal milliseconds since the epoch. The raw topics are LogAppendTime, so the broker
// stamps the same record with its own clock; the Flink job takes the difference for the skew of
// the agent's clock. Every attempt is stamped anew (a sample spooled through an outage is stamped
// when it is finally sent), so the difference is the clock's skew plus one trip to the broker,
// never the time the sample waited.
func sentHeader(at time.Time) kgo.RecordHeader {
	return kgo.RecordHeader{Key: contract.HeaderSentMs, Value: strconv.AppendInt(nil, at.UnixMilli(), 10)}
}

// clientWait bounds how long a record may wait in the Kafka client for the broker before it
// fails back to the spool, to be sent again with a new stamp: a record held in the client through
// an outage would otherwise reach the broker with the stamp of its first attempt, and the Flink
// job would take the wait for a clock running behind. A third of the skew tolerance leaves the
// rest for the network and the linger. The client may fail even a record it has written to a
// connection that then broke before an answer (kafka.go): it is resent, newly stamped, and may
// reach the topic twice, which the at-least-once delivery of the spool allows already.
const clientWait = time.Duration(contract.ClockSkewToleranceS / 3 * float64(time.Second))
