package main

import "regexp"

// OwnTopics is the rule of per-identity raw topics: a principal starting with PrincipalPrefix
// writes <raw topic><Separator><principal>, made with Partitions partitions; one starting with
// ArchiverPrefix (a pScheduler host) its own topic of the archivers' topic; one starting with
// BridgePrefix (a pScheduler bridge) its own raw topics, like PrincipalPrefix.
type OwnTopics struct {
	PrincipalPrefix string `yaml:"principal_prefix"`
	ArchiverPrefix  string `yaml:"archiver_prefix"` // a pScheduler host's Kafka archiver's principal
	BridgePrefix    string `yaml:"bridge_prefix"`   // a pScheduler bridge's own Kafka user
	// BridgeDestProbes are the probe_ids of the pScheduler tests their destination may run (and so
	// archive): a bridge's sample of one of these may have its dst, not its src, in its list.
	BridgeDestProbes []string `yaml:"bridge_dest_probes"`
	Separator        string   `yaml:"separator"`
	Partitions       int      `yaml:"partitions"`
	// RetentionBytes bounds each own topic's partition on the brokers (Kafka's retention.bytes):
	// what one identity keeps there, whatever its quota lets it write.
	RetentionBytes int64 `yaml:"retention_bytes"`
}

// principalPrefix is the start of a Kafka user name that ends in '-' (agent-); separator is one
// of the characters Kafka allows in a topic name.
var (
	principalPrefix = regexp.MustCompile(`^[a-z][a-z0-9]*-$`)
	topicSeparator  = regexp.MustCompile(`^[._-]$`)
	probeID         = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// checkOwnTopics: a principal prefix, a separator Kafka allows in a topic name, a partition count.
func checkOwnTopics(p *problems, o OwnTopics) {
	if !principalPrefix.MatchString(o.PrincipalPrefix) {
		p.add("%s: own_topics.principal_prefix: %q is not lower-case letters ending in '-'", contractFile, o.PrincipalPrefix)
	}
	if !principalPrefix.MatchString(o.ArchiverPrefix) || o.ArchiverPrefix == o.PrincipalPrefix {
		p.add("%s: own_topics.archiver_prefix: %q is not lower-case letters ending in '-', other than principal_prefix", contractFile, o.ArchiverPrefix)
	}
	if !principalPrefix.MatchString(o.BridgePrefix) || o.BridgePrefix == o.PrincipalPrefix || o.BridgePrefix == o.ArchiverPrefix {
		p.add("%s: own_topics.bridge_prefix: %q is not lower-case letters ending in '-', other than principal_prefix and archiver_prefix", contractFile, o.BridgePrefix)
	}
	for i, id := range o.BridgeDestProbes {
		if !probeID.MatchString(id) {
			p.add("%s: own_topics.bridge_dest_probes[%d]: %q is not a probe_id (lower-case letters, digits, '-')", contractFile, i, id)
		}
	}
	if !topicSeparator.MatchString(o.Separator) {
		p.add("%s: own_topics.separator: %q is not one of '.', '_', '-'", contractFile, o.Separator)
	}
	if o.Partitions < 1 {
		p.add("%s: own_topics.partitions: %d, want at least 1", contractFile, o.Partitions)
	}
	if o.RetentionBytes < 1<<20 {
		p.add("%s: own_topics.retention_bytes: %d, want at least 1 MiB", contractFile, o.RetentionBytes)
	}
}
