// Package sample holds the Go form of the messages defined by ingest/schemas: what the
// collectors publish and what every other component reads. Field names and types follow the
// JSON Schemas exactly; pointer fields are the schema's nullable numbers.
package sample

import (
	"fmt"

	"longhaul/ingest/contract"
)

// Envelope is the part every message has: its schema and version, the link, the probe and
// its event time in epoch milliseconds.
type Envelope struct {
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	Src     string `json:"src"`
	Dst     string `json:"dst"`
	ProbeID string `json:"probe_id"`
	TS      int64  `json:"ts"`
}

// Head returns the envelope: every message embeds one, which makes it a Sample.
func (e *Envelope) Head() *Envelope { return e }

// envelope is the envelope of a new message of a schema's version.
func envelope(schema string, version int, src, dst, probeID string, ts int64) Envelope {
	return Envelope{Schema: schema, Version: version, Src: src, Dst: dst, ProbeID: probeID, TS: ts}
}

// Key is the Kafka message key: one link's messages share a partition and stay ordered.
func (e Envelope) Key() string { return LinkKey(e.Src, e.Dst) }

// LinkKey formats the key of the link src→dst.
func LinkKey(src, dst string) string { return fmt.Sprintf("%s|%s", src, dst) }

// ErrorClass says why a probe run failed.
type ErrorClass string

// The error classes of the schemas, from the most specific to the catch-all.
const (
	ErrConnectionRefused ErrorClass = "connection_refused"
	ErrTimeout           ErrorClass = "timeout"
	ErrNoRoute           ErrorClass = "no_route"
	ErrHostUnreachable   ErrorClass = "host_unreachable"
	ErrServerBusy        ErrorClass = "server_busy"
	ErrDNS               ErrorClass = "dns"
	ErrNotStarted        ErrorClass = "not_started"
	ErrToolMissing       ErrorClass = "tool_missing"
	ErrToolFailed        ErrorClass = "tool_failed"
	ErrOther             ErrorClass = "other"
)

// RunError is the error of a failed run, carried in its summary sample.
type RunError struct {
	Class   ErrorClass `json:"class"`
	Message string     `json:"message"`
}

// Sample is any message a collector publishes.
type Sample interface {
	Head() *Envelope
	// Run is what the sample says of its run: the run's id ("" when it names none) and how the
	// run failed (nil when it ran). Each kind says it itself, so a kind added is never left out of
	// the readers of runs (the agent's health, the importer's duplicates).
	Run() (id string, failure *RunError)
}

// Topic names of the raw samples: the contract's (ingest/topics.yaml, generated into
// longhaul/ingest/contract), under the names the agent has always used.
const (
	TopicThroughput = contract.TopicRawThroughput
	TopicPath       = contract.TopicRawPath
	TopicRTT        = contract.TopicRawRTT
	TopicLatency    = contract.TopicRawLatency
	TopicHost       = contract.TopicRawHost
	TopicDeadLetter = contract.TopicDeadLetter
)

// TopicOf returns the raw topic a sample is published to (the contract's raw.* role of its
// schema), or the dead-letter topic for a schema no raw topic carries.
func TopicOf(s Sample) string {
	if t, ok := contract.RawTopicOfSchema[s.Head().Schema]; ok {
		return t
	}
	return TopicDeadLetter
}

// HistoryTopicOf returns the history topic a backfilled sample is published to, or "" for a kind
// whose history nothing uses (pings, one-way delay and host snapshots learn live within the hour):
// the contract's history.* role of its schema.
func HistoryTopicOf(s Sample) string {
	return contract.HistoryTopicOfSchema[s.Head().Schema]
}

// F64 and I64 make nullable numbers from literals.
func F64(v float64) *float64 { return &v }

// I64 makes a nullable integer.
func I64(v int64) *int64 { return &v }

// Str makes a nullable string.
func Str(v string) *string { return &v }
