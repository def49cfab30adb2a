package agent

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"longhaul/ingest/sample"
)

// deadLetter is a dead_letter.v1 message: a sample that did not validate against its schema,
// kept whole with the reason instead of being published to a raw topic.
type deadLetter struct {
	sample.Envelope
	SourceTopic string  `json:"source_topic"`
	RejectedBy  *string `json:"rejected_by"`
	Reason      string  `json:"reason"`
	Payload     string  `json:"payload"`
}

var hostRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

func orUnknown(s string, re *regexp.Regexp) string {
	if s == "" || len(s) > 253 || (re != nil && !re.MatchString(s)) {
		return "unknown"
	}
	return s
}

// newDeadLetter wraps the encoded sample raw that was meant for topic.
func newDeadLetter(h *sample.Envelope, topic string, raw []byte, reason string, now time.Time) ([]byte, error) {
	by := "longhaul-probe"
	if len(reason) > 2000 {
		reason = reason[:2000]
	}
	if strings.TrimSpace(reason) == "" {
		reason = "invalid"
	}
	probeID := h.ProbeID
	if probeID == "" || len(probeID) > 200 {
		probeID = "unknown"
	}
	return json.Marshal(deadLetter{
		Envelope: sample.Envelope{
			Schema: "dead_letter", Version: 1,
			Src: orUnknown(h.Src, hostRE), Dst: orUnknown(h.Dst, hostRE), ProbeID: probeID, TS: now.UnixMilli(),
		},
		SourceTopic: topic, RejectedBy: &by, Reason: reason,
		Payload: strings.ToValidUTF8(string(raw), "\uFFFD"),
	})
}
