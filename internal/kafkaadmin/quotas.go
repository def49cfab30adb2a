package kafkaadmin

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/internal/kafkaconn"
)

// Quota is what one Kafka identity may move through each broker per second (Kafka's client
// quotas on the user: a client over them is slowed down by the broker, never refused, so nothing
// it sends is lost; its spool waits).
type Quota struct {
	ProduceBps int64 // producer_byte_rate
	FetchBps   int64 // consumer_byte_rate
}

// The quotas of the identities other institutions' hosts hold: one leaked or runaway host cannot
// take the brokers' bandwidth from the others. An agent writes a few kB a run (a throughput run's
// intervals, a trace, a ping) and reads only its probe requests: 1 MiB/s drains a day's spool in
// seconds. A pScheduler host writes its archiver's results (a throughput result with intervals is
// tens of kB) and reads nothing.
var (
	AgentQuota      = Quota{ProduceBps: 1 << 20, FetchBps: 256 << 10}
	PSchedulerQuota = Quota{ProduceBps: 4 << 20, FetchBps: 64 << 10}
	// BridgeQuota: a bridge writes its hosts' results as samples and reads their archivers' topics;
	// a fleet's bridge carries about 1,300 results/s of 1-2 kB (docs/kubernetes-sizing.md).
	BridgeQuota = Quota{ProduceBps: 8 << 20, FetchBps: 16 << 20}
)

// QuotaOf is the default quota of principal's role: an agent's, one pScheduler host's or a
// bridge's (`admin add-agent`, `admin add-pscheduler-host`, `admin add-bridge` set it); false for
// the central services, whose volume is the whole mesh's, and for the stack's own shared
// `pscheduler` certificate (local archiver).
func QuotaOf(principal string) (Quota, bool) {
	switch {
	case strings.HasPrefix(principal, AgentPrefix):
		return AgentQuota, true
	case strings.HasPrefix(principal, PSchedulerHostPrefix):
		return PSchedulerQuota, true
	case strings.HasPrefix(principal, BridgePrefix):
		return BridgeQuota, true
	}
	return Quota{}, false
}

// SetQuota sets principal's quota (replacing any it had) and says so on log.
func SetQuota(ctx context.Context, conn kafkaconn.Conn, principal string, q Quota, log io.Writer) error {
	if q.ProduceBps <= 0 || q.FetchBps <= 0 {
		return fmt.Errorf("kafka user %s: quota %+v: both rates must be positive", principal, q)
	}
	adm, err := conn.NewAdmin()
	if err != nil {
		return err
	}
	defer adm.Close()
	name := principal
	res, err := adm.AlterClientQuotas(ctx, []kadm.AlterClientQuotaEntry{{
		Entity: kadm.ClientQuotaEntity{{Type: "user", Name: &name}},
		Ops: []kadm.AlterClientQuotaOp{
			{Key: "producer_byte_rate", Value: float64(q.ProduceBps)},
			{Key: "consumer_byte_rate", Value: float64(q.FetchBps)},
		},
	}})
	if err != nil {
		return fmt.Errorf("kafka user %s: set its quota: %w", principal, err)
	}
	for _, r := range res {
		if r.Err != nil {
			return fmt.Errorf("kafka user %s: set its quota: %w %s", principal, r.Err, r.ErrMessage)
		}
	}
	fmt.Fprintf(log, "kafka user %s quota: produce %d B/s, fetch %d B/s a broker\n", principal, q.ProduceBps, q.FetchBps)
	return nil
}
