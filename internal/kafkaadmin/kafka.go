package kafkaadmin

import (
	"context"
	"fmt"
	"io"

	"github.com/twmb/franz-go/pkg/kadm"

	"longhaul/internal/kafkaconn"
)

// EnsureTopics creates every missing topic of f, reports existing ones whose partition count
// differs (it never deletes or shrinks), and brings the kept configs of existing topics (Drift:
// the raw topics' LogAppendTime) to what f says, incrementally, saying so. It returns how many
// topics it created.
func EnsureTopics(ctx context.Context, conn kafkaconn.Conn, f *TopicsFile, log io.Writer) (int, error) {
	adm, err := conn.NewAdmin()
	if err != nil {
		return 0, err
	}
	defer adm.Close()
	details, err := adm.ListTopics(ctx)
	if err != nil {
		return 0, fmt.Errorf("kafka %v: list topics: %w", conn.Bootstrap, err)
	}
	created := 0
	var existing []TopicSpec
	for _, t := range f.Topics {
		if d, ok := details[t.Name]; ok {
			if n := int32(len(d.Partitions)); n != t.Partitions {
				fmt.Fprintf(log, "topic %s exists with %d partitions (topics.yaml says %d); left as is\n", t.Name, n, t.Partitions)
			}
			if rf := replicationOf(d); rf != int(f.Defaults.ReplicationFactor) {
				fmt.Fprintf(log, "topic %s has replication factor %d (want %d); left as is (kafka-reassign-partitions changes it)\n", t.Name, rf, f.Defaults.ReplicationFactor)
			}
			existing = append(existing, t)
			continue
		}
		resp, err := adm.CreateTopic(ctx, t.Partitions, f.Defaults.ReplicationFactor, t.Configs(), t.Name)
		if err == nil {
			err = resp.Err
		}
		if err != nil {
			return created, fmt.Errorf("create topic %s: %w", t.Name, err)
		}
		fmt.Fprintf(log, "created topic %s (%d partitions, replication %d, retention %d ms%s)\n", t.Name, t.Partitions, f.Defaults.ReplicationFactor, t.RetentionMs, timestampNote(t))
		created++
	}
	return created, alignConfigs(ctx, adm, existing, log)
}

// replicationOf is a topic's replication factor: the replicas of its first partition.
func replicationOf(d kadm.TopicDetail) int {
	for _, p := range d.Partitions {
		return len(p.Replicas)
	}
	return 0
}

func timestampNote(t TopicSpec) string {
	if t.TimestampType == "" {
		return ""
	}
	return ", " + t.TimestampType
}

// alignConfigs alters the kept configs of existing topics that differ from their specs.
func alignConfigs(ctx context.Context, adm *kadm.Client, topics []TopicSpec, log io.Writer) error {
	if len(topics) == 0 {
		return nil
	}
	names := make([]string, len(topics))
	for i, t := range topics {
		names[i] = t.Name
	}
	described, err := adm.DescribeTopicConfigs(ctx, names...)
	if err != nil {
		return fmt.Errorf("describe topic configs: %w", err)
	}
	for _, t := range topics {
		rc, err := described.On(t.Name, nil)
		if err == nil {
			err = rc.Err
		}
		if err != nil {
			return fmt.Errorf("describe configs of topic %s: %w", t.Name, err)
		}
		if err := alterDrift(ctx, adm, t, t.Drift(configValues(rc)), log); err != nil {
			return err
		}
	}
	return nil
}

// configValues is a described topic's configs as key → value.
func configValues(rc kadm.ResourceConfig) map[string]string {
	out := make(map[string]string, len(rc.Configs))
	for _, c := range rc.Configs {
		out[c.Key] = c.MaybeValue()
	}
	return out
}

// alterDrift sets each changed config of topic t with an incremental alter (other configs of
// the topic stay as they are) and reports it.
func alterDrift(ctx context.Context, adm *kadm.Client, t TopicSpec, changes []ConfigChange, log io.Writer) error {
	if len(changes) == 0 {
		return nil
	}
	alters := make([]kadm.AlterConfig, len(changes))
	for i, c := range changes {
		alters[i] = kadm.AlterConfig{Op: kadm.SetConfig, Name: c.Key, Value: kadm.StringPtr(c.Want)}
	}
	resp, err := adm.AlterTopicConfigs(ctx, alters, t.Name)
	if err == nil {
		var r kadm.AlterConfigsResponse
		if r, err = resp.On(t.Name, nil); err == nil {
			err = r.Err
		}
	}
	if err != nil {
		return fmt.Errorf("alter configs of topic %s: %w", t.Name, err)
	}
	for _, c := range changes {
		fmt.Fprintf(log, "topic %s had %s=%s (topics.yaml says %s); altered\n", t.Name, c.Key, c.Have, c.Want)
	}
	return nil
}
