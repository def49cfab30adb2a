package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"longhaul/collectors/publish"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
)

// encoder turns samples into spool records: JSON, keyed by link, on the topic of the sample's
// kind. With a schema registry, a sample that does not validate becomes a dead letter.
type encoder struct {
	reg *schema.Registry // nil: no validation
	now func() time.Time
}

// encode returns the record of s and whether it was dead-lettered.
func (e *encoder) encode(s sample.Sample) (publish.Record, bool, error) {
	h := s.Head()
	raw, err := json.Marshal(s)
	if err != nil {
		return publish.Record{}, false, fmt.Errorf("encoding a %s sample: %w", h.Schema, err)
	}
	topic := sample.TopicOf(s)
	var reason string
	switch {
	case topic == sample.TopicDeadLetter:
		reason = fmt.Sprintf("no raw topic for schema %q", h.Schema)
	case e.reg != nil:
		if err := e.reg.ValidateAs(schema.Name(h.Schema, h.Version), raw); err != nil {
			reason = err.Error()
		}
	}
	rec := publish.Record{Class: classOf(s), Topic: topic, Key: []byte(h.Key()), Value: raw}
	if reason == "" {
		return rec, false, nil
	}
	dl, err := newDeadLetter(h, topic, raw, reason, e.now())
	if err != nil {
		return publish.Record{}, false, err
	}
	return publish.Record{Class: publish.ClassKeep, Topic: sample.TopicDeadLetter, Key: rec.Key, Value: dl}, true, nil
}

// classOf is the drop class: throughput interval rows go first when the spool is full.
func classOf(s sample.Sample) publish.Class {
	if t, ok := s.(*sample.Throughput); ok && t.Record == sample.RecordInterval {
		return publish.ClassInterval
	}
	return publish.ClassKeep
}
