package kafkaadmin

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"longhaul/ingest/contract"
	"longhaul/ingest/schema"
	"longhaul/internal/kafkaconn"
)

// BridgeHosts is a bridge's central host list (bridge_hosts.v1): the srcs the job takes from its
// own raw topics.
type BridgeHosts struct {
	Schema  string   `json:"schema"`
	Version int      `json:"version"`
	Bridge  string   `json:"bridge"`
	Hosts   []string `json:"hosts"`
	TS      int64    `json:"ts"`
}

// NewBridgeHosts is principal's list of hosts at now, sorted and each once, checked against its
// schema: an error names the host the schema refuses.
func NewBridgeHosts(principal string, hosts []string, now time.Time) (BridgeHosts, []byte, error) {
	hs := slices.Clone(hosts)
	slices.Sort(hs)
	b := BridgeHosts{Schema: contract.SchemaBridgeHosts, Version: contract.VersionBridgeHosts,
		Bridge: principal, Hosts: slices.Compact(hs), TS: now.UnixMilli()}
	msg, err := json.Marshal(b)
	if err != nil {
		return b, nil, err
	}
	reg, err := schema.Embedded()
	if err != nil {
		return b, nil, err
	}
	if err := reg.ValidateAs(fmt.Sprintf("%s.v%d", contract.SchemaBridgeHosts, contract.VersionBridgeHosts), msg); err != nil {
		return b, nil, fmt.Errorf("%s's hosts %v: %w", principal, hosts, err)
	}
	return b, msg, nil
}

// SetBridgeHosts writes principal's host list (msg, NewBridgeHosts's) to the bridges' hosts topic,
// replacing the one it had; msg nil writes its tombstone (no list: the job takes nothing from its
// topics). It says so on log.
func SetBridgeHosts(ctx context.Context, conn kafkaconn.Conn, principal string, msg []byte, log io.Writer) error {
	cl, err := conn.NewClient()
	if err != nil {
		return err
	}
	defer cl.Close()
	r := &kgo.Record{Topic: contract.TopicBridgeHosts, Key: []byte(principal), Value: msg}
	if err := cl.ProduceSync(ctx, r).FirstErr(); err != nil {
		return fmt.Errorf("kafka %v: write %s's host list to %s: %w", conn.Bootstrap, principal, contract.TopicBridgeHosts, err)
	}
	if msg == nil {
		fmt.Fprintf(log, "%s: host list removed (%s): the job takes nothing more from its topics\n", principal, contract.TopicBridgeHosts)
	} else {
		fmt.Fprintf(log, "%s: host list set (%s)\n", principal, contract.TopicBridgeHosts)
	}
	return nil
}

// BridgeLists are the bridges' host lists as the bridge-hosts topic holds them (each bridge's last
// record; a tombstone removes it), for a reader that judges samples like the job does (the
// watchdog). Safe for concurrent use.
type BridgeLists struct {
	mu    sync.RWMutex
	hosts map[string]map[string]bool
}

// NewBridgeLists holds no list yet.
func NewBridgeLists() *BridgeLists { return &BridgeLists{hosts: map[string]map[string]bool{}} }

// Apply takes one record of the bridge-hosts topic: its bridge's new list, or (no value) its
// removal. A value that is not its key's list changes nothing and says why.
func (l *BridgeLists) Apply(key, value []byte) error {
	bridge := string(key)
	if value == nil {
		l.mu.Lock()
		delete(l.hosts, bridge)
		l.mu.Unlock()
		return nil
	}
	var b BridgeHosts
	if err := json.Unmarshal(value, &b); err != nil {
		return fmt.Errorf("%s: %s: %w", contract.TopicBridgeHosts, bridge, err)
	}
	if b.Schema != contract.SchemaBridgeHosts || b.Bridge != bridge {
		return fmt.Errorf("%s: %s: not its list (schema %q, bridge %q)", contract.TopicBridgeHosts, bridge, b.Schema, b.Bridge)
	}
	set := make(map[string]bool, len(b.Hosts))
	for _, h := range b.Hosts {
		set[h] = true
	}
	l.mu.Lock()
	l.hosts[bridge] = set
	l.mu.Unlock()
	return nil
}

// Admits says whether a sample of src read from topic is a sign of src's own life: always unless
// topic is a bridge's own, where src must be in its list (none for a bridge without one). Stricter
// than the job, which also takes a bridge's sample by its dst for a test the destination runs: that
// sample speaks of the far src, not for it.
func (l *BridgeLists) Admits(topic, src string) bool {
	w, _ := contract.WriterOf(topic)
	if !contract.IsBridge(w) {
		return true
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.hosts[w][src]
}
