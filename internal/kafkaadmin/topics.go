// Package kafkaadmin is the Kafka administration the operator's setup and the agent's tests
// share: the contract's topics (ingest/topics.yaml) and each identity's own, the principals with
// their grants (ACLs), credentials and quotas.
package kafkaadmin

import (
	"bytes"
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"longhaul/ingest"
)

// TopicSpec is one entry of ingest/topics.yaml.
type TopicSpec struct {
	Name          string `yaml:"name"`
	Schema        string `yaml:"schema"`
	Role          string `yaml:"role"` // the contract's role, when several carry the schema (ingest/gen)
	Partitions    int32  `yaml:"partitions"`
	CleanupPolicy string `yaml:"cleanup_policy"`
	RetentionMs   int64  `yaml:"retention_ms"`
	// RetentionBytes bounds each partition (Kafka's retention.bytes); 0: no bound, the time alone.
	RetentionBytes int64 `yaml:"retention_bytes"`
	// TimestampType is Kafka's message.timestamp.type: LogAppendTime (the broker stamps each
	// record with its own clock) or CreateTime (the producer's); empty leaves the broker's default.
	TimestampType string `yaml:"timestamp_type"`
}

// Kafka's two message.timestamp.type values.
const (
	CreateTime    = "CreateTime"
	LogAppendTime = "LogAppendTime"
)

// TopicsFile is ingest/topics.yaml.
type TopicsFile struct {
	Defaults struct {
		ReplicationFactor int16 `yaml:"replication_factor"`
	} `yaml:"defaults"`
	Topics []TopicSpec `yaml:"topics"`
}

// LoadTopics reads and checks a topics file ("": the contract's, embedded); errors name the
// file, line and field.
func LoadTopics(path string) (*TopicsFile, error) {
	raw, path, err := ingest.ReadOrEmbedded(path, "topics.yaml", ingest.Topics)
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var f TopicsFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Defaults.ReplicationFactor == 0 {
		f.Defaults.ReplicationFactor = 1
	}
	seen := map[string]bool{}
	for i, t := range f.Topics {
		line := topicLine(&root, i)
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("%s:%d: topics[%d].name: required", path, line, i)
		case seen[t.Name]:
			return nil, fmt.Errorf("%s:%d: topics[%d].name: duplicate topic %q", path, line, i, t.Name)
		case t.Partitions < 1:
			return nil, fmt.Errorf("%s:%d: topics[%d].partitions: must be >= 1", path, line, i)
		case t.CleanupPolicy != "delete" && t.CleanupPolicy != "compact" && t.CleanupPolicy != "compact,delete":
			return nil, fmt.Errorf("%s:%d: topics[%d].cleanup_policy: %q is not delete, compact or compact,delete", path, line, i, t.CleanupPolicy)
		case t.RetentionMs == 0 || t.RetentionMs < -1:
			return nil, fmt.Errorf("%s:%d: topics[%d].retention_ms: must be > 0 or -1 (forever)", path, line, i)
		case t.RetentionBytes < 0:
			return nil, fmt.Errorf("%s:%d: topics[%d].retention_bytes: must be > 0, or absent for no bound", path, line, i)
		case t.TimestampType != "" && t.TimestampType != CreateTime && t.TimestampType != LogAppendTime:
			return nil, fmt.Errorf("%s:%d: topics[%d].timestamp_type: %q is not %s or %s", path, line, i, t.TimestampType, CreateTime, LogAppendTime)
		}
		seen[t.Name] = true
	}
	return &f, nil
}

// SetReplication overrides the file's replication factor with v (a setting's text: a number
// from 1 to 32767; "" or "0" keep the file's).
func (f *TopicsFile) SetReplication(v string) error {
	if v == "" || v == "0" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 16)
	if err != nil || n < 1 {
		return fmt.Errorf("replication factor %q: want a whole number of brokers, at least 1", v)
	}
	f.Defaults.ReplicationFactor = int16(n)
	return nil
}

// topicLine finds the line of topics[i] in the parsed document, for error messages.
func topicLine(root *yaml.Node, i int) int {
	if len(root.Content) == 0 {
		return 0
	}
	m := root.Content[0]
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == "topics" && i < len(m.Content[k+1].Content) {
			return m.Content[k+1].Content[i].Line
		}
	}
	return 0
}

// Kafka's names of the topic configs a spec sets.
const (
	cfgCleanupPolicy = "cleanup.policy"
	cfgRetentionMs   = "retention.ms"
	cfgRetentionBy   = "retention.bytes"
	cfgTimestampType = "message.timestamp.type"
)

// Configs returns the topic-level configs of a spec.
func (t TopicSpec) Configs() map[string]*string {
	policy := t.CleanupPolicy
	retention := fmt.Sprint(t.RetentionMs)
	out := map[string]*string{cfgCleanupPolicy: &policy, cfgRetentionMs: &retention}
	if t.TimestampType != "" {
		tt := t.TimestampType
		out[cfgTimestampType] = &tt
	}
	if t.RetentionBytes > 0 {
		b := fmt.Sprint(t.RetentionBytes)
		out[cfgRetentionBy] = &b
	}
	return out
}
