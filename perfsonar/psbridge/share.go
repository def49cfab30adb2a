package psbridge

import (
	"encoding/json"
	"fmt"
	"time"

	"longhaul/ingest/contract"
	"longhaul/ingest/sample"
)

// SeenHorizon is how far back a bridge that starts follows the keys the fleet's bridges shared
// (contract.TopicPsbridgeSeen, kept 2 h): longer than the HTTP archiver's retry policy that
// `longhaul admin add-pscheduler-host` writes (5 tries a minute apart, then 5 ten minutes apart:
// 55 min; operator/setup.ArchiveRetry, whose test holds it under this).
const SeenHorizon = time.Hour

// maxShare bounds a shared key's message: the schema's fields are a few hundred bytes at most.
const maxShare = 2048

// Share is one result a bridge converted, as the bridges of a fleet share it (psbridge_seen.v1):
// the envelope of its first sample (its link, probe and ts), the Digest of the key it is
// remembered by (SeenKey) and the bridge (its agent's src).
type Share struct {
	sample.Envelope
	Digest string `json:"digest"`
	Bridge string `json:"bridge"`
}

// EncodeShare is the message that shares conv, remembered by seenKey (SeenKey) and converted by
// bridge, and its Kafka key (the link's, as every Longhaul message's); false for a result without
// samples (nothing to share: converted again it adds nothing either).
func EncodeShare(conv Converted, seenKey, bridge string) (key, value []byte, ok bool) {
	if len(conv.Samples) == 0 {
		return nil, nil, false
	}
	h := *conv.Samples[0].Head()
	h.Schema, h.Version = contract.SchemaPsbridgeSeen, contract.VersionPsbridgeSeen
	b, _ := json.Marshal(Share{Envelope: h, Digest: Digest(seenKey), Bridge: bridge})
	return []byte(h.Key()), b, true
}

// DecodeShare reads a shared key's message: an error names what is wrong with it (bounded).
func DecodeShare(b []byte) (Share, error) {
	var s Share
	if len(b) > maxShare {
		return s, fmt.Errorf("a shared key of %d bytes, more than %d", len(b), maxShare)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("a shared key that is not JSON: %w", err)
	}
	if s.Schema != contract.SchemaPsbridgeSeen || s.Version < 1 {
		return s, fmt.Errorf("a shared key of schema %q version %d, want %s", s.Schema, s.Version, contract.SchemaPsbridgeSeen)
	}
	if s.Bridge == "" {
		return s, fmt.Errorf("a shared key without its bridge")
	}
	return s, nil
}
