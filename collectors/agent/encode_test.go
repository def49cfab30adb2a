package agent

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"longhaul/collectors/publish"
	"longhaul/ingest/sample"
	"longhaul/ingest/schema"
)

func registry(t *testing.T) *schema.Registry {
	t.Helper()
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestIntervalRowsAreTheFirstToDropEverythingElseLast(t *testing.T) {
	e := &encoder{reg: registry(t), now: func() time.Time { return t0 }}
	iv := sample.NewThroughput("cern-ps1", "fnal-ps1", "tput", "r1", sample.RecordInterval, t0.UnixMilli())
	iv.Tool, iv.Protocol, iv.StartS, iv.EndS, iv.BitsPerSecond = "iperf3", "tcp", sample.F64(0), sample.F64(1), sample.F64(1e9)
	sum := sample.NewThroughput("cern-ps1", "fnal-ps1", "tput", "r1", sample.RecordSummary, t0.UnixMilli())
	sum.Tool, sum.Protocol, sum.BitsPerSecond = "iperf3", "tcp", sample.F64(1e9)
	rtt := sample.NewRTT("cern-ps1", "fnal-ps1", "rtt", "r2", t0.UnixMilli())
	rtt.Tool, rtt.Sent, rtt.Received = "ping", 10, 10
	for _, tc := range []struct {
		s     sample.Sample
		class publish.Class
		topic string
	}{
		{iv, publish.ClassInterval, sample.TopicThroughput},
		{sum, publish.ClassKeep, sample.TopicThroughput},
		{rtt, publish.ClassKeep, sample.TopicRTT},
	} {
		rec, dead, err := e.encode(tc.s)
		if err != nil || dead {
			t.Fatalf("%s: dead=%v err=%v", tc.s.Head().Schema, dead, err)
		}
		if rec.Class != tc.class || rec.Topic != tc.topic || string(rec.Key) != "cern-ps1|fnal-ps1" {
			t.Errorf("%s: class %d topic %s key %s", tc.s.Head().Schema, rec.Class, rec.Topic, rec.Key)
		}
	}
}

func TestASampleThatDoesNotValidateIsSpooledAsADeadLetter(t *testing.T) {
	reg := registry(t)
	e := &encoder{reg: reg, now: func() time.Time { return t0 }}
	bad := sample.NewThroughput("cern-ps1", "fnal-ps1", "tput", "r1", sample.RecordSummary, t0.UnixMilli())
	bad.Tool, bad.Protocol = "iperf3", "tcp" // a summary without error needs bits_per_second
	rec, dead, err := e.encode(bad)
	if err != nil || !dead {
		t.Fatalf("dead=%v err=%v", dead, err)
	}
	if rec.Topic != sample.TopicDeadLetter || rec.Class != publish.ClassKeep {
		t.Fatalf("topic %s class %d", rec.Topic, rec.Class)
	}
	if err := reg.Validate(rec.Value); err != nil {
		t.Fatalf("the dead letter itself does not validate: %v\n%s", err, rec.Value)
	}
	var dl deadLetter
	json.Unmarshal(rec.Value, &dl)
	if dl.SourceTopic != sample.TopicThroughput || !strings.Contains(dl.Reason, "bits_per_second") ||
		!strings.Contains(dl.Payload, `"run_id":"r1"`) || dl.Src != "cern-ps1" {
		t.Fatalf("dead letter: %+v", dl)
	}
}
