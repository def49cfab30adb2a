package kafkaadmin

import (
	"context"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/ingest/contract"
	"longhaul/internal/kafkaconn"
)

// OwnTopicSpecs are the specs of principal's own topics: an agent's raw topics (contract.OwnTopics),
// a pScheduler host's archivers' topic (contract.ArchiverTopic); each its shared topic's retention
// time, cleanup and timestamp type, with contract.OwnTopicPartitions partitions, each bounded to
// contract.OwnTopicRetentionBytes: what one identity keeps on the brokers. None for a principal
// that writes the shared topics.
func OwnTopicSpecs(f *TopicsFile, principal string) []TopicSpec {
	var out []TopicSpec
	for _, t := range f.Topics {
		own := contract.OwnTopic(t.Name, principal)
		if t.Name == contract.TopicPschedulerResults {
			own = contract.ArchiverTopic(principal)
		}
		if own != t.Name {
			t.Name, t.Partitions, t.RetentionBytes = own, contract.OwnTopicPartitions, contract.OwnTopicRetentionBytes
			out = append(out, t)
		}
	}
	return out
}

// EnsureOwnTopics creates principal's own topics that are missing, each replicated as the
// contract's topics are on the brokers (the file's factor when they are missing), and aligns the
// configs of those that exist, as EnsureTopics does. It returns how many it created.
func EnsureOwnTopics(ctx context.Context, conn kafkaconn.Conn, principal string, log io.Writer) (int, error) {
	f, err := LoadTopics("")
	if err != nil {
		return 0, err
	}
	own := &TopicsFile{Defaults: f.Defaults, Topics: OwnTopicSpecs(f, principal)}
	if len(own.Topics) == 0 {
		return 0, nil
	}
	if rf, err := sharedReplication(ctx, conn); err != nil {
		return 0, err
	} else if rf > 0 {
		own.Defaults.ReplicationFactor = int16(rf)
	}
	return EnsureTopics(ctx, conn, own, log)
}

// sharedReplication is the replication factor of the contract's topics on the brokers (the stats
// topic's), or 0 when it does not exist.
func sharedReplication(ctx context.Context, conn kafkaconn.Conn) (int, error) {
	adm, err := conn.NewAdmin()
	if err != nil {
		return 0, err
	}
	defer adm.Close()
	details, err := adm.ListTopics(ctx, contract.TopicStats)
	if err != nil {
		return 0, fmt.Errorf("kafka %v: describe %s: %w", conn.Bootstrap, contract.TopicStats, err)
	}
	d, ok := details[contract.TopicStats]
	if !ok || d.Err != nil {
		return 0, nil
	}
	return replicationOf(d), nil
}

// AddAgent makes principal an agent, as `longhaul admin add-agent` does: its own raw topics, then
// its SCRAM credential and ACLs (which drop any right of an earlier release's agent, the shared
// raw topics among them), then its quota.
func AddAgent(ctx context.Context, conn kafkaconn.Conn, principal, password string, q Quota, log io.Writer) error {
	if _, err := EnsureOwnTopics(ctx, conn, principal, log); err != nil {
		return err
	}
	if err := SetUser(ctx, conn, principal, password, log); err != nil {
		return err
	}
	return SetQuota(ctx, conn, principal, q, log)
}

// PurgeOwnTopics deletes every record of principal's own raw topics that exist, saying which, and
// keeps the topics. Deleting a topic would stop the job: its Kafka sources keep the topic's
// partitions in their checkpointed state, and a job restored with a partition that no longer
// exists fails to find its position and restarts without end (seen on this project's stack after
// the tests' agents were removed with their topics). An empty topic without ACLs costs a few
// files.
func PurgeOwnTopics(ctx context.Context, conn kafkaconn.Conn, principal string, log io.Writer) error {
	adm, err := conn.NewAdmin()
	if err != nil {
		return err
	}
	defer adm.Close()
	ends, err := adm.ListEndOffsets(ctx, contract.OwnTopics(principal)...)
	if err != nil {
		return fmt.Errorf("kafka %v: list %s's topics: %w", conn.Bootstrap, principal, err)
	}
	present := kadm.Offsets{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Err == nil { // else: not there
			present.Add(kadm.Offset{Topic: o.Topic, Partition: o.Partition, At: o.Offset})
		}
	})
	resp, err := adm.DeleteRecords(ctx, present)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("kafka %v: delete the records of %s's topics: %w", conn.Bootstrap, principal, err)
	}
	for _, t := range present.Sorted() {
		if t.Partition == 0 {
			fmt.Fprintf(log, "emptied topic %s (kept: the job's checkpoints name it)\n", t.Topic)
		}
	}
	return nil
}
