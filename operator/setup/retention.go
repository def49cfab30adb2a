package setup

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"longhaul/ingest"
	"longhaul/operator/influx"
)

// RetentionPolicy is one policy of ingest/influxdb/retention.yaml.
type RetentionPolicy struct {
	Name          string `yaml:"name"`
	Duration      string `yaml:"duration"`
	ShardDuration string `yaml:"shard_duration"`
	Default       bool   `yaml:"default"`
}

// RetentionFile is ingest/influxdb/retention.yaml.
type RetentionFile struct {
	Database string            `yaml:"database"`
	Policies []RetentionPolicy `yaml:"policies"`
}

// LoadRetention reads a retention file ("": the contract's, embedded), rejecting unknown fields.
func LoadRetention(path string) (*RetentionFile, error) {
	raw, path, err := ingest.ReadOrEmbedded(path, "retention.yaml", ingest.Retention)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var f RetentionFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defaults := 0
	for i, p := range f.Policies {
		if p.Name == "" || p.Duration == "" {
			return nil, fmt.Errorf("%s: policies[%d]: name and duration are required", path, i)
		}
		if p.Default {
			defaults++
		}
	}
	if f.Database == "" || defaults != 1 {
		return nil, fmt.Errorf("%s: needs a database and exactly one default policy", path)
	}
	return &f, nil
}

// Statements returns the InfluxQL that creates the database and its policies (idempotent
// on InfluxDB 1.x: CREATE of an existing identical object is a no-op; ALTER keeps changes).
func (f *RetentionFile) Statements() []string {
	out := []string{fmt.Sprintf("CREATE DATABASE %q", f.Database)}
	for _, p := range f.Policies {
		s := fmt.Sprintf("RETENTION POLICY %q ON %q DURATION %s REPLICATION 1", p.Name, f.Database, p.Duration)
		if p.ShardDuration != "" {
			s += " SHARD DURATION " + p.ShardDuration
		}
		if p.Default {
			s += " DEFAULT"
		}
		out = append(out, "CREATE "+s, "ALTER "+s)
	}
	return out
}

// ApplyRetention runs the statements through the InfluxDB client. A CREATE of a policy that
// already exists with other settings fails; the ALTER that follows applies them.
func ApplyRetention(ctx context.Context, c *influx.Client, f *RetentionFile, log io.Writer) error {
	for _, stmt := range f.Statements() {
		err := c.Exec(ctx, stmt)
		if err != nil && strings.HasPrefix(stmt, "CREATE RETENTION") && strings.Contains(err.Error(), "already exists") {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	fmt.Fprintf(log, "influxdb database %s with %d retention policies ready\n", f.Database, len(f.Policies))
	return nil
}
