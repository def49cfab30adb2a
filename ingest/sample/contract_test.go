package sample

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"longhaul/ingest/contract"
	"longhaul/ingest/schema"
)

// Every valid raw-sample example, of every version, decodes into its Go type with no unknown field, and encodes
// back into a message that still validates: the Go types cannot drift from the schemas.
func TestGoTypesRoundTripEveryValidExample(t *testing.T) {
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]func() Sample{
		"throughput_sample.v1": func() Sample { return &Throughput{} },
		"path_sample.v1":       func() Sample { return &Path{} },
		"rtt_sample.v1":        func() Sample { return &RTT{} },
		"host_snapshot.v1":     func() Sample { return &Host{} },
		"latency_sample.v1":    func() Sample { return &Latency{} },
		// the types are the newest versions; a consumer decodes every earlier one with them
		"throughput_sample.v2": func() Sample { return &Throughput{} },
		"path_sample.v2":       func() Sample { return &Path{} },
		"rtt_sample.v2":        func() Sample { return &RTT{} },
	}
	for name, mk := range types {
		files, _ := filepath.Glob(filepath.Join("../../ingest/schemas/examples", name, "valid", "*.json"))
		if len(files) == 0 {
			t.Fatalf("no examples for %s", name)
		}
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			s := mk()
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(s); err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			out, _ := json.Marshal(s)
			if err := reg.Validate(out); err != nil {
				t.Errorf("%s re-encoded: %v\n%s", f, err, out)
			}
			if TopicOf(s) == TopicDeadLetter {
				t.Errorf("%s: no raw topic", f)
			}
		}
	}
}

// Every valid event example, of every version, decodes into Event with no unknown field and encodes
// back into a message that still validates: the one Go form of events (the watchdog writes it, the
// alert bridge reads it) cannot drift from the schemas.
func TestTheEventTypeRoundTripsEveryValidEventExample(t *testing.T) {
	reg, err := schema.Load("../../ingest/schemas")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../ingest/schemas/examples/event.v*/valid/*.json")
	if len(files) < 4 {
		t.Fatalf("%d event examples", len(files))
	}
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		var e Event
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if err := reg.Validate(e.Marshal()); err != nil {
			t.Errorf("%s re-encoded: %v\n%s", f, err, e.Marshal())
		}
	}
}

// Every raw topic of the contract has a sample type that is published to it, and no type is
// published anywhere else: a raw topic added to ingest/topics.yaml without a Go type fails here.
func TestEveryRawTopicOfTheContractHasItsSampleType(t *testing.T) {
	got := map[string]bool{}
	for _, s := range []Sample{NewThroughput("a", "b", "p", "r", RecordSummary, 1), NewPath("a", "b", "p", "r", 1),
		NewRTT("a", "b", "p", "r", 1), NewLatency("a", "b", "p", "r", 1), NewHost("a", "b", "p", 1)} {
		got[TopicOf(s)] = true
	}
	for _, topic := range contract.RawTopics {
		if !got[topic] {
			t.Errorf("raw topic %s: no sample type is published to it", topic)
		}
		delete(got, topic)
	}
	if len(got) > 0 {
		t.Errorf("sample types published to topics that are not raw topics of the contract: %v", got)
	}
}
