package kafkaadmin

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"longhaul/internal/kafkaconn"
)

// JobTransactions is the pattern of the transactional ids a Flink job of this name writes with:
// its KafkaSinks' "<name>-<sink>-<subtask>-<checkpoint>" (the job's --transactional-id-prefix is
// its name, flink.NameArgs; each sink's name is one lowercase word, KafkaConnectors.sink), and no
// other job's, even one whose name begins with this one's.
func JobTransactions(name string) string {
	return "^" + regexp.QuoteMeta(name) + "-[a-z]+-[0-9]+-[0-9]+$"
}

// AbortOpenTransactions aborts every ongoing transaction whose transactional id matches pattern
// (a job's: JobTransactions) and returns their ids. A Flink job whose TaskManager died (killed,
// out of memory, its host gone) and that is not restarted under its name leaves the transaction
// of its last checkpoint open until its timeout (the job's --transaction-timeout, 10 min; a
// graceful cancel aborts its own): every read_committed reader of those partitions (the alert
// bridge, Telegraf, the agents' probe requests) waits behind it, even for records written after
// it by others, such as the watchdog's alert that the job is gone. Fencing each id (a new
// producer epoch, as Kafka's kafka-transactions.sh abort and Flink's own abort of lingering
// transactions do) makes its coordinator abort it now; what the job had not committed is lost
// either way. Listing needs DESCRIBE on the ids, fencing WRITE (the admin identity has both).
func AbortOpenTransactions(ctx context.Context, conn kafkaconn.Conn, pattern string) ([]string, error) {
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, fmt.Errorf("transactional id pattern %q: %w", pattern, err)
	}
	cl, err := conn.NewClient()
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	open, err := kadm.NewClient(cl).ListTransactionsByTxPattern(ctx, nil, []string{"Ongoing"}, pattern)
	if err != nil {
		return nil, fmt.Errorf("list the open transactions matching %s: %w", pattern, err)
	}
	re := regexp.MustCompile(pattern) // a broker before 4.1 lists them all, unfiltered
	var aborted []string
	for _, id := range open.TransactionalIDs() {
		if !re.MatchString(id) {
			continue
		}
		if err := fence(ctx, cl, id); err != nil {
			return aborted, err
		}
		aborted = append(aborted, id)
	}
	return aborted, nil
}

// fence gives transactional id a new producer epoch, which aborts its open transaction; the
// coordinator answers CONCURRENT_TRANSACTIONS while it completes the abort, so that is retried.
func fence(ctx context.Context, cl *kgo.Client, id string) error {
	for {
		req := kmsg.NewPtrInitProducerIDRequest()
		req.TransactionalID = &id
		req.TransactionTimeoutMillis = 60_000
		req.ProducerID, req.ProducerEpoch = -1, -1
		resp, err := req.RequestWith(ctx, cl)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		if err == nil {
			return nil
		}
		if !errors.Is(err, kerr.ConcurrentTransactions) && !errors.Is(err, kerr.CoordinatorLoadInProgress) {
			return fmt.Errorf("abort the open transaction of %s: %w", id, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("abort the open transaction of %s: %w", id, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
