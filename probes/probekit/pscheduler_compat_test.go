package probekit

import (
	"reflect"
	"strings"
	"testing"
)

// Older archive messages (pScheduler's documentation, docs/json.tex) carry the tool as a
// plain name and the participants as objects; both decode to what current messages give.
func TestDecodeArchiveReadsTheOlderMessageForm(t *testing.T) {
	for in, want := range map[string]struct {
		tool  NameVersion
		hosts Hosts
	}{
		`{"test":{"type":"throughput"},"tool":"iperf3","participants":[{"host":"ps34.example.org","result":{}},{"host":"ps2.example.org"}],"result":{}}`: {NameVersion{Name: "iperf3"}, Hosts{"ps34.example.org", "ps2.example.org"}},
		`{"test":{"type":"throughput"},"tool":{"name":"iperf3","version":"1.0"},"participants":["a","b"],"result":{}}`:                                   {NameVersion{"iperf3", "1.0"}, Hosts{"a", "b"}},
		`{"test":{"type":"throughput"},"tool":null,"result":{}}`:                                                                                         {NameVersion{}, nil},
	} {
		a, err := DecodeArchive([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if a.Tool != want.tool || !reflect.DeepEqual(a.Participants, want.hosts) {
			t.Errorf("%s: tool %+v, participants %q", in, a.Tool, a.Participants)
		}
	}
	_, err := DecodeArchive([]byte(`{"test":{"type":"throughput"},"participants":[7],"result":{}}`))
	if err == nil || !strings.Contains(err.Error(), "participants") {
		t.Fatalf("a number as a participant: %v", err)
	}
}

func TestBareResultTellsTheTestByItsFields(t *testing.T) {
	for in, want := range map[string]string{
		`{"succeeded": true, "intervals": [], "summary": {}}`:      "throughput",
		`{"succeeded": true, "paths": [[{"ip": "10.0.0.1"}]]}`:     "trace",
		`{"succeeded": true, "roundtrips": [], "loss": 0}`:         "rtt",
		`{"succeeded": false, "error": "iperf3 is not installed"}`: "",
	} {
		if typ, ok := BareResult([]byte(in)); !ok || typ != want {
			t.Errorf("%s: %q %v, want %q", in, typ, ok, want)
		}
	}
	for _, in := range []string{
		`{"test": {"type": "throughput"}, "succeeded": true, "result": {}}`,
		`{"intervals": []}`,
		`[1, 2]`,
		`not json`,
	} {
		if typ, ok := BareResult([]byte(in)); ok {
			t.Errorf("%s: a bare %q result", in, typ)
		}
	}
}
